import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { OverlapViolation, UniqueViolation } from '../app/ports/storage-errors.js';
import type { EngineTraits } from './kysely/engine-traits.js';
import { kyselyStorage } from './kysely/storage.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import type { Storage } from './storage.js';

export interface PostgresOptions {
  /** `postgres://user:pass@host:port/db?sslmode=require`: TLS settings come from the URL. */
  connectionString: string;
  poolSize: number;
  statementTimeoutMs: number;
}

const INT8_OID = 20;

/**
 * PostgreSQL store: a pool of connections; every write transaction runs on one held client (a
 * failed query on `pool.query` makes pg discard and reopen the connection, ~9 ms per conflict),
 * takes the holder's row lock before reading what it decides on, and is retried on serialization
 * failures and deadlocks. The exclusion constraint on confirmed bookings backs up the row lock.
 */
export async function openPostgresStorage(options: PostgresOptions): Promise<Storage> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize,
    statement_timeout: options.statementTimeoutMs,
    // Epoch milliseconds are bigint columns; they fit a JavaScript number exactly.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrateToLatest(db, 'postgres');
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return kyselyStorage(db, POSTGRES);
}

const POSTGRES: EngineTraits = {
  name: 'postgres',
  begin: 'begin',
  async lockCalendar(db, holderId) {
    await sql`select id from holders where id = ${holderId} for update`.execute(db);
  },
  // Write transactions run concurrently: rows are locked before they are changed or deleted…
  lockingRows: (query) => query.forUpdate(),
  // …and a claim passes over deliveries another worker's claim holds.
  claimSuffix: sql`for update of d skip locked`,
  groupCommit: false,
  isRetryable,
  translate,
};

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** serialization_failure, deadlock_detected: the transaction saw nothing durable; run it again. */
function isRetryable(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40001' || code === '40P01';
}

function translate(error: unknown): unknown {
  const code = codeOf(error);
  if (code === '23505') return new UniqueViolation((error as { constraint?: string }).constraint ?? 'unique');
  if (code === '23P01') return new OverlapViolation((error as { constraint?: string }).constraint ?? 'exclusion');
  return error;
}
