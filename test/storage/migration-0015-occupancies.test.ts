// Migration 0015 (occupancies) on a database that has run 0013 and holds bookings and holds of
// every status: each confirmed booking and each hold (live or expired) occupies exactly its
// holder's time afterwards, nothing else does, every booking keeps its fields and gains its
// account and hosts, and the database refuses an overlapping occupancy at once (PostgreSQL) and
// bumps the holder's calendar version with each occupancy written (both engines).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrations } from '../../src/storage/migrations/index.js';
import { createTestDatabase, testStoreKind } from '../support/databases.js';

const engine = testStoreKind();
const AT = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
let dir: string;
let db: Kysely<any>;
let migrator: Migrator;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-migration-0015-'));
  db = new Kysely<any>({
    dialect:
      engine === 'sqlite'
        ? new SqliteDialect({ database: new SQLite(join(dir, 'slotwise.db')) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: await createTestDatabase(), max: 1 }) }),
  });
  migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const before = await migrator.migrateTo('0013_bookings_of_deleted_holders');
  expect(before.error).toBeUndefined();
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

interface Seeded {
  id: string;
  holder: string;
  status: 'confirmed' | 'cancelled' | 'rescheduled' | 'held';
  startHour: number;
  expiresAt?: number;
}

const BOOKINGS: Seeded[] = [
  { id: 'bkg_confirmed_a', holder: 'hdr_a', status: 'confirmed', startHour: 9 },
  { id: 'bkg_cancelled_a', holder: 'hdr_a', status: 'cancelled', startHour: 9 },
  { id: 'bkg_rescheduled_a', holder: 'hdr_a', status: 'rescheduled', startHour: 11 },
  { id: 'hld_live_a', holder: 'hdr_a', status: 'held', startHour: 13, expiresAt: AT + 1_000 * HOUR },
  { id: 'hld_expired_a', holder: 'hdr_a', status: 'held', startHour: 15, expiresAt: AT + HOUR },
  { id: 'bkg_confirmed_b', holder: 'hdr_b', status: 'confirmed', startHour: 9 },
];

async function seed(): Promise<void> {
  for (const account of ['a', 'b']) {
    await db
      .insertInto('accounts')
      .values({ id: `acc_${account}`, name: account, handle: account, created_at: AT, updated_at: AT })
      .execute();
    await db
      .insertInto('holders')
      .values({
        id: `hdr_${account}`,
        account_id: `acc_${account}`,
        name: account,
        handle: account,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
    await db
      .insertInto('event_types')
      .values({
        id: `evt_${account}`,
        holder_id: `hdr_${account}`,
        title: 'Call',
        slug: 'call',
        duration_minutes: 60,
        buffer_before_minutes: 10,
        buffer_after_minutes: 5,
        minimum_notice_minutes: 0,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
  }
  for (const booking of BOOKINGS) {
    const start = Date.UTC(2027, 0, 4, booking.startHour);
    await db
      .insertInto('bookings')
      .values({
        id: booking.id,
        holder_id: booking.holder,
        event_type_id: booking.holder.replace('hdr_', 'evt_'),
        start_at: start,
        end_at: start + HOUR,
        occupied_start: start - 10 * 60_000,
        occupied_end: start + HOUR + 5 * 60_000,
        buffer_before_minutes: 10,
        buffer_after_minutes: 5,
        status: booking.status,
        guest_name: booking.status === 'held' ? '' : 'Ada',
        guest_email: booking.status === 'held' ? '' : 'ada@example.com',
        created_at: AT,
        updated_at: AT,
        expires_at: booking.expiresAt ?? null,
        metadata: '{"crm":"42"}',
      })
      .execute();
  }
}

async function migrateToOccupancies(): Promise<void> {
  const result = await migrator.migrateTo('0015_occupancies');
  expect(result.error).toBeUndefined();
}

it('when bookings and holds of every status exist, then exactly the confirmed bookings and the holds occupy their holder’s time, as they did', async () => {
  await seed();
  await migrateToOccupancies();
  const occupancies = await db.selectFrom('occupancies').selectAll().orderBy('booking_id').execute();
  const occupying = BOOKINGS.filter((b) => b.status === 'confirmed' || b.status === 'held');
  expect(
    occupancies.map((o) => ({
      ...o,
      start_at: Number(o.start_at),
      occupied_start: Number(o.occupied_start),
      occupied_end: Number(o.occupied_end),
      expires_at: o.expires_at === null ? null : Number(o.expires_at),
    })),
  ).toEqual(
    occupying
      .map((b) => {
        const start = Date.UTC(2027, 0, 4, b.startHour);
        return {
          booking_id: b.id,
          holder_id: b.holder,
          event_type_id: b.holder.replace('hdr_', 'evt_'),
          start_at: start,
          occupied_start: start - 10 * 60_000,
          occupied_end: start + HOUR + 5 * 60_000,
          expires_at: b.expiresAt ?? null,
        };
      })
      .sort((x, y) => x.booking_id.localeCompare(y.booking_id)),
  );
});

it('when bookings are migrated, then each keeps its fields and gains its account and its holder as its one host', async () => {
  await seed();
  const before = await db.selectFrom('bookings').selectAll().orderBy('id').execute();
  await migrateToOccupancies();
  const after = await db.selectFrom('bookings').selectAll().orderBy('id').execute();
  expect(after).toHaveLength(BOOKINGS.length);
  for (const [index, row] of after.entries()) {
    const { account_id, host_ids, ...rest } = row;
    expect(rest).toEqual(before[index]);
    expect(account_id).toBe(String(row.holder_id).replace('hdr_', 'acc_'));
    expect(JSON.parse(String(host_ids))).toEqual([row.holder_id]);
  }
});

it('when an occupancy is written over a migrated booking’s time, then PostgreSQL refuses it; on both engines an occupancy bumps its holder’s calendar version and leaves with its booking', async () => {
  await seed();
  await migrateToOccupancies();
  const version = async (holder: string) =>
    Number(
      (await db.selectFrom('holders').select('calendar_version').where('id', '=', holder).executeTakeFirstOrThrow())
        .calendar_version,
    );
  const start = Date.UTC(2027, 0, 4, 10); // within bkg_confirmed_a's buffer after (…10:05)
  const first = await version('hdr_a');
  const overlapping = sql`insert into occupancies (booking_id, holder_id, event_type_id, start_at, occupied_start, occupied_end)
    values ('bkg_cancelled_a', 'hdr_a', 'evt_a', ${start}, ${start}, ${start + HOUR})`;
  if (engine === 'postgres') {
    await expect(overlapping.execute(db)).rejects.toMatchObject({ code: '23P01' });
  } else {
    await overlapping.execute(db);
    expect(await version('hdr_a')).toBe(first + 1);
  }
  // Removing a booking's row removes its occupancy (a hold ended), and its holder's calendar changes.
  const beforeDelete = await version('hdr_a');
  await db.deleteFrom('bookings').where('id', '=', 'hld_live_a').execute();
  expect(
    await db.selectFrom('occupancies').select('booking_id').where('booking_id', '=', 'hld_live_a').execute(),
  ).toEqual([]);
  expect(await version('hdr_a')).toBeGreaterThan(beforeDelete);
});
