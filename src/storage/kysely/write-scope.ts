import type { TransactionScope } from '../../app/ports/store.js';

/**
 * A write outside its transaction's declared scope: a programming error, thrown before the write
 * is sent. Committed, the write would leave the other holder's cached key and calendar stale in
 * this process, since the commit is told as a change of the scope's holders only.
 */
export class OutOfScope extends Error {}

/**
 * The holders and accounts a transaction's writes may touch (`TransactionScope`), checked by every write of
 * the adapters here before it is sent; any holder where the transaction declared no scope.
 */
export class WriteScope {
  static readonly ANY = new WriteScope(undefined);

  static of(scope: TransactionScope | undefined): WriteScope {
    return scope === undefined ? WriteScope.ANY : new WriteScope(new Set(scope.ownerIds));
  }

  private constructor(private readonly ownerIds: ReadonlySet<string> | undefined) {}

  /**
   * Before a write of the rows of `ownerIds` (holders, or an account for what it owns itself; a
   * booking's are its hosts, whose calendars it changes).
   */
  writes(...ownerIds: string[]): void {
    if (this.ownerIds === undefined) return;
    for (const ownerId of ownerIds)
      if (!this.ownerIds.has(ownerId))
        throw new OutOfScope(`A transaction scoped to ${[...this.ownerIds].join(', ')} writes ${ownerId}'s rows`);
  }

  /** Before a write of what a cache keeps whose holder the call does not name (a key's revocation): unscoped only. */
  writesUnnamed(what: string): void {
    if (this.ownerIds !== undefined)
      throw new OutOfScope(
        `A transaction scoped to ${[...this.ownerIds].join(', ')} writes ${what}, whose holder it does not name`,
      );
  }
}
