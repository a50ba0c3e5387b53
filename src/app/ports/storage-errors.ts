// What the store throws for a write the database itself refused: engine-neutral, without
// user-facing text; the use cases turn them into domain errors.

/** A unique constraint rejected a write (e.g. a slug raced in). */
export class UniqueViolation extends Error {
  constructor(readonly constraint: string) {
    super(`unique constraint ${constraint} violated`);
    this.name = 'UniqueViolation';
  }
}

/** The database's own overlap rule (PostgreSQL's exclusion constraint on bookings) rejected a write. */
export class OverlapViolation extends Error {
  constructor(readonly constraint: string) {
    super(`exclusion constraint ${constraint} violated`);
    this.name = 'OverlapViolation';
  }
}

/**
 * A booking or hold was to be written for a holder deleted meanwhile (PostgreSQL, at commit:
 * migration 0013); nothing of the transaction was written.
 */
export class HolderDeleted extends Error {
  constructor() {
    super('the holder was deleted while the request ran');
    this.name = 'HolderDeleted';
  }
}

/**
 * The database cannot take the request now: unreachable or restarting, out of connections or
 * disk, a statement past its timeout, or contention that outlasted the retries. Nothing the
 * request asked for was acknowledged; the client may try again after `retryAfterSeconds`.
 */
export class StoreUnavailable extends Error {
  constructor(
    readonly reason: string,
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super(`store unavailable: ${reason}`, options);
    this.name = 'StoreUnavailable';
  }
}
