// Databases an older build wrote (test/fixtures/before-*), opened by this one: a copy of the
// fixture in a place of its own, and this build's server over it with its clock where the old
// build's answers were recorded.
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { DEFAULT_CALENDAR_SOURCE_SETTINGS, DEFAULT_HTTP_LIMITS } from '../../src/config.js';
import { busyFromCalendars } from '../../src/domain/busy-time.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../src/domain/webhook-retry.js';
import { readOrCreateKeyFile } from '../../src/secrets/key-file.js';
import { DerivedKeyring } from '../../src/secrets/keyring.js';
import { composeServer, type Server } from '../../src/server.js';
import { openPostgresStorage } from '../../src/storage/postgres.js';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import type { Storage } from '../../src/storage/storage.js';
import { createTestDatabase, testStoreKind } from './databases.js';
import { TestClock } from './harness.js';

export interface RestoredFixture {
  storage: Storage;
  databaseUrl: string;
  keyring: DerivedKeyring;
  /** Rows of a query on the restored database, read outside the server. */
  query(text: string): Promise<Array<Record<string, unknown>>>;
  remove(): void;
}

/**
 * The fixture's database of this test run's store in a place of its own, opened by this build (so
 * its migrations run): a copy of `slotwise.db` with its key file, or a new PostgreSQL database
 * loaded from `postgres.sql`, written with `postgresSecret`.
 */
export async function restoreFixture(fixtureDir: string, postgresSecret: string | undefined): Promise<RestoredFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'slotwise-fixture-'));
  if (testStoreKind() === 'sqlite') {
    const filename = join(dir, 'slotwise.db');
    copyFileSync(join(fixtureDir, 'slotwise.db'), filename);
    copyFileSync(join(fixtureDir, 'slotwise.secret'), join(dir, 'slotwise.secret'));
    // Git keeps no file modes but the executable bit; the server refuses a key file others can read.
    chmodSync(join(dir, 'slotwise.secret'), 0o600);
    const keyring = new DerivedKeyring(readOrCreateKeyFile(dir).keys);
    return {
      storage: await openSqliteStorage({ filename }),
      databaseUrl: `sqlite:${filename}`,
      keyring,
      async query(text) {
        const db = new Database(filename, { readonly: true });
        try {
          return db.prepare(text).all() as Array<Record<string, unknown>>;
        } finally {
          db.close();
        }
      },
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!postgresSecret) throw new Error('the PostgreSQL fixture names no secret');
  const databaseUrl = await createTestDatabase();
  // psql's meta-commands (`\restrict`, which pg_dump writes since 15.14) are psql's alone; the rest
  // is SQL a client sends as it is.
  const dump = readFileSync(join(fixtureDir, 'postgres.sql'), 'utf8').replace(/^\\.*$/gm, '');
  await withClient(databaseUrl, (client) => client.query(dump));
  return {
    storage: await openPostgresStorage({ connectionString: databaseUrl, poolSize: 5, statementTimeoutMs: 10_000 }),
    databaseUrl,
    keyring: new DerivedKeyring([postgresSecret]),
    query: (text) => withClient(databaseUrl, async (client) => (await client.query(text)).rows),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
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

/** This build's server over a restored fixture, its clock at `clock` (the worker is not started). */
export function serveFixture(restored: RestoredFixture, clock: TestClock, publicBaseUrl: string): Promise<Server> {
  return composeServer(restored.storage, {
    now: clock.now,
    keyring: restored.keyring,
    rateLimitPerMinute: 0,
    http: { ...DEFAULT_HTTP_LIMITS },
    publicBaseUrl,
    busyParser: { parse: async (_holderId, ...args) => busyFromCalendars(...args) },
    calendarSources: DEFAULT_CALENDAR_SOURCE_SETTINGS,
    webhooks: {
      allowPrivateTargets: false,
      timeoutMs: 15_000,
      retryScheduleMs: [...DEFAULT_RETRY_SCHEDULE_MS],
      pollIntervalMs: 1_000,
      limitPerHolder: 25,
      limitPerAccount: 25,
      concurrency: 128,
      concurrencyPerHolder: 16,
      concurrencyPerAccount: 32,
      retentionDays: 30,
    },
  });
}

/** `/api/v1/bookings/bkg_…?from=…` → `/api/v1/bookings/:id`: the route an answer came from. */
export function routeOf(path: string): string {
  return path.split('?')[0]!.replace(/\/[a-z]{3}_[a-z0-9]{20}/g, '/:id');
}

/** A response's body as the old build's answers were recorded: JSON parsed, anything else as text. */
export function bodyOf(response: LightMyRequestResponse): unknown {
  return (response.headers['content-type'] ?? '').toString().includes('json') ? response.json() : response.body;
}
