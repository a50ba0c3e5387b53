import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Store } from '../../src/app/ports/store.js';
import { openPostgresStorage } from '../../src/storage/postgres.js';
import type { ChangePollTiming } from '../../src/storage/postgres-change-poll.js';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import type { Storage } from '../../src/storage/storage.js';

/**
 * Which store the suite runs against: vitest's `postgres` project sets SLOTWISE_TEST_STORE and
 * SLOTWISE_TEST_PG_PREFIX (see vitest.config.ts); everything else runs on SQLite files.
 */
export type StoreKind = 'sqlite' | 'postgres';

export function testStoreKind(): StoreKind {
  return process.env.SLOTWISE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
}

export const POSTGRES_ADMIN_URL =
  process.env.SLOTWISE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestStore {
  /** Every port over the database. */
  storage: Storage;
  /** `storage.store`: the calendar store. */
  store: Store;
  /** What a spawned server would put in DATABASE_URL to reach the same data. */
  databaseUrl: string;
  /** Every row of a table, in a stable order: for asserting what was (not) written. */
  rows(table: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

/**
 * A store with no data: a new SQLite file in `dir`, or this test process's PostgreSQL database
 * emptied, its change poll timed by `changePoll` (the production defaults unless given).
 */
export async function openTestStore(dir: string, changePoll?: ChangePollTiming): Promise<TestStore> {
  if (testStoreKind() === 'sqlite') {
    const filename = join(dir, 'slotwise.db');
    const storage = await openSqliteStorage({ filename });
    return {
      storage,
      store: storage.store,
      databaseUrl: `sqlite:${filename}`,
      async rows(table) {
        const db = new Database(filename, { readonly: true });
        try {
          return db.prepare(`select * from ${table} order by 1`).all() as Array<Record<string, unknown>>;
        } finally {
          db.close();
        }
      },
      close: () => storage.close(),
    };
  }
  const databaseUrl = await processDatabase();
  const storage = await openPostgresStorage({
    connectionString: databaseUrl,
    poolSize: 5,
    statementTimeoutMs: 10_000,
    changePoll,
  });
  await emptyTables(databaseUrl);
  return {
    storage,
    store: storage.store,
    databaseUrl,
    async rows(table) {
      return withClient(databaseUrl, async (client) => (await client.query(`select * from ${table} order by 1`)).rows);
    },
    close: () => storage.close(),
  };
}

let processDatabaseUrl: Promise<string> | undefined;

/** One database per test process (vitest runs each file in its own process), dropped by the global teardown. */
function processDatabase(): Promise<string> {
  processDatabaseUrl ??= createTestDatabase();
  return processDatabaseUrl;
}

/** A new, empty database named with this run's prefix; the global teardown drops it. */
export async function createTestDatabase(): Promise<string> {
  const prefix = process.env.SLOTWISE_TEST_PG_PREFIX;
  if (!prefix)
    throw new Error('SLOTWISE_TEST_PG_PREFIX is not set: PostgreSQL tests run in the vitest postgres project');
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await withClient(POSTGRES_ADMIN_URL, (client) => client.query(`create database ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function emptyTables(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ tablename: string }>(
      `select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely_%'`,
    );
    if (rows.length > 0) await client.query(`truncate ${rows.map((r) => r.tablename).join(', ')} cascade`);
  });
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
