// Migration 0017 (the hosts of team bookings, contract §14) on a database as the build before it
// leaves it (0016 run, a holder's booking stored), on both engines: what was stored is unchanged,
// no booking has host rows (none of a team type could exist), and the table takes a team
// booking's hosts, found by holder and by event type through their indexes, gone with the booking.
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
let dir: string;
let db: Kysely<any>;
let migrator: Migrator;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-migration-0017-'));
  db = new Kysely<any>({
    dialect:
      engine === 'sqlite'
        ? new SqliteDialect({ database: new SQLite(join(dir, 'slotwise.db')) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: await createTestDatabase(), max: 1 }) }),
  });
  migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const before = await migrator.migrateTo('0016_team_event_types');
  expect(before.error).toBeUndefined();
  if (engine === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

function bookingRow(id: string, holderId: string | null, hostIds: string[], eventTypeId: string, start: number) {
  return {
    id,
    account_id: 'acc_a',
    holder_id: holderId,
    host_ids: JSON.stringify(hostIds),
    event_type_id: eventTypeId,
    start_at: start,
    end_at: start + HOUR / 2,
    occupied_start: start,
    occupied_end: start + HOUR / 2,
    buffer_before_minutes: 0,
    buffer_after_minutes: 0,
    status: 'confirmed',
    guest_name: 'Ada',
    guest_email: 'ada@example.com',
    created_at: AT,
    updated_at: AT,
  };
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
    ['evt_own', 'hdr_a', null],
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
        duration_minutes: 30,
        buffer_before_minutes: 0,
        buffer_after_minutes: 0,
        minimum_notice_minutes: 0,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
  await db
    .insertInto('bookings')
    .values(bookingRow('bkg_own', 'hdr_a', ['hdr_a'], 'evt_own', AT + HOUR))
    .execute();
}

describe('migration 0017_team_booking_hosts', () => {
  it('when it runs on stored bookings, then they are unchanged and have no host rows; a team booking’s hosts are found by holder and by event type, and go with the booking', async () => {
    await seed();
    const bookingsBefore = await db.selectFrom('bookings').selectAll().execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    // Migrations after it add `location`, null (none said), `guest_language`, `en` (0019, 0020),
    // and each booking's appointment, its own, moved no times (0022).
    expect(await db.selectFrom('bookings').selectAll().execute()).toEqual(
      bookingsBefore.map((row) => ({
        ...row,
        location: null,
        guest_language: 'en',
        appointment_id: row.id,
        appointment_moves: 0,
      })),
    );
    expect(await db.selectFrom('team_booking_hosts').selectAll().execute()).toEqual([]);

    const indexes =
      engine === 'sqlite'
        ? await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and tbl_name = 'team_booking_hosts'`.execute(db)
        : await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where tablename = 'team_booking_hosts'`.execute(db);
    expect(indexes.rows.map((row) => row.name)).toEqual(
      expect.arrayContaining(['team_booking_hosts_by_holder', 'team_booking_hosts_confirmed_by_event_type']),
    );

    await db
      .insertInto('bookings')
      .values({ ...bookingRow('bkg_team', null, ['hdr_a', 'hdr_b'], 'evt_team', AT), appointment_id: 'bkg_team' })
      .execute();
    await db
      .insertInto('team_booking_hosts')
      .values(
        ['hdr_a', 'hdr_b'].map((holderId) => ({
          booking_id: 'bkg_team',
          holder_id: holderId,
          event_type_id: 'evt_team',
          start_at: AT,
          created_at: AT,
        })),
      )
      .execute();
    const ofHolder = await db
      .selectFrom('team_booking_hosts')
      .select('booking_id')
      .where('holder_id', '=', 'hdr_b')
      .orderBy('start_at')
      .execute();
    expect(ofHolder).toEqual([{ booking_id: 'bkg_team' }]);
    const ofType = await db
      .selectFrom('team_booking_hosts')
      .select('holder_id')
      .where('event_type_id', '=', 'evt_team')
      .orderBy('holder_id')
      .execute();
    expect(ofType.map((row) => row.holder_id)).toEqual(['hdr_a', 'hdr_b']);
    await expect(
      db
        .insertInto('team_booking_hosts')
        .values({ booking_id: 'bkg_none', holder_id: 'hdr_a', event_type_id: 'evt_team', start_at: AT, created_at: AT })
        .execute(),
    ).rejects.toThrow();

    await db.deleteFrom('bookings').where('id', '=', 'bkg_team').execute();
    expect(await db.selectFrom('team_booking_hosts').selectAll().execute()).toEqual([]);
  });
});
