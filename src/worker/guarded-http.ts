// The address guard of everything Slotwise fetches or sends to a URL its users give it (webhooks,
// calendar sources): only public addresses are reached unless private targets are allowed. A
// literal IP is checked before connecting; a name is checked inside the connection's own DNS
// lookup, so the address checked is the address connected to (no window for DNS rebinding).
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { forbiddenRangeOf, isForbiddenAddress, literalAddressOf } from '../domain/address-guard.js';

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

/** dns.lookup that fails when any address of the name is not public. */
export const guardedLookup: LookupFunction = guardedLookupFor(isForbiddenAddress);

/**
 * An undici Agent whose connections go through the guard (unless private targets are allowed).
 * The literal-IP half is `checkLiteralTarget`, which the caller runs on every URL it requests
 * (each redirect hop included): a literal IP needs no lookup, so the Agent never sees it.
 */
export function guardedAgent(
  allowPrivateTargets: boolean,
  options: Omit<Agent.Options, 'connect'> = {},
  forbidden: AddressPolicy = isForbiddenAddress,
): Agent {
  const lookup = forbidden === isForbiddenAddress ? guardedLookup : guardedLookupFor(forbidden);
  return new Agent({ ...options, connect: allowPrivateTargets ? {} : { lookup } });
}

/** Throws ForbiddenTargetError when the URL's host is a literal IP that is refused. */
export function checkLiteralTarget(
  url: URL,
  allowPrivateTargets: boolean,
  forbidden: AddressPolicy = isForbiddenAddress,
): void {
  if (allowPrivateTargets) return;
  const literal = literalAddressOf(url);
  if (literal && forbidden(literal)) throw new ForbiddenTargetError(literal);
}

/** Whether the guard refused the connection, wherever in the error's cause chain it says so. */
export function isForbiddenTarget(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = (at as { cause?: unknown }).cause, depth++) {
    if (at instanceof ForbiddenTargetError) return true;
  }
  return false;
}
