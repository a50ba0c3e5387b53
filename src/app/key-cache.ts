import { createHash } from 'node:crypto';
import { FreshCache } from './fresh-cache.js';
import type { ChangeSignal } from './ports/change-signal.js';
import type { ActingHolder, ApiKeyReads, AuthenticatedKey, HolderReads } from './ports/store.js';

const MAX_KNOWN_KEYS = 10_000;
const MAX_KNOWN_HOLDERS = 50_000;

/** What the store keeps of a key: its SHA-256, never the key. */
export function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Keys as read from the store, by the token itself, which the process holds for the request
 * anyway (hashing it cost more than the rest of the lookup: docs/performance.md, "Hand-written
 * parts"). A key is stale once anything concerning its holder, or for an account key its
 * account, was committed: a revocation, a calendar change. Expiry is checked against the clock
 * on every request all the same.
 */
export class KeyCache extends FreshCache<AuthenticatedKey> {
  constructor(apiKeys: ApiKeyReads, changes: ChangeSignal) {
    super(
      (token) => apiKeys.findByDigest(digestOf(token)),
      (key) => key.holderId ?? key.accountId,
      changes,
      MAX_KNOWN_KEYS,
    );
  }
}

/**
 * The holders account keys act for (`Slotwise-Holder`), by id, with their calendar versions: a
 * warm request acting for a holder reads nothing, as a holder key's does.
 */
export class HolderCache extends FreshCache<ActingHolder> {
  constructor(holders: HolderReads, changes: ChangeSignal) {
    super(
      (id) => holders.acting(id),
      (holder) => holder.id,
      changes,
      MAX_KNOWN_HOLDERS,
    );
  }
}
