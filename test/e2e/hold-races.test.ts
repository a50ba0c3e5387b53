// Issue 13, "Tests that must exist", on SQLite: two real `slotwise serve` processes on one file,
// raced over HTTP with holds and bookings (contract §9: a live hold occupies its time exactly like
// a confirmed booking; a conversion, a release and the expiry of one hold have one outcome). On
// SQLite nothing but the single write transaction keeps a hold and a booking apart, and the two
// processes each batch their own writers (group commit), so only separate processes on one file
// show whether every decision is taken under the write lock. The scenarios themselves are shared
// with the PostgreSQL file (hold-race-scenarios.ts); here the database rows are read from the
// file, read-only, beside the running servers.
import Database from 'better-sqlite3';
import { join } from 'node:path';
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
} from './hold-race-scenarios.js';
import { createKey, ensureBuilt, startServer, tempStore, type Server, type TempStore } from './support.js';

let store: TempStore;
let a: Server;
let b: Server;
let target: RaceTarget;

function occupyingRows(holder: string, from: number, to: number): OccupyingRow[] {
  const db = new Database(join(store.dir, 'slotwise.db'), { readonly: true });
  try {
    const rows = db
      .prepare(
        `select b.id, b.status, b.start_at, b.occupied_start, b.occupied_end, b.expires_at
         from bookings b join holders h on h.id = b.holder_id
         where h.name = ? and b.status in ('confirmed', 'held') and b.start_at >= ? and b.start_at < ?`,
      )
      .all(holder, from, to) as Array<Record<string, number | string | null>>;
    return rows.map((row) => ({
      id: String(row.id),
      status: String(row.status),
      start: Number(row.start_at),
      occupiedStart: Number(row.occupied_start),
      occupiedEnd: Number(row.occupied_end),
      expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    }));
  } finally {
    db.close();
  }
}

/** Log lines at pino level error (50) or fatal (60). */
const errorLines = () => (a.output() + b.output()).split('\n').filter((line) => /"level":(?:50|60)\b/.test(line));

beforeAll(async () => {
  ensureBuilt();
  store = tempStore();
  const [aliceToken, bobToken] = [
    await createKey(store.databaseUrl, 'alice'),
    await createKey(store.databaseUrl, 'bob'),
  ];
  // The races send several hundred requests with one key within a minute.
  const env = { RATE_LIMIT_PER_MINUTE: '0' };
  [a, b] = await Promise.all([startServer(store.databaseUrl, env), startServer(store.databaseUrl, env)]);
  target = {
    servers: [a, b],
    alice: await prepareCalendar(a, aliceToken),
    bob: await prepareCalendar(b, bobToken),
    occupyingRows: async (holder, from, to) => occupyingRows(holder, from, to),
    // One writer at a time: a request may wait for the other process's batch, which is no fault.
    maxRequestMs: null,
  };
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  store?.remove();
}, 60_000);

describe('holds raced against bookings by two processes on one SQLite file', () => {
  it('when 90 holds and bookings for one start arrive at once across both processes, then exactly one is created and the other 89 are 409 slot-unavailable', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceOneStart(target)));
    expect(errorLines()).toEqual([]);
  });

  it('when holds and bookings with and without buffers race for nearby starts, round after round, then no two occupying rows overlap and every refusal collides with a winner', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceOverlappingStarts(target, 3, 10)));
    expect(errorLines()).toEqual([]);
  });

  it('when each of ten holds gets four conversions and a release at once across both processes, then exactly one of them succeeds and the bookings are exactly the 201 conversions', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceConversionsAndReleases(target)));
    expect(errorLines()).toEqual([]);
  });

  it('when holds and bookings for 30 distinct times of a day race across both processes against a daily maximum of 3, round after round, then exactly three are created each day', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceDailyCap(target, 3, 16)));
    expect(errorLines()).toEqual([]);
  });

  it('when holds expire while their conversions and competing bookings arrive, then each time goes to the conversion or to one booking, never both, and /slots follows on both processes', async ({
    annotate,
  }) => {
    await annotate(JSON.stringify(await raceExpiryAgainstConversion(target)));
    expect(errorLines()).toEqual([]);
  }, 60_000);
});
