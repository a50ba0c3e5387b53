// Issue 12, "faults it must survive": SQLite unable to write, as when the disk is full. Simulated
// with DATABASE_MAX_SIZE_MB (SQLite's max_page_count), since tests run as root and root ignores
// file modes. Writes answer 503 problems with Retry-After, reads keep working, nothing committed is
// lost, and once there is room again (here: the cap lifted) the same file takes bookings again.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, createKey, ensureBuilt, startServer, tempStore, type Server, type TempStore } from './support.js';

const MIN = 60_000;
const DAY = 86_400_000;
let store: TempStore;
let server: Server | undefined;

beforeAll(() => {
  ensureBuilt();
  store = tempStore();
});

afterAll(async () => {
  await server?.stop();
  store.remove();
});

it('when the SQLite database cannot grow, then bookings answer 503 with Retry-After, reads still answer, and every 201 is kept', async () => {
  const token = await createKey(store.databaseUrl, 'alice');
  // A new database takes about 180 KB; 1 MiB fills after a few hundred bookings with long notes.
  server = await startServer(store.databaseUrl, { DATABASE_MAX_SIZE_MB: '1' });
  const allDay = [{ start: '00:00', end: '24:00' }];
  const weekly = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, allDay]),
  );
  expect((await api(server, token, 'PUT', '/api/v1/availability', { timeZone: 'UTC', weekly })).status).toBe(200);
  const eventType = await api(server, token, 'POST', '/api/v1/event-types', { title: 'Call', durationMinutes: 15 });
  expect(eventType.status).toBe(201);

  const day = Math.ceil(Date.now() / DAY) * DAY + 2 * DAY;
  const book = (i: number) =>
    api(server!, token, 'POST', '/api/v1/bookings', {
      eventTypeId: eventType.body.id,
      start: new Date(day + i * 15 * MIN).toISOString(),
      guestName: 'Guest',
      guestEmail: `guest${i}@example.com`,
      notes: `${i} `.padEnd(2000, 'x'),
    });

  // Four at a time until 20 in a row are refused. Near full, a booking may still fit where
  // another did not (each needs room in several tables and indexes, as its row and its
  // occupancy are written), so refusals and the odd 201 can alternate for a while; once full,
  // everything is refused.
  const answers: Array<{ i: number; status: number; id?: string; retryAfter?: string; type?: string }> = [];
  let refusedInARow = 0;
  for (let next = 0; next < 2_000 && refusedInARow < 20; next += 4) {
    const batch = await Promise.all(
      [0, 1, 2, 3].map(async (k) => {
        const response = await book(next + k);
        return {
          i: next + k,
          status: response.status,
          id: response.body?.id as string | undefined,
          retryAfter: response.headers.get('retry-after') ?? undefined,
          type: response.body?.type as string | undefined,
        };
      }),
    );
    answers.push(...batch);
    for (const answer of batch) refusedInARow = answer.status === 503 ? refusedInARow + 1 : 0;
  }
  const created = answers.filter((a) => a.status === 201);
  const refused = answers.filter((a) => a.status === 503);
  expect(answers.filter((a) => a.status !== 201 && a.status !== 503)).toEqual([]);
  expect(created.length).toBeGreaterThan(50);
  // It fills up and stays full (within the 2,000 attempts).
  expect(refusedInARow).toBeGreaterThanOrEqual(20);
  for (const a of refused) {
    expect(a.retryAfter).toBe('5');
    expect(a.type).toBe('urn:service:problem:unavailable');
  }

  // Reads are answered meanwhile, and see every booking that got its 201.
  const from = new Date(day).toISOString();
  const to = new Date(day + 30 * DAY).toISOString();
  const listed: string[] = [];
  let path = `/api/v1/bookings?from=${from}&to=${to}&limit=100`;
  for (;;) {
    const page = await api(server, token, 'GET', path);
    expect(page.status).toBe(200);
    listed.push(...(page.body.data as Array<{ id: string }>).map((b) => b.id));
    if (!page.body.nextCursor) break;
    path = `/api/v1/bookings?from=${from}&to=${to}&limit=100&cursor=${encodeURIComponent(page.body.nextCursor)}`;
  }
  expect(new Set(listed)).toEqual(new Set(created.map((a) => a.id)));
  const slots = await api(
    server,
    token,
    'GET',
    `/api/v1/slots?eventTypeId=${eventType.body.id}&from=${from}&to=${to}&timeZone=UTC`,
  );
  expect(slots.status).toBe(200);
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

  await server.stop();
  server = undefined;
  const db = new Database(join(store.dir, 'slotwise.db'), { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db.prepare('select id, guest_email from bookings').all() as Array<{ id: string; guest_email: string }>;
    const stored = new Map(rows.map((r) => [r.guest_email, r.id]));
    for (const a of created) expect(stored.get(`guest${a.i}@example.com`)).toBe(a.id);
    for (const a of refused) expect(stored.has(`guest${a.i}@example.com`)).toBe(false);
  } finally {
    db.close();
  }

  // With room again, the same file takes the refused bookings.
  server = await startServer(store.databaseUrl);
  const retried = await book(refused[0]!.i);
  expect(retried.status).toBe(201);
}, 120_000);
