// Migration 0012 (account webhooks) on a database that has run 0011 and holds events and
// deliveries: the events are kept, an event may then have no holder, the deliveries still point at
// their events, and the account webhooks have their partial index.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src/storage/migrations/index.js';
import { createTestDatabase, testStoreKind } from '../support/databases.js';

const engine = testStoreKind();
let dir: string;
let db: Kysely<any>;
let migrator: Migrator;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-migration-0012-'));
  db = new Kysely<any>({
    dialect:
      engine === 'sqlite'
        ? new SqliteDialect({ database: new SQLite(join(dir, 'slotwise.db')) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: await createTestDatabase(), max: 1 }) }),
  });
  migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const before = await migrator.migrateTo('0011_accounts');
  expect(before.error).toBeUndefined();
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

async function seed(): Promise<void> {
  const at = Date.UTC(2026, 0, 1);
  await db
    .insertInto('accounts')
    .values({ id: 'acc_a', name: 'a', handle: 'a', created_at: at, updated_at: at })
    .execute();
  await db
    .insertInto('holders')
    .values({ id: 'hdr_a', account_id: 'acc_a', name: 'a', handle: 'a', created_at: at, updated_at: at })
    .execute();
  await db
    .insertInto('webhooks')
    .values({
      id: 'whk_a',
      account_id: 'acc_a',
      holder_id: 'hdr_a',
      url: 'https://hooks.example.com/',
      events: '[]',
      active: 1,
      secret: 'whsec_a',
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('webhook_events')
    .values({
      id: 'msg_a',
      account_id: 'acc_a',
      holder_id: 'hdr_a',
      type: 'booking.created',
      payload: '{}',
      created_at: at,
    })
    .execute();
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: 'dlv_a',
      event_id: 'msg_a',
      webhook_id: 'whk_a',
      status: 'pending',
      attempts: 0,
      retry_step: 0,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

async function indexNames(table: string): Promise<string[]> {
  const rows =
    engine === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db)
      : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table}`.execute(db);
  return rows.rows.map((r) => r.name);
}

describe('migration 0012_account_webhooks', () => {
  it('when it runs over events and deliveries, then they are kept and joined as before, an event may have no holder, and the indexes are there', async () => {
    await seed();
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();

    expect(await db.selectFrom('webhook_events').selectAll().execute()).toEqual([
      expect.objectContaining({ id: 'msg_a', account_id: 'acc_a', holder_id: 'hdr_a', type: 'booking.created' }),
    ]);
    const joined = await db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select(['d.id', 'e.id as event'])
      .execute();
    expect(joined).toEqual([{ id: 'dlv_a', event: 'msg_a' }]);

    await db
      .insertInto('webhook_events')
      .values({ id: 'msg_b', account_id: 'acc_a', holder_id: null, type: 'webhook.test', payload: '{}', created_at: 1 })
      .execute();
    expect(await indexNames('webhook_events')).toContain('webhook_events_by_age');
    expect(await indexNames('webhooks')).toContain('webhooks_of_account');
  });

  it('when it has run, then a delivery of no event is still refused: the deliveries’ foreign key holds on the new table', async () => {
    await seed();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    if (engine === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
    await expect(
      db
        .insertInto('webhook_deliveries')
        .values({
          id: 'dlv_orphan',
          event_id: 'msg_none',
          webhook_id: 'whk_a',
          status: 'pending',
          attempts: 0,
          retry_step: 0,
          created_at: 1,
          updated_at: 1,
        })
        .execute(),
    ).rejects.toThrow(/foreign key/i);
  });
});
