// The address guard of everything Slotwise fetches or sends to a URL its users give it (webhooks,
// calendar sources): only public addresses are reached unless private targets are allowed. It sits
// in the connection itself: a literal IP is checked as the socket is about to open, a name inside
// the connection's own DNS lookup, so the address checked is the address connected to (no window
// for DNS rebinding) and every connection is checked, each redirect hop's included, whoever asks.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { forbiddenRangeOf, isForbiddenAddress, literalAddress } from '../domain/address-guard.js';

/**
 * The guard refused an address. Its message (which delivery logs show the holder) says what kind
 * of address it was, never the address: a name's resolved address would read out internal DNS.
 */
export class ForbiddenTargetError extends Error {
  constructor(readonly address: string) {
    super(`refused to connect to ${forbiddenRangeOf(address) ?? 'a non-public address'}`);
    this.name = 'ForbiddenTargetError';
  }
}

/**
 * Which addresses the guard refuses: `isForbiddenAddress` (domain/address-guard.ts) everywhere
 * but in tests, which narrow it to play a public host on a loopback address.
 */
export type AddressPolicy = (address: string) => boolean;

/** dns.lookup that fails when any address of the name is refused by `forbidden`. */
export function guardedLookupFor(forbidden: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const lookupOptions: LookupOptions = { ...(options as LookupOptions), all: true };
    dnsLookup(hostname, lookupOptions, (error, addresses) => {
      if (error) return (callback as (e: Error) => void)(error);
      const all = addresses as unknown as LookupAddress[];
      const refused = all.find((entry) => forbidden(entry.address));
      if (refused) return (callback as (e: Error) => void)(new ForbiddenTargetError(refused.address));
      if ((options as LookupOptions).all) return (callback as (e: null, a: LookupAddress[]) => void)(null, all);
      const first = all[0]!;
      (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
    });
  };
}

/**
 * undici's connector with the guard inside: a literal IP (which needs no lookup, so the lookup
 * hook never sees it) is refused before the socket opens; a name goes through `guardedLookupFor`.
 */
function guardedConnector(forbidden: AddressPolicy): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookupFor(forbidden) });
  return (options, callback) => {
    const literal = literalAddress(options.hostname);
    if (literal && forbidden(literal)) return callback(new ForbiddenTargetError(literal), null);
    connect(options, callback);
  };
}

/** An undici Agent whose every connection goes through the guard (unless private targets are allowed). */
export function guardedAgent(
  allowPrivateTargets: boolean,
  options: Omit<Agent.Options, 'connect'> = {},
  forbidden: AddressPolicy = isForbiddenAddress,
): Agent {
  return new Agent({ ...options, connect: allowPrivateTargets ? {} : guardedConnector(forbidden) });
}
