// Issue 12, "faults it must survive": a SQLite server SIGKILLed during a booking load. After a
// restart, every booking that got a 201 is there, none that got a 409 is, and the file passes
// `PRAGMA integrity_check`.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, createKey, ensureBuilt, startServer, tempStore, type Server, type TempStore } from './support.js';

const MIN = 60_000;
const DAY = 86_400_000;
let store: TempStore;
let server: Server | undefined;
let token: string;

beforeAll(() => {
  ensureBuilt();
  store = tempStore();
});

afterAll(async () => {
  await server?.stop();
  store.remove();
});

it('when a SQLite server is SIGKILLed during a booking load, then after a restart every 201 booking is there, no 409 one is, and the database is intact', async () => {
  token = await createKey(store.databaseUrl, 'alice');
  server = await startServer(store.databaseUrl);
  const allDay = [{ start: '00:00', end: '24:00' }];
  const weekly = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, allDay]),
  );
  expect((await api(server, token, 'PUT', '/api/v1/availability', { timeZone: 'UTC', weekly })).status).toBe(200);
  const eventType = await api(server, token, 'POST', '/api/v1/event-types', { title: 'Call', durationMinutes: 30 });
  expect(eventType.status).toBe(201);

  // 300 requests on 150 half-hours, two per start: about half win, half lose (409), while the
  // process dies somewhere in the middle.
  const day = Math.ceil(Date.now() / DAY) * DAY + 2 * DAY;
  const requests = Array.from({ length: 300 }, (_, i) => ({
    start: day + Math.floor(i / 2) * 30 * MIN,
    guestEmail: `guest${i}@example.com`,
  }));
  const running = server;
  let answered = 0;
  const outcomes = requests.map(async ({ start, guestEmail }) => {
    try {
      const response = await api(running, token, 'POST', '/api/v1/bookings', {
        eventTypeId: eventType.body.id,
        start: new Date(start).toISOString(),
        guestName: 'Guest',
        guestEmail,
      });
      answered++;
      return { guestEmail, status: response.status, id: response.body?.id as string | undefined };
    } catch {
      return { guestEmail, status: 0, id: undefined };
    }
  });
  while (answered < 60) await new Promise((resolve) => setTimeout(resolve, 1));
  await running.kill();
  const answers = await Promise.all(outcomes);
  const created = answers.filter((a) => a.status === 201);
  const refused = answers.filter((a) => a.status === 409);
  expect(created.length).toBeGreaterThan(0);
  expect(answers.filter((a) => a.status !== 201 && a.status !== 409 && a.status !== 0)).toEqual([]);
  // The kill cut some requests off unanswered.
  expect(answers.some((a) => a.status === 0)).toBe(true);

  server = await startServer(store.databaseUrl);
  const file = join(store.dir, 'slotwise.db');
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db.prepare('select id, guest_email from bookings').all() as Array<{ id: string; guest_email: string }>;
    const stored = new Map(rows.map((r) => [r.guest_email, r.id]));
    for (const a of created) expect(stored.get(a.guestEmail), a.guestEmail).toBe(a.id);
    for (const a of refused) expect(stored.has(a.guestEmail), a.guestEmail).toBe(false);
  } finally {
    db.close();
  }
  // And the restarted server serves them.
  const listed = await api(server, token, 'GET', `/api/v1/bookings?from=${new Date(day).toISOString()}&limit=100`);
  expect(listed.status).toBe(200);
}, 60_000);
