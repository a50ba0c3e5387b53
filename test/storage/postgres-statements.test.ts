// How PostgreSQL runs the store's statements: each parameterised one prepared once per
// connection (src/storage/postgres-prepared.ts), and the booking decision's overlap read served
// by the exclusion constraint's index whatever the planner's statistics say. PostgreSQL only: in
// the `sqlite` project the suite is skipped.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openPostgresStorage,
  OVERLAPPING_OCCUPANCIES,
  OVERLAPPING_OCCUPANCIES_OF,
} from '../../src/storage/postgres.js';
import type { Storage } from '../../src/storage/storage.js';
import { testStoreKind } from '../support/databases.js';
import { addEventType, addHolder, bookingOf, store, testStore, useFreshStorage } from './fixture.js';

useFreshStorage();

describe.skipIf(testStoreKind() !== 'postgres')('PostgreSQL statements', () => {
  let admin: pg.Client;
  /** One connection, so that the statement prepared by the first read is the one the next read runs. */
  let single: Storage;

  beforeEach(async () => {
    admin = new pg.Client({ connectionString: testStore.databaseUrl });
    await admin.connect();
    single = await openPostgresStorage({
      connectionString: testStore.databaseUrl,
      poolSize: 1,
      statementTimeoutMs: 10_000,
    });
  });

  afterEach(async () => {
    await single.close();
    // The column another instance's migration would have added: gone again for the next tests.
    await admin.query('alter table event_types drop column if exists added_by_a_newer_instance');
    await admin.end();
  });

  it('when another instance adds a column to a table this one reads, then its reads and transactions still answer', async () => {
    const holder = await addHolder('alice');
    const eventType = await addEventType(holder.id, { title: 'Intro call' });
    // Prepared on the single connection: the first run parses it under its name.
    expect((await single.store.eventTypes.get(holder.id, eventType.id))?.title).toBe('Intro call');

    // A rolling upgrade: a newer instance migrates while this one serves. `select *` now has
    // another column, which PostgreSQL refuses to run under the statement prepared before.
    await admin.query('alter table event_types add column added_by_a_newer_instance text');
    expect((await single.store.eventTypes.get(holder.id, eventType.id))?.title).toBe('Intro call');

    await admin.query('alter table event_types drop column added_by_a_newer_instance');
    // In a transaction the refused statement aborts it: the whole transaction runs again.
    let runs = 0;
    const title = await single.store.transaction(async (tx) => {
      runs++;
      return (await tx.eventTypes.get(holder.id, eventType.id))?.title;
    });
    expect(title).toBe('Intro call');
    expect(runs).toBe(2);
  });

  it("when a holder's bookings outgrow the planner's statistics, then the overlap read seeks them by holder and range at once", async () => {
    const holder = await addHolder('alice');
    const eventType = await addEventType(holder.id);
    await store.transaction(async (tx) => {
      for (let i = 0; i < 400; i++) {
        const start = Date.UTC(2026, 2, 2) + i * 30 * 60_000;
        await tx.bookings.insert(
          bookingOf(eventType, new Date(start).toISOString(), new Date(start + 30 * 60_000).toISOString()),
        );
      }
    });
    // The statistics of an empty table: what a new database has, or a holder's first busy hour.
    await admin.query('delete from pg_statistic where starelid = $1::regclass', ['bookings']);
    await admin.query(`prepare overlapping(text, bigint, bigint, bigint, text) as ${OVERLAPPING_OCCUPANCIES}`);
    const plan = await admin.query<{ 'QUERY PLAN': string }>(
      `explain execute overlapping('${holder.id}', ${Date.UTC(2026, 2, 3)}, ${Date.UTC(2026, 2, 3, 1)}, ${Date.UTC(2026, 2, 1)}, '')`,
    );
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Cond: \(\(holder_id = .*\) AND \(int8range\(occupied_start, occupied_end\) && /);
  });

  it("when the calendars of many holders are read together, then each holder's overlap read seeks its occupancies by holder and range at once", async () => {
    const holders = [await addHolder('alice'), await addHolder('bob')];
    for (const holder of holders) {
      const eventType = await addEventType(holder.id);
      await store.transaction(async (tx) => {
        for (let i = 0; i < 200; i++) {
          const start = Date.UTC(2026, 2, 2) + i * 30 * 60_000;
          await tx.bookings.insert(
            bookingOf(eventType, new Date(start).toISOString(), new Date(start + 30 * 60_000).toISOString()),
          );
        }
      });
    }
    await admin.query('delete from pg_statistic where starelid = $1::regclass', ['occupancies']);
    await admin.query(`prepare overlapping_of(text, bigint, bigint) as ${OVERLAPPING_OCCUPANCIES_OF}`);
    const ids = JSON.stringify(holders.map((holder) => holder.id));
    const plan = await admin.query<{ 'QUERY PLAN': string }>(
      `explain execute overlapping_of('${ids}', ${Date.UTC(2026, 2, 3)}, ${Date.UTC(2026, 2, 3, 1)})`,
    );
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toMatch(
      /Index Cond: \(\(holder_id = h\.holder_id\) AND \(int8range\(occupied_start, occupied_end\) && /,
    );
    const byHolder = await single.store.bookings.occupanciesOverlappingOf(
      holders.map((holder) => holder.id),
      Date.UTC(2026, 2, 3),
      Date.UTC(2026, 2, 3, 1),
    );
    expect(holders.map((holder) => byHolder.get(holder.id)!.length)).toEqual([2, 2]);
  });
});
