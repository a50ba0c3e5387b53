import { CompiledQuery, sql, type Kysely } from 'kysely';
import { StoreUnavailable } from '../../app/ports/storage-errors.js';
import type { ChangeLog, Touched } from '../change-log.js';
import { GroupCommit, type BatchSession } from '../group-commit.js';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';

const MAX_TRANSACTION_ATTEMPTS = 5;

/**
 * How the adapters of one database run their units of work. `touched` says what of the caches'
 * contents the work can change (see `Touched`); without it, anything.
 */
export interface TransactionRunner {
  /** Runs `work` in a transaction, again from the start when the engine says a failure allows it. */
  retrying<T>(work: (connection: Kysely<Database>) => Promise<T>, touched?: Touched): Promise<T>;
  once<T>(work: (connection: Kysely<Database>) => Promise<T>, touched?: Touched): Promise<T>;
}

/** For a transaction that changes nothing a cache keeps. */
export const NOTHING_CACHED: Touched = [];

/**
 * Every write transaction of one database handle, whichever port asks for it: on SQLite as a
 * unit of a group commit (see GroupCommit: a savepoint in a batch that shares one commit), on
 * PostgreSQL on one held pool connection. A unit gets the connection to run its SQL on.
 */
export class Transactions implements TransactionRunner {
  private readonly groupCommit: GroupCommit<Kysely<Database>> | null;
  /**
   * What the units of the group commit's batch in progress touched (batches run one at a time):
   * told to the change log when the batch commits. Null once a unit may have touched anything.
   */
  private batchTouched: Set<string> | null = new Set();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: EngineTraits,
    /** Told of every commit made here (which `data_version` and notifications do not tell at once). */
    private readonly changes: ChangeLog,
  ) {
    this.groupCommit = engine.groupCommit
      ? new GroupCommit((use) => this.db.connection().execute((connection) => use(this.batchSession(connection))))
      : null;
  }

  async retrying<T>(work: (connection: Kysely<Database>) => Promise<T>, touched?: Touched): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(work, touched);
      } catch (error) {
        if (!this.engine.isRetryable(error)) throw error;
        if (attempt >= MAX_TRANSACTION_ATTEMPTS)
          throw new StoreUnavailable('The database stayed too busy to commit', 1, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }

  once<T>(work: (connection: Kysely<Database>) => Promise<T>, touched?: Touched): Promise<T> {
    if (this.groupCommit)
      return this.groupCommit.run(async (connection) => {
        // Before the work, so that a unit undone after a partial write still counts (more than
        // was changed is told, never less).
        this.noteBatchTouched(touched);
        return work(connection);
      });
    return this.db.connection().execute(async (connection) => {
      await sql.raw(this.engine.begin).execute(connection);
      try {
        const result = await work(connection);
        await sql`commit`.execute(connection);
        this.changes.committedHere(touched);
        return result;
      } catch (error) {
        // On a lost connection the rollback fails too; the transaction's own failure is the answer.
        await sql`rollback`.execute(connection).catch(() => {});
        throw error;
      }
    });
  }

  private batchSession(connection: Kysely<Database>): BatchSession<Kysely<Database>> {
    const run = async (statement: CompiledQuery) => {
      await connection.executeQuery(statement);
    };
    const begin = CompiledQuery.raw(this.engine.begin);
    return {
      tx: connection,
      begin: () => run(begin),
      savepoint: () => run(SAVEPOINT),
      release: () => run(RELEASE),
      rollbackToSavepoint: async () => {
        await run(ROLLBACK_TO);
        await run(RELEASE);
      },
      commit: async () => {
        const touched = this.batchTouched;
        this.batchTouched = new Set();
        await run(COMMIT);
        this.changes.committedHere(touched === null ? undefined : [...touched]);
      },
      rollback: async () => {
        this.batchTouched = new Set();
        await run(ROLLBACK);
      },
    };
  }

  private noteBatchTouched(touched: Touched | undefined): void {
    if (this.batchTouched === null) return;
    if (touched === undefined) this.batchTouched = null;
    else for (const holderId of touched) this.batchTouched.add(holderId);
  }
}

const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to unit');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
