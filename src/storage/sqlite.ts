import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { KyselyStore } from './kysely-store.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import {
  UniqueViolation,
  type ClaimRequest,
  type DeliveryAttempt,
  type DeliveryJob,
  type DeliveryOutcome,
  type Store,
  type StoreWrites,
} from './store.js';

export interface SqliteOptions {
  /** A file path, or `:memory:`. */
  filename: string;
  /** How long a writer waits for another process's write lock before failing. */
  busyTimeoutMs?: number;
}

/**
 * SQLite store: one connection per process (Kysely serialises its use), WAL so readers never
 * block the writer, `synchronous=FULL` so an acknowledged write survives power loss, and
 * `BEGIN IMMEDIATE` so concurrent writers, in this or another process, queue for the write lock
 * before reading what they will decide on.
 */
export async function openSqliteStore(options: SqliteOptions): Promise<Store> {
  if (options.filename !== ':memory:') mkdirSync(dirname(options.filename), { recursive: true });
  const connection = new SQLite(options.filename);
  connection.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  connection.pragma('journal_mode = WAL');
  // better-sqlite3 leaves later connections to a WAL file at NORMAL: set it explicitly.
  connection.pragma('synchronous = FULL');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  await migrateToLatest(db, 'sqlite');
  return new SqliteStore(db);
}

const noCalendarLock = async (): Promise<void> => {};

class SqliteStore extends KyselyStore implements Store {
  constructor(private readonly root: Kysely<Database>) {
    super(root, noCalendarLock);
  }

  transaction<T>(work: (tx: StoreWrites) => Promise<T>): Promise<T> {
    return this.immediate(work);
  }

  claimDueDeliveries(request: ClaimRequest): Promise<DeliveryJob[]> {
    return this.immediate(async (tx) => {
      const jobs = await tx.dueDeliveries(request, false);
      await tx.leaseDeliveries(
        jobs.map((j) => j.deliveryId),
        request.leaseUntil,
      );
      return jobs;
    });
  }

  recordAttempt(deliveryId: string, attempt: DeliveryAttempt, outcome: DeliveryOutcome, now: number): Promise<void> {
    return this.immediate((tx) => tx.applyAttempt(deliveryId, attempt, outcome, now));
  }

  releaseDeliveries(deliveryIds: string[]): Promise<void> {
    return this.immediate((tx) => tx.leaseDeliveries(deliveryIds, null));
  }

  private immediate<T>(work: (tx: KyselyStore) => Promise<T>): Promise<T> {
    return this.root.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      try {
        const result = await work(new KyselyStore(connection, noCalendarLock));
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw translate(error);
      }
    });
  }

  async close(): Promise<void> {
    await this.root.destroy();
  }
}

function translate(error: unknown): unknown {
  if (error instanceof Error && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
    return new UniqueViolation(error.message);
  }
  return error;
}
