// Migration 0014 (schedules, contract §13) on databases as the build before it wrote them, made
// here with the migrations up to 0013: every holder's availability becomes its default schedule,
// a holder that never set one gets what /availability answered for it, the event types book in
// the default schedule, and nothing an existing client sees changes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { UniqueViolation } from '../../src/app/ports/storage-errors.js';
import { composeServer, type Server } from '../../src/server.js';
import { migrations } from '../../src/storage/migrations/index.js';
import { openPostgresStorage } from '../../src/storage/postgres.js';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import type { Storage } from '../../src/storage/storage.js';
import { createTestDatabase, testStoreKind } from '../support/databases.js';
import { createHarness, type Harness } from '../support/harness.js';

const engine = testStoreKind();
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Before0014 {
  /** The database at migration 0013, for rows written as the build before schedules wrote them. */
  db: Kysely<any>;
  /** Closes `db` and opens the database as this build does: migrating it to the latest. */
  open(): Promise<Storage>;
  query(text: string): Promise<Array<Record<string, unknown>>>;
  /** SQLite: the database file. */
  filename?: string;
}

async function databaseBefore0014(): Promise<Before0014> {
  let db: Kysely<any>;
  let open: () => Promise<Storage>;
  let query: Before0014['query'];
  let filename: string | undefined;
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'slotwise-0014-'));
    filename = join(dir, 'slotwise.db');
    const file = filename;
    db = new Kysely({ dialect: new SqliteDialect({ database: new Database(file) }) });
    open = () => openSqliteStorage({ filename: file });
    query = async (text) => {
      const reader = new Database(file, { readonly: true });
      try {
        return reader.prepare(text).all() as Array<Record<string, unknown>>;
      } finally {
        reader.close();
      }
    };
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  } else {
    const url = await createTestDatabase();
    db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) });
    open = () => openPostgresStorage({ connectionString: url, poolSize: 2, statementTimeoutMs: 10_000 });
    query = async (text) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    };
  }
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const { error } = await migrator.migrateTo('0013_bookings_of_deleted_holders');
  if (error) throw error;
  return {
    db,
    query,
    ...(filename === undefined ? {} : { filename }),
    async open() {
      await db.destroy();
      const storage = await open();
      cleanups.unshift(() => storage.close());
      return storage;
    },
  };
}

const CREATED = Date.parse('2025-06-01T12:00:00Z');
const SET = Date.parse('2025-09-15T08:30:00Z');
const BERLIN_WEEKLY = {
  monday: [
    { start: '09:00', end: '12:00' },
    { start: '13:00', end: '17:00' },
  ],
  tuesday: [],
  wednesday: [{ start: '10:00', end: '24:00' }],
  thursday: [],
  friday: [],
  saturday: [],
  sunday: [],
};
const OVERRIDES = [
  { date: '2026-01-05', intervals: [{ start: '15:00', end: '16:00' }] },
  { date: '2026-12-24', intervals: [] },
];
const WORKDAY = [{ start: '09:00', end: '17:00' }];
const DEFAULT_WEEKLY = {
  monday: WORKDAY,
  tuesday: WORKDAY,
  wednesday: WORKDAY,
  thursday: WORKDAY,
  friday: WORKDAY,
  saturday: [],
  sunday: [],
};

/**
 * The rows the build before 0014 wrote: one account with Ada (who set an availability with
 * overrides, and has an event type and a booking), Bea (who never set one) and Cy (deleted).
 */
async function seed(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('accounts')
    .values({ id: 'acc_a', name: 'acme', handle: 'acme', created_at: CREATED, updated_at: CREATED })
    .execute();
  await db
    .insertInto('holders')
    .values(
      [
        ['hdr_ada', 'ada', null],
        ['hdr_bea', 'bea', null],
        ['hdr_cy', 'cy', CREATED + 1],
      ].map(([id, name, deletedAt], i) => ({
        id,
        account_id: 'acc_a',
        name,
        handle: name,
        created_at: CREATED + i,
        updated_at: CREATED + i,
        deleted_at: deletedAt,
      })),
    )
    .execute();
  await db
    .insertInto('availabilities')
    .values({
      holder_id: 'hdr_ada',
      time_zone: 'Europe/Berlin',
      weekly: JSON.stringify(BERLIN_WEEKLY),
      overrides: JSON.stringify(OVERRIDES),
      updated_at: SET,
    })
    .execute();
  await db
    .insertInto('event_types')
    .values({
      id: 'evt_ada_intro',
      holder_id: 'hdr_ada',
      title: 'Intro',
      slug: 'intro',
      duration_minutes: 60,
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      minimum_notice_minutes: 0,
      created_at: CREATED,
      updated_at: CREATED,
    })
    .execute();
  await db
    .insertInto('bookings')
    .values({
      id: 'bkg_ada_1',
      holder_id: 'hdr_ada',
      event_type_id: 'evt_ada_intro',
      start_at: Date.parse('2026-01-05T08:00:00Z'),
      end_at: Date.parse('2026-01-05T09:00:00Z'),
      occupied_start: Date.parse('2026-01-05T08:00:00Z'),
      occupied_end: Date.parse('2026-01-05T09:00:00Z'),
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      status: 'confirmed',
      guest_name: 'Guest',
      guest_email: 'guest@example.com',
      created_at: CREATED,
      updated_at: CREATED,
    })
    .execute();
}

/** The migrated database served by this build, and a key of each live holder. */
async function served(storage: Storage): Promise<{ server: Server; harness: Harness; keys: Record<string, string> }> {
  // A harness of its own only for its settings (clock, keyring): the server is over `storage`.
  const harness = await createHarness({ now: '2026-01-01T00:00:00Z' });
  const server = await composeServer(storage, harness.settings);
  cleanups.unshift(async () => {
    await server.close();
    await harness.close();
  });
  const keys: Record<string, string> = {};
  for (const name of ['ada', 'bea']) {
    // The existing holder of that name in its account: a key for it, as `keys create` makes one.
    const { key, token } = await createApiKey(server.context, {
      accountName: 'acme',
      holderName: name,
      scopes: ['read', 'write'],
      expiresAt: null,
    });
    expect(key.holderId).toBe(`hdr_${name}`);
    keys[name] = token;
  }
  return { server, harness, keys };
}

async function get(server: Server, token: string, url: string) {
  const res = await server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe(`migration 0014 (schedules) on a database just before it (${engine})`, () => {
  it('when it runs, then each holder has exactly one default schedule named Default: the availability it set, with its updatedAt, or what /availability answered for one that never set any', async () => {
    const before = await databaseBefore0014();
    await seed(before.db);
    await before.open();

    const rows = (await before.query('select * from schedules order by holder_id')).map((row) => ({
      ...row,
      created_at: Number(row.created_at),
      updated_at: Number(row.updated_at),
      is_default: Number(row.is_default),
      weekly: JSON.parse(String(row.weekly)),
      overrides: JSON.parse(String(row.overrides)),
    }));
    const common = { id: expect.stringMatching(/^sch_[0-9a-z]{20}$/), name: 'Default', is_default: 1 };
    expect(rows).toEqual([
      {
        ...common,
        holder_id: 'hdr_ada',
        time_zone: 'Europe/Berlin',
        weekly: BERLIN_WEEKLY,
        overrides: OVERRIDES,
        created_at: CREATED,
        updated_at: SET,
      },
      {
        ...common,
        holder_id: 'hdr_bea',
        time_zone: 'UTC',
        weekly: DEFAULT_WEEKLY,
        overrides: [],
        created_at: CREATED + 1,
        updated_at: CREATED + 1,
      },
      // A deleted holder too: every holder has its default schedule.
      {
        ...common,
        holder_id: 'hdr_cy',
        time_zone: 'UTC',
        weekly: DEFAULT_WEEKLY,
        overrides: [],
        created_at: CREATED + 2,
        updated_at: CREATED + 2,
      },
    ]);
    const tables = (
      engine === 'sqlite'
        ? await before.query("select name from sqlite_master where type = 'table'")
        : await before.query("select tablename as name from pg_tables where schemaname = 'public'")
    ).map((row) => row.name);
    expect(tables).toContain('schedules');
    expect(tables).not.toContain('availabilities');
    expect(await before.query('select schedule_id from event_types')).toEqual([{ schedule_id: null }]);
    const indexes = (
      engine === 'sqlite'
        ? await before.query("select name from sqlite_master where type = 'index'")
        : await before.query("select indexname as name from pg_indexes where schemaname = 'public'")
    ).map((row) => row.name);
    expect(indexes).toEqual(
      expect.arrayContaining(['schedules_one_default', 'schedules_by_holder', 'event_types_by_schedule']),
    );
  });

  it('when the migrated database is served, then /availability answers as the build before did, /schedules lists it as the default schedule, and the old event type books in it', async () => {
    const before = await databaseBefore0014();
    await seed(before.db);
    const { server, keys } = await served(await before.open());

    expect(await get(server, keys.ada!, '/api/v1/availability')).toEqual({
      timeZone: 'Europe/Berlin',
      weekly: BERLIN_WEEKLY,
      overrides: OVERRIDES,
      updatedAt: '2025-09-15T08:30:00.000Z',
    });
    expect(await get(server, keys.bea!, '/api/v1/availability')).toEqual({
      timeZone: 'UTC',
      weekly: DEFAULT_WEEKLY,
      overrides: [],
      updatedAt: '2025-06-01T12:00:00.001Z',
    });
    const { data } = await get(server, keys.ada!, '/api/v1/schedules');
    expect(data).toEqual([
      {
        id: expect.stringMatching(/^sch_/),
        name: 'Default',
        timeZone: 'Europe/Berlin',
        weekly: BERLIN_WEEKLY,
        overrides: OVERRIDES,
        default: true,
        createdAt: '2025-06-01T12:00:00.000Z',
        updatedAt: '2025-09-15T08:30:00.000Z',
      },
    ]);
    expect(await get(server, keys.ada!, '/api/v1/event-types/evt_ada_intro')).toMatchObject({ scheduleId: null });

    // Monday 5 January is overridden to 15:00–16:00 Berlin (14:00 UTC); the old booking stays hers.
    const slots = await get(
      server,
      keys.ada!,
      '/api/v1/slots?eventTypeId=evt_ada_intro&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z',
    );
    expect(slots.data.map((slot: { start: string }) => slot.start)).toEqual(['2026-01-05T14:00:00.000Z']);
    expect(await get(server, keys.ada!, '/api/v1/bookings/bkg_ada_1')).toMatchObject({ status: 'confirmed' });
    const booked = await server.app.inject({
      method: 'POST',
      url: '/api/v1/bookings',
      headers: { authorization: `Bearer ${keys.ada!}` },
      payload: {
        eventTypeId: 'evt_ada_intro',
        start: '2026-01-05T14:00:00Z',
        guestName: 'Guest',
        guestEmail: 'guest@example.com',
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
  });

  it('when a schedule is written after it, then the holder’s calendar version changes (its triggers), and a second default schedule of a holder is refused by the database', async () => {
    const before = await databaseBefore0014();
    await seed(before.db);
    const storage = await before.open();
    const versionOf = (holderId: string) => storage.store.holders.calendarVersion(holderId);
    const [beaBefore, adaBefore] = [await versionOf('hdr_bea'), await versionOf('hdr_ada')];
    const fallback = (await storage.store.schedules.defaultOf('hdr_bea'))!;
    await storage.store.transaction((tx) => tx.schedules.update({ ...fallback, timeZone: 'Asia/Tokyo', updatedAt: 1 }));
    expect(await versionOf('hdr_bea')).toBeGreaterThan(beaBefore!);
    const added = { ...fallback, id: 'sch_another', name: 'Another', isDefault: false };
    await storage.store.transaction((tx) => tx.schedules.insert(added));
    const afterInsert = await versionOf('hdr_bea');
    await storage.store.transaction((tx) => tx.schedules.delete('hdr_bea', added.id));
    expect(await versionOf('hdr_bea')).toBeGreaterThan(afterInsert!);
    expect(await versionOf('hdr_ada')).toBe(adaBefore);

    await expect(
      storage.store.transaction((tx) =>
        tx.schedules.insert({ ...fallback, id: 'sch_second_default', name: 'Another default' }),
      ),
    ).rejects.toBeInstanceOf(UniqueViolation);
    expect((await storage.store.schedules.allOf(['hdr_bea'])).map((schedule) => schedule.id)).toEqual([fallback.id]);
  });

  it.skipIf(engine !== 'sqlite')(
    'when a process stopped after the migration and before Kysely recorded it, then running it again finds it done and changes nothing (SQLite)',
    async () => {
      const before = await databaseBefore0014();
      await seed(before.db);
      const storage = await before.open();
      const schedules = await before.query('select * from schedules order by id');
      await storage.close();
      cleanups.shift();

      const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(before.filename!) }) });
      try {
        // The database as that process left it: every migration up to 0013 recorded, 0014 run.
        await db.deleteFrom('kysely_migration').where('name', '>=', '0014_schedules').execute();
        const upTo0014 = Object.fromEntries(
          Object.entries(migrations(engine)).filter(([name]) => name <= '0014_schedules'),
        );
        const { error } = await new Migrator({
          db,
          provider: { getMigrations: async () => upTo0014 },
        }).migrateToLatest();
        expect(error).toBeUndefined();
      } finally {
        await db.destroy();
      }
      expect(await before.query('select * from schedules order by id')).toEqual(schedules);
    },
  );
});
