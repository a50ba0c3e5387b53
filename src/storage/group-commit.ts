/** One database transaction, opened on one connection, with savepoints for its units. */
export interface BatchSession<Tx> {
  tx: Tx;
  begin(): Promise<void>;
  savepoint(): Promise<void>;
  release(): Promise<void>;
  /** Undoes the writes since the savepoint and drops it. */
  rollbackToSavepoint(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

interface Unit<Tx> {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Bounds how long the last unit of a batch waits for the ones before it. */
const MAX_UNITS_PER_BATCH = 256;

/**
 * Group commit for an engine with one writer (SQLite). A durable commit costs an fsync, and the
 * fsync, not the work, limits how many write transactions per second one writer makes. Every
 * write transaction that arrives in the same turn of the event loop (under load: every request
 * that arrived during the previous commit) runs in one database transaction, one after another,
 * each in its own savepoint: a unit that fails is rolled back alone, exactly as if it had run in a
 * transaction of its own, and a later unit sees the writes of the earlier ones, exactly as if they
 * had committed before it. No unit's result or error is given out before the one commit succeeds,
 * so nothing is acknowledged that is not durable; if the commit (or the transaction) fails, every
 * unit of the batch fails with that error and none of their writes remain.
 */
export class GroupCommit<Tx> {
  private readonly queue: Array<Unit<Tx>> = [];
  private draining = false;

  constructor(private readonly openSession: <T>(use: (session: BatchSession<Tx>) => Promise<T>) => Promise<T>) {}

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        void this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        // Lets the requests already waiting on sockets reach their transaction first, to join this batch.
        await new Promise((resolve) => setImmediate(resolve));
        await this.commitBatch(this.queue.splice(0, MAX_UNITS_PER_BATCH));
      }
    } finally {
      this.draining = false;
    }
  }

  /** Never throws: every unit is settled. */
  private async commitBatch(batch: Array<Unit<Tx>>): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.openSession((session) => this.runUnits(session, batch));
    } catch (error) {
      for (const unit of batch) unit.reject(error);
      return;
    }
    batch.forEach((unit, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }

  private async runUnits(session: BatchSession<Tx>, batch: Array<Unit<Tx>>): Promise<Outcome[]> {
    await session.begin();
    try {
      const outcomes: Outcome[] = [];
      for (const unit of batch) {
        await session.savepoint();
        let outcome: Outcome;
        try {
          outcome = { ok: true, value: await unit.work(session.tx) };
        } catch (error) {
          outcome = { ok: false, error };
        }
        // A failure here (the engine dropped the whole transaction, e.g. a full disk) fails the
        // batch, with the unit's own error when it had one: that is what ended the transaction
        // (SQLite rolls back on SQLITE_FULL, and the savepoint is then gone).
        if (outcome.ok) await session.release();
        else {
          const failure = outcome.error;
          await session.rollbackToSavepoint().catch(() => {
            throw failure;
          });
        }
        outcomes.push(outcome);
      }
      // With every unit undone there is nothing to commit (nor anything for caches to notice).
      if (outcomes.some((outcome) => outcome.ok)) await session.commit();
      else await session.rollback();
      return outcomes;
    } catch (error) {
      await session.rollback().catch(() => {});
      throw error;
    }
  }
}
