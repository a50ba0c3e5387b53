import type { ChangeSignal } from './ports/change-signal.js';
import type { ApiKeyReads, AuthenticatedKey } from './ports/store.js';

const MAX_KNOWN_KEYS = 10_000;

/**
 * Keys as read from the store, by digest, reused while the database is unchanged since they
 * were read (nothing committed by any process: no revocation, no calendar change); the version
 * is taken before the read, so a key read meanwhile is at least as new as its label. Expiry is
 * checked against the clock on every request all the same. Where the engine cannot tell whether
 * anything changed without a query (PostgreSQL), every request reads its key.
 */
export class KeyCache {
  private readonly known = new Map<string, { databaseVersion: string; key: AuthenticatedKey }>();

  constructor(
    private readonly apiKeys: ApiKeyReads,
    private readonly changes: ChangeSignal,
  ) {}

  async find(digest: string): Promise<AuthenticatedKey | undefined> {
    const databaseVersion = this.changes.databaseVersion();
    if (databaseVersion === null) return this.apiKeys.findByDigest(digest);
    const cached = this.known.get(digest);
    if (cached && cached.databaseVersion === databaseVersion) return cached.key;
    const key = await this.apiKeys.findByDigest(digest);
    if (key) {
      if (this.known.size >= MAX_KNOWN_KEYS) this.known.clear();
      this.known.set(digest, { databaseVersion, key });
    }
    return key;
  }

  clear(): void {
    this.known.clear();
  }
}
