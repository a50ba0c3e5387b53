import { CompiledQuery, sql, type Kysely } from 'kysely';
import { StoreUnavailable } from '../../app/ports/storage-errors.js';
import type { ChangeLog } from '../change-log.js';
import { GroupCommit, type BatchSession } from '../group-commit.js';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';

const MAX_TRANSACTION_ATTEMPTS = 5;

/** How the adapters of one database run their units of work. */
export interface TransactionRunner {
  /** Runs `work` in a transaction, again from the start when the engine says a failure allows it. */
  retrying<T>(work: (connection: Kysely<Database>) => Promise<T>): Promise<T>;
  once<T>(work: (connection: Kysely<Database>) => Promise<T>): Promise<T>;
}

/**
 * Every write transaction of one database handle, whichever port asks for it: on SQLite as a
 * unit of a group commit (see GroupCommit: a savepoint in a batch that shares one commit), on
 * PostgreSQL on one held pool connection. A unit gets the connection to run its SQL on.
 */
export class Transactions implements TransactionRunner {
  private readonly groupCommit: GroupCommit<Kysely<Database>> | null;

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

  async retrying<T>(work: (connection: Kysely<Database>) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(work);
      } catch (error) {
        if (!this.engine.isRetryable(error)) throw error;
        if (attempt >= MAX_TRANSACTION_ATTEMPTS)
          throw new StoreUnavailable('The database stayed too busy to commit', 1, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }

  once<T>(work: (connection: Kysely<Database>) => Promise<T>): Promise<T> {
    if (this.groupCommit) return this.groupCommit.run(work);
    return this.db.connection().execute(async (connection) => {
      await sql.raw(this.engine.begin).execute(connection);
      try {
        const result = await work(connection);
        await sql`commit`.execute(connection);
        this.changes.committedHere();
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
        await run(COMMIT);
        this.changes.committedHere();
      },
      rollback: () => run(ROLLBACK),
    };
  }
}

const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to unit');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
