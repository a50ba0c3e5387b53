// Issue 12, "faults it must survive": the PostgreSQL store goes away under a booking load (every
// connection of the test's own database killed, and new ones refused) and comes back. Requests in
// that window get 503 `unavailable` with Retry-After, never a 500; /readyz says not ready; the
// server recovers by itself; nothing answered 201 is lost.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { BEFORE_MONDAY, bookingInput, createEventType, expectProblem } from '../http/helpers.js';
import { POSTGRES_ADMIN_URL, testStoreKind } from '../support/databases.js';
import { createHarness, type Harness } from '../support/harness.js';

const MIN = 60_000;

describe.skipIf(testStoreKind() !== 'postgres')('the PostgreSQL store lost and back', () => {
  let h: Harness | undefined;
  let admin: pg.Client | undefined;
  let databaseName = '';

  afterEach(async () => {
    if (admin && databaseName) await admin.query(`alter database "${databaseName}" allow_connections true`);
    await admin?.end();
    await h?.close();
  });

  it('when the database refuses connections and its connections are killed during a booking load, then requests in that window get 503 with Retry-After and never 500, /readyz is not ready, and the server recovers by itself with every 201 kept', async () => {
    h = await createHarness({ now: BEFORE_MONDAY });
    const harness = h;
    const token = await harness.key('alice');
    const eventType = await createEventType(harness, token);
    databaseName = new URL(harness.database.databaseUrl).pathname.slice(1);
    admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    const cut = async () => {
      await admin!.query(`alter database "${databaseName}" allow_connections false`);
      await admin!.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [databaseName]);
    };

    // Monday to Friday, 09:00–17:00 UTC, every half hour: 80 distinct free starts.
    const starts = Array.from(
      { length: 80 },
      (_, i) => Date.UTC(2026, 0, 5 + Math.floor(i / 16), 9) + (i % 16) * 30 * MIN,
    );
    const book = (start: number) =>
      harness.request({ method: 'POST', url: '/api/v1/bookings', token, json: bookingInput(eventType.id, start) });

    // Before: a warm pool.
    for (const start of starts.slice(0, 10)) expect((await book(start)).statusCode).toBe(201);

    // During: 30 bookings in flight, the database cut after the first few answers.
    let answered = 0;
    const load = starts.slice(10, 40).map(async (start) => {
      const response = await book(start);
      answered++;
      return { start, response };
    });
    while (answered < 3) await new Promise((resolve) => setTimeout(resolve, 1));
    await cut();
    const during = await Promise.all(load);
    for (const { response } of during) {
      expect([201, 503], response.body).toContain(response.statusCode);
      if (response.statusCode === 503) {
        expectProblem(response, 503, 'unavailable');
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(during.filter(({ response }) => response.statusCode === 503).length).toBeGreaterThan(0);
    const refused = await book(starts[40]!);
    expectProblem(refused, 503, 'unavailable');
    expectProblem(await harness.request({ method: 'GET', url: '/readyz' }), 503, 'unavailable');

    // After: the same server, no restart.
    await admin.query(`alter database "${databaseName}" allow_connections true`);
    expect((await harness.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    for (const start of starts.slice(41, 51)) expect((await book(start)).statusCode).toBe(201);

    // Every 201 is stored; no refused request left a booking behind.
    const stored = new Set((await harness.database.rows('bookings')).map((row) => Number(row.start_at)));
    const created = [
      ...starts.slice(0, 10),
      ...during.filter(({ response }) => response.statusCode === 201).map(({ start }) => start),
      ...starts.slice(41, 51),
    ];
    expect([...stored].sort()).toEqual([...created].sort());
  }, 60_000);
});
