// Migration 0023 (reminders, contract §16) on a database as the build before it leaves it, on
// both engines: event types gain no reminders; webhooks stored with every type there was (what a
// registration without `events` stored) hear `booking.reminder` too, and every other list stays as
// it was; the due rows are one per booking and offset, and go with their booking.
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
const AT = Date.UTC(2026, 0, 1);
const EVERY_TYPE_BEFORE = [
  'booking.created',
  'booking.cancelled',
  'booking.rescheduled',
  'calendar_source.failed',
  'calendar_source.recovered',
];
let dir: string;
let db: Kysely<any>;
let migrator: Migrator;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-migration-0023-'));
  db = new Kysely<any>({
    dialect:
      engine === 'sqlite'
        ? new SqliteDialect({ database: new SQLite(join(dir, 'slotwise.db')) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: await createTestDatabase(), max: 1 }) }),
  });
  migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const before = await migrator.migrateTo('0020_guest_language');
  expect(before.error).toBeUndefined();
  if (engine === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
  await db
    .insertInto('accounts')
    .values({ id: 'acc_a', name: 'a', handle: 'a', created_at: AT, updated_at: AT })
    .execute();
  await db
    .insertInto('holders')
    .values({ id: 'hdr_a', account_id: 'acc_a', name: 'a', handle: 'a', created_at: AT, updated_at: AT })
    .execute();
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

async function webhook(id: string, events: string[]): Promise<void> {
  await db
    .insertInto('webhooks')
    .values({
      id,
      account_id: 'acc_a',
      holder_id: id === 'whk_account' ? null : 'hdr_a',
      url: 'https://hooks.example.com/',
      events: JSON.stringify(events),
      description: null,
      active: 1,
      secret: 'whsec_x',
      created_at: AT,
      updated_at: AT,
    })
    .execute();
}

async function eventsOf(): Promise<Record<string, string[]>> {
  const rows = await db.selectFrom('webhooks').select(['id', 'events']).orderBy('id').execute();
  return Object.fromEntries(rows.map((row) => [row.id, JSON.parse(row.events) as string[]]));
}

describe('migration 0023_reminders', () => {
  it('when it runs, then webhooks stored with every type gain booking.reminder in its place, and every other list stays', async () => {
    await webhook('whk_every', EVERY_TYPE_BEFORE);
    await webhook('whk_account', EVERY_TYPE_BEFORE);
    await webhook('whk_bookings', ['booking.created', 'booking.cancelled', 'booking.rescheduled']);
    await webhook('whk_created', ['booking.created']);
    await webhook('whk_calendar', ['calendar_source.failed', 'calendar_source.recovered']);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const everyTypeNow = [
      'booking.created',
      'booking.cancelled',
      'booking.rescheduled',
      'booking.reminder',
      'calendar_source.failed',
      'calendar_source.recovered',
    ];
    expect(await eventsOf()).toEqual({
      whk_account: everyTypeNow,
      whk_bookings: ['booking.created', 'booking.cancelled', 'booking.rescheduled'],
      whk_calendar: ['calendar_source.failed', 'calendar_source.recovered'],
      whk_created: ['booking.created'],
      whk_every: everyTypeNow,
    });
  });

  it('when it has run, then stored event types have no reminders, a booking has one due row per offset, and its rows go with it', async () => {
    await db
      .insertInto('event_types')
      .values({
        id: 'evt_a',
        account_id: 'acc_a',
        holder_id: 'hdr_a',
        title: 'Intro',
        slug: 'intro',
        duration_minutes: 30,
        buffer_before_minutes: 0,
        buffer_after_minutes: 0,
        minimum_notice_minutes: 0,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await db.selectFrom('event_types').select('reminders').execute()).toEqual([{ reminders: '[]' }]);
    await db
      .insertInto('bookings')
      .values({
        id: 'bkg_a',
        appointment_id: 'bkg_a',
        account_id: 'acc_a',
        holder_id: 'hdr_a',
        host_ids: '["hdr_a"]',
        event_type_id: 'evt_a',
        start_at: AT,
        end_at: AT + 1_800_000,
        occupied_start: AT,
        occupied_end: AT + 1_800_000,
        buffer_before_minutes: 0,
        buffer_after_minutes: 0,
        status: 'confirmed',
        guest_name: 'Ada',
        guest_email: 'ada@example.com',
        created_at: AT,
        updated_at: AT,
      })
      .execute();
    const due = (minutesBefore: number) => ({
      booking_id: 'bkg_a',
      minutes_before: minutesBefore,
      due_at: AT - minutesBefore * 60_000,
      account_id: 'acc_a',
      holder_id: 'hdr_a',
    });
    await db
      .insertInto('booking_reminders')
      .values([due(60), due(1440)])
      .execute();
    await expect(db.insertInto('booking_reminders').values(due(60)).execute()).rejects.toThrow();
    await expect(
      db
        .insertInto('booking_reminders')
        .values({ ...due(15), booking_id: 'bkg_none' })
        .execute(),
    ).rejects.toThrow();
    await db.deleteFrom('bookings').where('id', '=', 'bkg_a').execute();
    expect(await db.selectFrom('booking_reminders').selectAll().execute()).toEqual([]);
  });
});
