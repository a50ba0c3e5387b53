// Migration 0025 (seat numbers, contract §15) on a database as the build before it leaves it (0024
// run, seats of a holder's occurrence and of a collective team type's stored, plus a booking that
// is no seat), on both engines: each seat gets a number of its own in its occurrence, 1 up, the
// same on every host of a team seat; what is no seat gets none; and a second row of a host's
// occurrence holding a number already held is refused.
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
const HOUR = 3_600_000;
const START = AT + 24 * HOUR;
let dir: string;
let db: Kysely<any>;
let migrator: Migrator;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-migration-0025-'));
  db = new Kysely<any>({
    dialect:
      engine === 'sqlite'
        ? new SqliteDialect({ database: new SQLite(join(dir, 'slotwise.db')) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: await createTestDatabase(), max: 1 }) }),
  });
  migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const before = await migrator.migrateTo('0024_calendar_write_back');
  expect(before.error).toBeUndefined();
  if (engine === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** A confirmed booking of `eventTypeId` at `start` on `hostIds`, with its occupancy rows, a seat of `occurrence` when given. */
async function booking(id: string, eventTypeId: string, hostIds: string[], start: number, occurrence: string | null) {
  await db
    .insertInto('bookings')
    .values({
      id,
      account_id: 'acc_a',
      holder_id: eventTypeId === 'evt_team' ? null : hostIds[0],
      host_ids: JSON.stringify(hostIds),
      event_type_id: eventTypeId,
      start_at: start,
      end_at: start + HOUR,
      occupied_start: start,
      occupied_end: start + HOUR,
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      status: 'confirmed',
      guest_name: id,
      guest_email: `${id}@example.com`,
      created_at: AT,
      updated_at: AT,
      appointment_id: id,
    })
    .execute();
  for (const holderId of hostIds)
    await db
      .insertInto('occupancies')
      .values({
        booking_id: id,
        holder_id: holderId,
        event_type_id: eventTypeId,
        start_at: start,
        occupied_start: start,
        occupied_end: start + HOUR,
        expires_at: null,
        occurrence,
      })
      .execute();
}

async function seed(): Promise<void> {
  await db
    .insertInto('accounts')
    .values({ id: 'acc_a', name: 'a', handle: 'a', created_at: AT, updated_at: AT })
    .execute();
  for (const id of ['hdr_a', 'hdr_b'])
    await db
      .insertInto('holders')
      .values({ id, account_id: 'acc_a', name: id, handle: id, created_at: AT, updated_at: AT })
      .execute();
  for (const [id, holderId, assignment] of [
    ['evt_class', 'hdr_a', null],
    ['evt_one', 'hdr_a', null],
    ['evt_team', null, 'collective'],
  ] as const)
    await db
      .insertInto('event_types')
      .values({
        id,
        account_id: 'acc_a',
        holder_id: holderId,
        assignment,
        title: id,
        slug: id.replace('_', '-'),
        duration_minutes: 60,
        buffer_before_minutes: 0,
        buffer_after_minutes: 0,
        minimum_notice_minutes: 0,
        seats: id === 'evt_one' ? null : 5,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
  const classAt = `evt_class@${START}`;
  const teamAt = `evt_team@${START + 2 * HOUR}`;
  for (const id of ['bkg_c3', 'bkg_c1', 'bkg_c2']) await booking(id, 'evt_class', ['hdr_a'], START, classAt);
  await booking('bkg_one', 'evt_one', ['hdr_a'], START + 4 * HOUR, null);
  for (const id of ['bkg_t2', 'bkg_t1']) await booking(id, 'evt_team', ['hdr_a', 'hdr_b'], START + 2 * HOUR, teamAt);
}

async function seats(): Promise<Record<string, number | null>> {
  const rows = await db
    .selectFrom('occupancies')
    .select(['booking_id', 'holder_id', 'seat'])
    .orderBy('booking_id')
    .orderBy('holder_id')
    .execute();
  return Object.fromEntries(
    rows.map((row) => [`${row.booking_id} ${row.holder_id}`, row.seat === null ? null : Number(row.seat)]),
  );
}

describe('migration 0025_seat_numbers', () => {
  it('when it runs on stored seats, then each seat holds a number of its own in its occurrence, the same on every host, and what is no seat none', async () => {
    await seed();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await seats()).toEqual({
      'bkg_c1 hdr_a': 1,
      'bkg_c2 hdr_a': 2,
      'bkg_c3 hdr_a': 3,
      'bkg_one hdr_a': null,
      'bkg_t1 hdr_a': 1,
      'bkg_t1 hdr_b': 1,
      'bkg_t2 hdr_a': 2,
      'bkg_t2 hdr_b': 2,
    });
  });

  it('when a row of a host’s occurrence takes a number another of its rows holds, then it is refused; another number, or another host, is taken', async () => {
    await seed();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const occurrence = `evt_class@${START}`;
    await booking('bkg_c4', 'evt_class', ['hdr_b'], START, occurrence);
    const seat = (bookingId: string, holderId: string, number: number) =>
      db
        .updateTable('occupancies')
        .set({ seat: number })
        .where('booking_id', '=', bookingId)
        .where('holder_id', '=', holderId)
        .execute();
    await expect(seat('bkg_c3', 'hdr_a', 1)).rejects.toThrow(/unique|duplicate/i);
    await seat('bkg_c3', 'hdr_a', 4);
    await seat('bkg_c4', 'hdr_b', 1);
    expect((await seats())['bkg_c4 hdr_b']).toBe(1);
  });
});
