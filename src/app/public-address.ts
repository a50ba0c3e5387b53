import { lookup } from 'node:dns/promises';
import { forbiddenRangeOf, literalAddressOf } from '../domain/address-guard.js';
import { invalidRequest } from '../domain/errors.js';

/**
 * Refuses a URL whose host is, or now resolves to, a loopback, private, link-local or otherwise
 * non-public address (webhook targets, calendar sources), unless `allowPrivate`. A name that does
 * not resolve now is accepted: the connection checks the address it really connects to. The
 * message says what kind of address refused it, never which address a name resolved to.
 */
export async function assertPublicAddress(url: string, allowPrivate: boolean, field: string): Promise<void> {
  if (allowPrivate) return;
  const parsed = new URL(url);
  const literal = literalAddressOf(parsed);
  const addresses = literal ? [literal] : await resolve(parsed.hostname);
  const refused = addresses.map(forbiddenRangeOf).find((range) => range !== null);
  if (refused) {
    const verb = literal ? 'is' : 'resolves to';
    throw invalidRequest([{ field, message: `must reach a public address; ${parsed.hostname} ${verb} ${refused}` }]);
  }
}

async function resolve(hostname: string): Promise<string[]> {
  try {
    return (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return [];
  }
}
