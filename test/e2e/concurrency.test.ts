// Contract §5: "Two concurrent requests can never both win the same time, in any store, with any
// number of server processes." Real `slotwise serve` processes on one SQLite file, hammered with
// parallel bookings and reschedules over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createKey,
  ensureBuilt,
  startServer,
  tempStore,
  type ApiResponse,
  type Server,
  type TempStore,
} from './support.js';

const MIN = 60_000;
const DAY = 86_400_000;

let store: TempStore;
let token: string;
let a: Server;
let b: Server;
/** 30 minutes, no buffers, 30-minute grid. */
let plainId: string;
/** 30 minutes, 15 minutes of buffer either side, 5-minute grid. */
let bufferedId: string;

/** Midnight UTC `days` from today: far enough ahead to be bookable, on every event type's grid. */
function dayAhead(days: number): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY;
}

const iso = (ms: number) => new Date(ms).toISOString();

function guest(i: number) {
  return { guestName: `Guest ${i}`, guestEmail: `guest${i}@example.com` };
}

interface Booking {
  id: string;
  eventTypeId: string;
  start: string;
  end: string;
  status: string;
  rescheduledFromId: string | null;
  rescheduledToId: string | null;
}

async function confirmedBetween(from: number, to: number): Promise<Booking[]> {
  const all: Booking[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `from=${iso(from)}&to=${iso(to)}&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await api(a, token, 'GET', `/api/v1/bookings?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    all.push(...(response.body.data as Booking[]));
    cursor = response.body.nextCursor as string | null;
  } while (cursor);
  return all;
}

/** Exactly one success; every other answer the given 409 problem(s); nothing 5xx. */
function expectOneWinner(responses: ApiResponse[], successStatus: number, loserTypes: string[]): ApiResponse {
  const summary = JSON.stringify(responses.map((r) => [r.status, r.body?.type ?? r.body]));
  expect(
    responses.filter((r) => r.status >= 500),
    summary,
  ).toEqual([]);
  const winners = responses.filter((r) => r.status === successStatus);
  expect(winners, summary).toHaveLength(1);
  for (const loser of responses.filter((r) => r !== winners[0])) {
    expect(loser.status, summary).toBe(409);
    expect(loser.headers.get('content-type'), summary).toMatch(/^application\/problem\+json/);
    expect(loserTypes, summary).toContain(loser.body.type);
  }
  return winners[0]!;
}

beforeAll(async () => {
  ensureBuilt();
  store = tempStore();
  token = await createKey(store.databaseUrl, 'alice');
  // Two processes starting at once on the same file: migrations must be safe with that too.
  [a, b] = await Promise.all([startServer(store.databaseUrl), startServer(store.databaseUrl)]);

  const allDay = [{ start: '00:00', end: '24:00' }];
  const availability = await api(a, token, 'PUT', '/api/v1/availability', {
    timeZone: 'UTC',
    weekly: Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, allDay]),
    ),
  });
  expect(availability.status, JSON.stringify(availability.body)).toBe(200);

  const plain = await api(a, token, 'POST', '/api/v1/event-types', { title: 'Plain call', durationMinutes: 30 });
  expect(plain.status, JSON.stringify(plain.body)).toBe(201);
  plainId = plain.body.id;
  const buffered = await api(b, token, 'POST', '/api/v1/event-types', {
    title: 'Buffered call',
    durationMinutes: 30,
    slotIntervalMinutes: 5,
    bufferBeforeMinutes: 15,
    bufferAfterMinutes: 15,
  });
  expect(buffered.status, JSON.stringify(buffered.body)).toBe(201);
  bufferedId = buffered.body.id;
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  store?.remove();
}, 60_000);

describe('concurrent bookings against real server processes', () => {
  it('when 50 bookings for the same start arrive in parallel at one process, then exactly one is created and the rest are 409 slot-unavailable', async () => {
    const start = dayAhead(7) + 10 * 60 * MIN;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api(a, token, 'POST', '/api/v1/bookings', { eventTypeId: plainId, start: iso(start), ...guest(i) }),
      ),
    );
    const winner = expectOneWinner(responses, 201, ['urn:service:problem:slot-unavailable']);
    expect(winner.body.status).toBe('confirmed');
    expect(winner.headers.get('location')).toBe(`/api/v1/bookings/${winner.body.id}`);

    const confirmed = await confirmedBetween(start - DAY, start + DAY);
    expect(confirmed.map((bk) => [bk.id, bk.start, bk.status])).toEqual([[winner.body.id, iso(start), 'confirmed']]);
  }, 60_000);

  it('when 60 bookings for the same start are split across two processes on one file, then exactly one is created', async () => {
    const start = dayAhead(7) + 14 * 60 * MIN;
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api(i % 2 === 0 ? a : b, token, 'POST', '/api/v1/bookings', {
          eventTypeId: plainId,
          start: iso(start),
          ...guest(i),
        }),
      ),
    );
    const winner = expectOneWinner(responses, 201, ['urn:service:problem:slot-unavailable']);
    const confirmed = await confirmedBetween(start - 60 * MIN, start + 60 * MIN);
    expect(confirmed.map((bk) => bk.id)).toEqual([winner.body.id]);
  }, 60_000);

  it('when 60 bookings with buffers at random nearby starts race across two processes, then no two confirmed bookings overlap including buffers', async () => {
    const hour = dayAhead(8) + 10 * 60 * MIN;
    // Random starts on the 5-minute grid within one hour: most pairs collide once buffers count.
    const starts = Array.from({ length: 60 }, () => hour + Math.floor(Math.random() * 12) * 5 * MIN);
    const responses = await Promise.all(
      starts.map((start, i) =>
        api(i % 2 === 0 ? a : b, token, 'POST', '/api/v1/bookings', {
          eventTypeId: bufferedId,
          start: iso(start),
          ...guest(i),
        }),
      ),
    );
    const summary = JSON.stringify(responses.map((r) => [r.status, r.body?.type]));
    expect(
      responses.filter((r) => r.status >= 500),
      summary,
    ).toEqual([]);
    for (const r of responses) {
      expect([201, 409], summary).toContain(r.status);
      if (r.status === 409) expect(r.body.type).toBe('urn:service:problem:slot-unavailable');
    }
    const created = responses.filter((r) => r.status === 201).map((r) => r.body.id as string);
    expect(created.length).toBeGreaterThanOrEqual(1);

    const confirmed = await confirmedBetween(dayAhead(8), dayAhead(9));
    expect(confirmed.map((bk) => bk.id).sort()).toEqual([...created].sort());
    // Each occupies [start − 15 min, end + 15 min); sorted by start, each must end before the next begins.
    const occupied = confirmed
      .map((bk) => ({ from: Date.parse(bk.start) - 15 * MIN, to: Date.parse(bk.end) + 15 * MIN, start: bk.start }))
      .sort((x, y) => x.from - y.from);
    for (let i = 1; i < occupied.length; i++) {
      expect(
        occupied[i]!.from,
        `${occupied[i - 1]!.start} and ${occupied[i]!.start} overlap with buffers`,
      ).toBeGreaterThanOrEqual(occupied[i - 1]!.to);
    }
    // The winners leave no room: every start that was tried and lost does collide with a winner.
    for (const [i, r] of responses.entries()) {
      if (r.status !== 409) continue;
      const from = starts[i]! - 15 * MIN;
      const to = starts[i]! + 45 * MIN;
      expect(
        occupied.some((o) => o.from < to && from < o.to),
        `start ${iso(starts[i]!)} was refused without a collision`,
      ).toBe(true);
    }
  }, 60_000);

  it('when 20 parallel reschedules of two bookings target the same new time, then exactly one succeeds and the calendar stays consistent', async () => {
    const day = dayAhead(9);
    const first = await api(a, token, 'POST', '/api/v1/bookings', {
      eventTypeId: plainId,
      start: iso(day + 9 * 60 * MIN),
      ...guest(1),
    });
    const second = await api(b, token, 'POST', '/api/v1/bookings', {
      eventTypeId: plainId,
      start: iso(day + 10 * 60 * MIN),
      ...guest(2),
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    const ids = [first.body.id as string, second.body.id as string];

    const target = day + 15 * 60 * MIN;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(i % 2 === 0 ? a : b, token, 'POST', `/api/v1/bookings/${ids[Math.floor(i / 2) % 2]}/reschedule`, {
          start: iso(target),
          reason: `attempt ${i}`,
        }),
      ),
    );
    // Losers on the winner's old booking see it already moved (invalid-state); the others see the time taken.
    const winner = expectOneWinner(responses, 201, [
      'urn:service:problem:slot-unavailable',
      'urn:service:problem:invalid-state',
    ]);
    expect(winner.body.start).toBe(iso(target));
    expect(ids).toContain(winner.body.rescheduledFromId);

    const moved = winner.body.rescheduledFromId as string;
    const kept = ids.find((id) => id !== moved)!;
    const confirmed = await confirmedBetween(day, day + DAY);
    expect(confirmed.map((bk) => bk.id).sort()).toEqual([kept, winner.body.id].sort());
    const old = await api(b, token, 'GET', `/api/v1/bookings/${moved}`);
    expect(old.body).toMatchObject({ status: 'rescheduled', rescheduledToId: winner.body.id });
  }, 60_000);

  it('when 40 bookings for the 6 seats of one start are split across two processes on one file, then exactly 6 are created (contract §15)', async () => {
    const seated = await api(a, token, 'POST', '/api/v1/event-types', {
      title: 'Class',
      durationMinutes: 60,
      seats: 6,
    });
    expect(seated.status, JSON.stringify(seated.body)).toBe(201);
    // Beyond the days the last test checks: seats of one occurrence overlap by design.
    const start = dayAhead(40) + 10 * 60 * MIN;
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api(i % 2 === 0 ? a : b, token, 'POST', '/api/v1/bookings', {
          eventTypeId: seated.body.id,
          start: iso(start),
          ...guest(i),
        }),
      ),
    );
    const summary = JSON.stringify(responses.map((r) => [r.status, r.body?.type ?? r.body]));
    expect(
      responses.filter((r) => r.status === 201),
      summary,
    ).toHaveLength(6);
    for (const refused of responses.filter((r) => r.status !== 201)) {
      expect(refused.status, summary).toBe(409);
      expect(refused.body.type, summary).toBe('urn:service:problem:slot-unavailable');
    }
    expect(await confirmedBetween(start - DAY, start + DAY)).toHaveLength(6);
  }, 60_000);

  it('when all the races are over, then no two confirmed bookings of the holder overlap, buffers included', async () => {
    const eventTypes = new Map<string, { before: number; after: number }>([
      [plainId, { before: 0, after: 0 }],
      [bufferedId, { before: 15, after: 15 }],
    ]);
    const confirmed = await confirmedBetween(dayAhead(0), dayAhead(30));
    expect(confirmed.length).toBeGreaterThanOrEqual(5);
    const occupied = confirmed
      .map((bk) => {
        const buffers = eventTypes.get(bk.eventTypeId)!;
        return {
          from: Date.parse(bk.start) - buffers.before * MIN,
          to: Date.parse(bk.end) + buffers.after * MIN,
          id: bk.id,
        };
      })
      .sort((x, y) => x.from - y.from);
    for (let i = 1; i < occupied.length; i++) expect(occupied[i]!.from).toBeGreaterThanOrEqual(occupied[i - 1]!.to);
    // Neither process logged a failure while being raced.
    expect(a.output() + b.output()).not.toMatch(/"level":(?:50|60)/);
  });
});
