// Issue 13, "Tests that must exist", on PostgreSQL: three real `slotwise serve` processes on one
// database, raced over HTTP with holds and bookings (contract §9: a live hold occupies its time
// exactly like a confirmed booking; a conversion, a release and the expiry of one hold have one
// outcome). Here what keeps a hold and a booking apart is the exclusion constraint
// `occupancies_no_overlap` and the conditional delete that ends a hold, under concurrent
// transactions of separate processes and pools, so a race that one process could serialise by
// accident cannot hide a hole. The scenarios are shared with the SQLite file
// (e2e/hold-race-scenarios.ts); this file adds what PostgreSQL promises besides: no request waits
// on a lock cycle, and no instance logs an error. A lock cycle costs its victim deadlock_timeout
// before it is found, set to 5 s for this database: a request slower than 3 s waited on one,
// while 90 requests on two busy cores may take a second and more without any.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  prepareCalendar,
  raceConversionsAndReleases,
  raceDailyCap,
  raceExpiryAgainstConversion,
  raceOneStart,
  raceOverlappingStarts,
  type OccupyingRow,
  type RaceTarget,
} from '../e2e/hold-race-scenarios.js';
import { createKey, ensureBuilt } from '../e2e/support.js';
import { createTestDatabase } from '../support/databases.js';
import { errorLines, startInstances, type Instance } from './instances.js';

const SERVER_ENV = {
  DATABASE_POOL_SIZE: '10',
  DATABASE_STATEMENT_TIMEOUT_MS: '10000',
  // The races send several hundred requests with one key within a minute.
  RATE_LIMIT_PER_MINUTE: '0',
};

/** How long a lock cycle stalls its victim on this database (`deadlock_timeout`), well above `maxRequestMs`. */
const DEADLOCK_TIMEOUT_MS = 5_000;

const spawned: Instance[] = [];
let db: pg.Pool;
let instances: Instance[];
let target: RaceTarget;

async function occupyingRows(holder: string, from: number, to: number): Promise<OccupyingRow[]> {
  const { rows } = await db.query<Record<string, string | null>>(
    `select b.id, b.status, b.start_at, b.occupied_start, b.occupied_end, b.expires_at
     from bookings b join holders h on h.id = b.holder_id
     where h.name = $1 and b.status in ('confirmed', 'held') and b.start_at >= $2 and b.start_at < $3`,
    [holder, from, to],
  );
  return rows.map((row) => ({
    id: String(row.id),
    status: String(row.status),
    start: Number(row.start_at),
    occupiedStart: Number(row.occupied_start),
    occupiedEnd: Number(row.occupied_end),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  }));
}

function expectNoInstanceErrors(): void {
  for (const instance of instances) {
    expect(instance.exited(), instance.name).toBe(false);
    expect(errorLines(instance), instance.name).toEqual([]);
  }
}

beforeAll(async () => {
  ensureBuilt();
  const databaseUrl = await createTestDatabase();
  db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  const { rows } = await db.query<{ name: string }>('select current_database() as name');
  await db.query(`alter database ${rows[0]!.name} set deadlock_timeout = '${DEADLOCK_TIMEOUT_MS}ms'`);
  instances = await startInstances(3, databaseUrl, SERVER_ENV, spawned);
  const [aliceToken, bobToken] = [await createKey(databaseUrl, 'alice'), await createKey(databaseUrl, 'bob')];
  target = {
    servers: instances,
    alice: await prepareCalendar(instances[0]!, aliceToken),
    bob: await prepareCalendar(instances[1]!, bobToken),
    occupyingRows,
    maxRequestMs: 3_000,
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(spawned.map((instance) => instance.stop(3_000)));
  await db?.end();
}, 30_000);

describe('holds raced against bookings by three instances on one PostgreSQL database', () => {
  it('when the schema is migrated, then one exclusion constraint keeps confirmed bookings and holds apart, but seats of one occurrence (migration 0018)', async () => {
    const { rows } = await db.query<{ table: string; name: string; definition: string }>(
      `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
         from pg_constraint where contype = 'x'`,
    );
    expect(rows).toEqual([
      {
        table: 'occupancies',
        name: 'occupancies_no_overlap',
        definition:
          'EXCLUDE USING gist (holder_id WITH =, int8range(occupied_start, occupied_end) WITH &&, COALESCE(occurrence, booking_id) WITH <>)',
      },
    ]);
  });

  it('when 90 holds and bookings for one start arrive at once across three instances, then exactly one is created, the other 89 are 409 slot-unavailable, and none waits a second', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceOneStart(target)));
    expectNoInstanceErrors();
  });

  it('when holds and bookings with and without buffers race for nearby starts, round after round, then no two occupying rows overlap, every refusal collides with a winner, and none waits a second', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceOverlappingStarts(target, 5, 10)));
    expectNoInstanceErrors();
  }, 60_000);

  it('when each of ten holds gets four conversions and a release at once across three instances, then exactly one of them succeeds and the bookings are exactly the 201 conversions', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceConversionsAndReleases(target)));
    expectNoInstanceErrors();
  });

  it('when holds and bookings for 30 distinct times of a day race across three instances against a daily maximum of 3, round after round, then exactly three are created each day', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceDailyCap(target, 3, 16)));
    expectNoInstanceErrors();
  });

  it('when holds expire while their conversions and competing bookings arrive, then each time goes to the conversion or to one booking, never both, and /slots follows on every instance', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceExpiryAgainstConversion(target)));
    expectNoInstanceErrors();
  }, 60_000);
});
