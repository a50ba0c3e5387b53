// Migration 0016 (team event types) on databases as today's build leaves them (every migration
// before it run, rows written as that build writes them), on both engines: every event type keeps
// every column and value it had and gains its holder's account; team types and their hosts can be
// stored, under the rules of contract §14; and on SQLite, where the table is rebuilt, a column,
// constraint and index that an earlier migration added (as schedules add `schedule_id`) survive.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src/storage/migrations/index.js';
import { openPostgresStorage } from '../../src/storage/postgres.js';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import { createTestDatabase, testStoreKind } from '../support/databases.js';

const engine = testStoreKind();
const BEFORE = '0013_bookings_of_deleted_holders';
const AT = Date.UTC(2026, 0, 1);
let dir: string;
let databaseUrl: string;
let db: Kysely<any>;
let migrator: Migrator;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-migration-0016-'));
  databaseUrl = engine === 'sqlite' ? join(dir, 'slotwise.db') : await createTestDatabase();
  db = new Kysely<any>({
    dialect:
      engine === 'sqlite'
        ? new SqliteDialect({ database: new SQLite(databaseUrl) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
  });
  migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const before = await migrator.migrateTo(BEFORE);
  expect(before.error).toBeUndefined();
  if (engine === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

function eventType(id: string, holderId: string, slug: string, deletedAt: number | null = null) {
  return {
    id,
    holder_id: holderId,
    title: `Type ${id}`,
    slug,
    description: null,
    duration_minutes: 30,
    slot_interval_minutes: null,
    buffer_before_minutes: 5,
    buffer_after_minutes: 10,
    minimum_notice_minutes: 0,
    booking_window_days: null,
    max_bookings_per_day: 3,
    created_at: AT,
    updated_at: AT,
    deleted_at: deletedAt,
    public: 1,
    questions: '[{"id":"topic","label":"Topic","type":"text","required":false,"options":null}]',
  };
}

/** Two accounts, a deleted holder, live and deleted event types sharing a slug, a booking: as today's build writes them. */
async function seed(): Promise<void> {
  for (const account of ['acc_a', 'acc_b'])
    await db
      .insertInto('accounts')
      .values({ id: account, name: account, handle: account, created_at: AT, updated_at: AT })
      .execute();
  for (const [id, account, deletedAt] of [
    ['hdr_a', 'acc_a', null],
    ['hdr_b', 'acc_b', null],
    ['hdr_c', 'acc_a', AT],
  ] as const)
    await db
      .insertInto('holders')
      .values({ id, account_id: account, name: id, handle: id, created_at: AT, updated_at: AT, deleted_at: deletedAt })
      .execute();
  await db
    .insertInto('event_types')
    .values([
      eventType('evt_a1', 'hdr_a', 'intro'),
      eventType('evt_a2', 'hdr_a', 'intro', AT),
      eventType('evt_b1', 'hdr_b', 'intro'),
      eventType('evt_c1', 'hdr_c', 'old', AT),
    ])
    .execute();
  await db
    .insertInto('bookings')
    .values({
      id: 'bkg_a',
      holder_id: 'hdr_a',
      event_type_id: 'evt_a1',
      start_at: AT,
      end_at: AT + 1_800_000,
      occupied_start: AT - 300_000,
      occupied_end: AT + 2_400_000,
      buffer_before_minutes: 5,
      buffer_after_minutes: 10,
      status: 'confirmed',
      guest_name: 'Ada',
      guest_email: 'ada@example.com',
      created_at: AT,
      updated_at: AT,
    })
    .execute();
}

/**
 * What a migration between today's and this one adds to `event_types` (as 0014 adds
 * `schedule_id`): a nullable column referencing a table of its own, a `not null` one with a
 * default, and an index over the first.
 */
async function addLaterColumns(): Promise<void> {
  await sql`create table later_things (id text primary key)`.execute(db);
  await sql`insert into later_things (id) values ('lt_1')`.execute(db);
  await sql`alter table event_types add column later_id text references later_things (id)`.execute(db);
  await sql`alter table event_types add column later_flag integer not null default 7`.execute(db);
  await sql`update event_types set later_id = 'lt_1', later_flag = 8 where id = 'evt_a1'`.execute(db);
  await sql`create index event_types_by_later on event_types (later_id)`.execute(db);
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

const eventTypes = () => db.selectFrom('event_types').selectAll().orderBy('id').execute();

async function migrated(): Promise<void> {
  const { error } = await migrator.migrateToLatest();
  expect(error).toBeUndefined();
  if (engine === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
}

describe('migration 0016_team_event_types', () => {
  it('when it runs over today’s event types, then each keeps every value it had, gains its holder’s account and no assignment, and bookings still point at it', async () => {
    await seed();
    const before = await eventTypes();
    await migrated();
    const accounts: Record<string, string> = { hdr_a: 'acc_a', hdr_b: 'acc_b', hdr_c: 'acc_a' };
    // 0014 (between) adds `schedule_id`: null, the holder's default schedule; 0018 (after) `seats`,
    // 0019 `location`, 0021 `notify_guest` and `notify_hosts` (1: both told, the default), 0023 `reminders` (none).
    expect(await eventTypes()).toEqual(
      before.map((row) => ({
        ...row,
        account_id: accounts[row.holder_id as string],
        assignment: null,
        schedule_id: null,
        seats: null,
        location: null,
        reminders: '[]',
        notify_guest: 1,
        notify_hosts: 1,
      })),
    );
    const joined = await db
      .selectFrom('bookings')
      .innerJoin('event_types', 'event_types.id', 'bookings.event_type_id')
      .select(['bookings.id', 'event_types.slug'])
      .execute();
    expect(joined).toEqual([{ id: 'bkg_a', slug: 'intro' }]);
    if (engine === 'sqlite') expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
  });

  it('when it has run, then the indexes, the bookings’ foreign key and the calendar version’s triggers hold for event types as before', async () => {
    await seed();
    await migrated();
    expect(await indexNames('event_types')).toEqual(
      expect.arrayContaining([
        'event_types_live_slug',
        'event_types_by_holder',
        'event_types_by_account',
        'event_types_live_team_slug',
      ]),
    );
    expect(await indexNames('event_type_hosts')).toEqual(expect.arrayContaining(['event_type_hosts_by_holder']));
    // A holder's own slugs stay unique per holder among live event types.
    await expect(
      db
        .insertInto('event_types')
        .values({ ...eventType('evt_a3', 'hdr_a', 'intro'), account_id: 'acc_a' })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
    await expect(
      db
        .insertInto('bookings')
        .values({
          id: 'bkg_orphan',
          appointment_id: 'bkg_orphan',
          account_id: 'acc_a',
          holder_id: 'hdr_a',
          host_ids: '["hdr_a"]',
          event_type_id: 'evt_none',
          start_at: AT,
          end_at: AT,
          occupied_start: AT,
          occupied_end: AT,
          buffer_before_minutes: 0,
          buffer_after_minutes: 0,
          status: 'cancelled',
          guest_name: 'Nobody',
          guest_email: 'nobody@example.com',
          created_at: AT,
          updated_at: AT,
        })
        .execute(),
    ).rejects.toThrow(/foreign key/i);

    const version = async () =>
      Number(
        (await db.selectFrom('holders').select('calendar_version').where('id', '=', 'hdr_a').executeTakeFirstOrThrow())
          .calendar_version,
      );
    const versionBefore = await version();
    await db.updateTable('event_types').set({ title: 'Renamed' }).where('id', '=', 'evt_a1').execute();
    expect(await version()).toBeGreaterThan(versionBefore);
  });

  it('when it has run, then a team event type with hosts can be stored, under the rules of contract §14', async () => {
    await seed();
    await migrated();
    const team = (id: string, slug: string, account = 'acc_a', assignment: string | null = 'round-robin') => ({
      ...eventType(id, 'unused', slug),
      holder_id: null,
      account_id: account,
      assignment,
    });
    await db.insertInto('event_types').values(team('evt_t1', 'intro')).execute();
    // Team slugs are unique among the account's live team types: another account's, a deleted one's are free.
    await expect(db.insertInto('event_types').values(team('evt_t2', 'intro')).execute()).rejects.toThrow(
      /unique|duplicate/i,
    );
    await db
      .insertInto('event_types')
      .values(team('evt_t3', 'intro', 'acc_b'))
      .execute();
    await db.updateTable('event_types').set({ deleted_at: AT }).where('id', '=', 'evt_t1').execute();
    await db.insertInto('event_types').values(team('evt_t4', 'intro')).execute();
    // A team type has an assignment, a holder's own has none.
    await expect(
      db
        .insertInto('event_types')
        .values(team('evt_t5', 'other', 'acc_a', null))
        .execute(),
    ).rejects.toThrow(/check|constraint/i);
    await expect(
      db
        .insertInto('event_types')
        .values({ ...eventType('evt_a9', 'hdr_a', 'other'), account_id: 'acc_a', assignment: 'collective' })
        .execute(),
    ).rejects.toThrow(/check|constraint/i);

    const host = (holderId: string, position: number) => ({
      event_type_id: 'evt_t4',
      holder_id: holderId,
      schedule_id: null,
      fixed: 0,
      priority: 2,
      weight: 100,
      position,
    });
    await db
      .insertInto('event_type_hosts')
      .values([host('hdr_a', 0), host('hdr_c', 1)])
      .execute();
    await expect(db.insertInto('event_type_hosts').values(host('hdr_a', 2)).execute()).rejects.toThrow(
      /unique|duplicate|primary key/i,
    );
    await expect(db.insertInto('event_type_hosts').values(host('hdr_nobody', 2)).execute()).rejects.toThrow(
      /foreign key/i,
    );
  });

  it('when an earlier migration added columns, a foreign key and an index to event_types, then they are kept with their values and rules', async () => {
    await seed();
    await addLaterColumns();
    await migrated();
    const rows = await db.selectFrom('event_types').select(['id', 'later_id', 'later_flag']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'evt_a1', later_id: 'lt_1', later_flag: 8 },
      { id: 'evt_a2', later_id: null, later_flag: 7 },
      { id: 'evt_b1', later_id: null, later_flag: 7 },
      { id: 'evt_c1', later_id: null, later_flag: 7 },
    ]);
    expect(await indexNames('event_types')).toContain('event_types_by_later');
    const insert = (id: string, later: Record<string, unknown>) =>
      db
        .insertInto('event_types')
        .values({ ...eventType(id, 'hdr_b', id), account_id: 'acc_b', ...later })
        .execute();
    await insert('evt_b2', {});
    expect(
      await db.selectFrom('event_types').select('later_flag').where('id', '=', 'evt_b2').executeTakeFirstOrThrow(),
    ).toEqual({ later_flag: 7 });
    await expect(insert('evt_b3', { later_flag: null })).rejects.toThrow(/not null|null value/i);
    await expect(insert('evt_b4', { later_id: 'lt_none' })).rejects.toThrow(/foreign key/i);
  });

  it.runIf(engine === 'sqlite')(
    'when SQLite runs it again after a stop between the migration and its record, then it finds it done and changes nothing',
    async () => {
      await seed();
      await migrated();
      const before = await eventTypes();
      await migrations(engine)['0016_team_event_types']!.up(db);
      expect(await eventTypes()).toEqual(before);
    },
  );

  it('when this build opens the migrated database, then the account lists its live holders’ event types as before', async () => {
    await seed();
    await migrated();
    await db.destroy();
    const storage =
      engine === 'sqlite'
        ? await openSqliteStorage({ filename: databaseUrl })
        : await openPostgresStorage({ connectionString: databaseUrl, poolSize: 2, statementTimeoutMs: 10_000 });
    try {
      const listed = await storage.store.eventTypes.list(
        { accountId: 'acc_a', holderId: null },
        { limit: 10, after: null },
      );
      expect(listed.map((e) => [e.id, e.holderId])).toEqual([['evt_a1', 'hdr_a']]);
    } finally {
      await storage.close();
      // afterEach destroys it again: a fresh handle that does nothing.
      db = new Kysely<any>({
        dialect:
          engine === 'sqlite'
            ? new SqliteDialect({ database: new SQLite(':memory:') })
            : new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
      });
    }
  });
});
