import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { ChangeSignal } from '../../app/ports/change-signal.js';
import { StoreUnavailable } from '../../app/ports/storage-errors.js';
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
export class Transactions implements TransactionRunner, ChangeSignal {
  private readonly groupCommit: GroupCommit<Kysely<Database>> | null;
  /** Commits made through this handle: `data_version` does not count a connection's own. */
  private commits = 0;
  /** `data_version` as read in this event-loop turn, or null before the turn's first read. */
  private dataVersionThisTurn: number | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: EngineTraits,
  ) {
    this.groupCommit = engine.groupCommit
      ? new GroupCommit((use) => this.db.connection().execute((connection) => use(this.batchSession(connection))))
      : null;
  }

  /**
   * Read once per event-loop turn: reading `data_version` takes SQLite's WAL read lock (two
   * system calls), and under load a turn handles the requests of many connections at once. A
   * request read in the same turn as the first that asked arrived before that read, so it was
   * sent before any commit the read missed was acknowledged: either order is a true one.
   */
  databaseVersion(): string | null {
    if (!this.engine.dataVersion) return null;
    if (this.dataVersionThisTurn === null) {
      this.dataVersionThisTurn = this.engine.dataVersion();
      setImmediate(() => {
        this.dataVersionThisTurn = null;
      });
    }
    return `${this.dataVersionThisTurn}:${this.commits}`;
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
        this.commits++;
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
        this.commits++;
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
