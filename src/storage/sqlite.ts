import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type MigrationProvider } from 'kysely';
import { KyselyStore } from './kysely-store.js';
import { migrations, type Database } from './schema.js';
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
  await migrate(db);
  return new SqliteStore(db);
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations({ instant: 'integer' }) };
  const migrator = new Migrator({ db, provider });
  // Kysely's migration lock is a no-op on SQLite and its transaction starts deferred, so a second
  // process starting at the same moment can lose the upgrade to a write lock (SQLITE_BUSY).
  // The winner's migrations are then visible: retrying finds nothing left to do.
  let outcome = await migrator.migrateToLatest();
  for (let attempt = 1; attempt < 20 && isBusy(outcome.error); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    outcome = await migrator.migrateToLatest();
  }
  const { error, results } = outcome;
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`SQLite migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
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
      const jobs = await tx.dueDeliveries(request);
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

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function translate(error: unknown): unknown {
  if (error instanceof Error && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
    return new UniqueViolation(error.message);
  }
  return error;
}
