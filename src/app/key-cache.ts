import { createHash } from 'node:crypto';
import type { ChangeSignal } from './ports/change-signal.js';
import type { ApiKeyReads, AuthenticatedKey } from './ports/store.js';

const MAX_KNOWN_KEYS = 10_000;

/** What the store keeps of a key: its SHA-256, never the key. */
export function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Keys as read from the store, reused while nothing that concerns their holder was committed
 * since they were read, by any process (no revocation, no calendar change: see `ChangeSignal`);
 * the mark is taken before the read, so a key read meanwhile is at least as new as its label.
 * Expiry is checked against the clock on every request all the same. When the process cannot
 * hear other processes' commits (PostgreSQL's change poll unanswered), every request reads its key.
 *
 * Kept by measurement (docs/performance.md, "Hand-written parts"): a known key is found by the
 * token itself, which the process holds for the request anyway (hashing it cost more than the
 * rest of the lookup), and without a promise (`find` answers a known key at once, so the auth
 * hook of a warm request waits on nothing).
 */
export class KeyCache {
  private readonly known = new Map<string, { mark: number; key: AuthenticatedKey }>();
  /**
   * Reads in flight, by token, with the mark taken before each: a request that finds the same
   * mark (nothing changed since that read began) waits for it rather than reading again. After a
   * commit, every request in flight would otherwise read its key at once (measured: 63
   * statements a booking with 64 connections reading one key).
   */
  private readonly reading = new Map<string, { mark: number; key: Promise<AuthenticatedKey | undefined> }>();

  constructor(
    private readonly apiKeys: ApiKeyReads,
    private readonly changes: ChangeSignal,
  ) {}

  find(token: string): AuthenticatedKey | undefined | Promise<AuthenticatedKey | undefined> {
    const cached = this.known.get(token);
    if (cached && this.changes.unchangedSince(cached.mark, cached.key.holderId)) return cached.key;
    const mark = this.changes.mark();
    if (mark === null) return this.apiKeys.findByDigest(digestOf(token));
    const inFlight = this.reading.get(token);
    if (inFlight && inFlight.mark === mark) return inFlight.key;
    const key = this.apiKeys.findByDigest(digestOf(token)).then(
      (found) => {
        if (this.reading.get(token)?.key === key) this.reading.delete(token);
        if (found) {
          if (this.known.size >= MAX_KNOWN_KEYS) this.known.clear();
          this.known.set(token, { mark, key: found });
        }
        return found;
      },
      (error: unknown) => {
        if (this.reading.get(token)?.key === key) this.reading.delete(token);
        throw error;
      },
    );
    // Bounded as `known` is: one entry per token read at this moment.
    if (this.reading.size >= MAX_KNOWN_KEYS) this.reading.clear();
    this.reading.set(token, { mark, key });
    return key;
  }

  clear(): void {
    this.known.clear();
    this.reading.clear();
  }
}
