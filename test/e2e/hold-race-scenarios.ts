// The hold races of issue 13 ("Tests that must exist"), written once and run against real server
// processes on both stores: two processes on one SQLite file (e2e/hold-races.test.ts) and three
// instances on one PostgreSQL database (postgres/hold-races.test.ts). Contract §9 says a live hold
// occupies its time exactly like a confirmed booking (buffers and the daily maximum included), and that a conversion, a release and the
// expiry of one hold have exactly one outcome; contract §5 says two requests never both win one
// time "in any store, with any number of server processes". Each scenario fires its requests at
// once, round-robin over the processes, and judges the answers against each other, against the
// rows in the database and against `/slots` on every process. Keeping the scenarios in one place
// keeps the two stores to the same standard. Each returns the counts it saw; the test files
// annotate their tests with them (shown by `--reporter=verbose`).
import { expect } from 'vitest';
import { api, type ApiResponse } from './support.js';

const MIN = 60_000;
const DAY = 86_400_000;
const SLOT_UNAVAILABLE = 'urn:service:problem:slot-unavailable';
const HOLD_EXPIRED = 'urn:service:problem:hold-expired';
const NOT_FOUND = 'urn:service:problem:not-found';

export interface RaceServer {
  url: string;
}

/** A row of `bookings` with status `confirmed` or `held`, as the database has it. */
export interface OccupyingRow {
  id: string;
  status: string;
  start: number;
  occupiedStart: number;
  occupiedEnd: number;
  expiresAt: number | null;
}

/** Two holders' calendars (see `prepareCalendar`) served by several processes over one database. */
export interface RaceTarget {
  servers: RaceServer[];
  alice: Calendar;
  /** A second holder: no race of alice's changes bob's calendar version. */
  bob: Calendar;
  /** Straight from the database: the holder's confirmed and held rows starting in [from, to). */
  occupyingRows(holder: 'alice' | 'bob', from: number, to: number): Promise<OccupyingRow[]>;
  /**
   * A request of the one-start and buffer races slower than this fails them (PostgreSQL: a lock
   * cycle costs its victim deadlock_timeout, which the race's database sets above it); null where
   * no bound is promised.
   */
  maxRequestMs: number | null;
}

export interface Calendar {
  token: string;
  /** 30 minutes on a 30-minute grid, no buffers. */
  plainId: string;
  /** 30 minutes on a 5-minute grid, 15 minutes of buffer either side. */
  bufferedId: string;
}

interface Shape {
  durationMs: number;
  beforeMs: number;
  afterMs: number;
}

const PLAIN: Shape = { durationMs: 30 * MIN, beforeMs: 0, afterMs: 0 };
const BUFFERED: Shape = { durationMs: 30 * MIN, beforeMs: 15 * MIN, afterMs: 15 * MIN };

/** An answer with when it was asked for and received, on the clock the servers share with this process. */
export interface Answer extends ApiResponse {
  sentAt: number;
  answeredAt: number;
  ms: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Midnight UTC `days` from today: far enough ahead to be bookable, on every grid used here. */
function dayAhead(days: number): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY;
}

function guest(i: number) {
  return { guestName: `Guest ${i}`, guestEmail: `guest${i}@example.com` };
}

async function send(server: RaceServer, token: string, method: string, path: string, json?: unknown): Promise<Answer> {
  const sentAt = Date.now();
  const began = performance.now();
  const response = await api(server, token, method, path, json);
  return { ...response, sentAt, answeredAt: Date.now(), ms: performance.now() - began };
}

const holdOf = (server: RaceServer, token: string, eventTypeId: string, start: number, expiresInSeconds?: number) =>
  send(server, token, 'POST', '/api/v1/holds', {
    eventTypeId,
    start: iso(start),
    ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }),
  });
const bookingOf = (server: RaceServer, token: string, eventTypeId: string, start: number, i: number) =>
  send(server, token, 'POST', '/api/v1/bookings', { eventTypeId, start: iso(start), ...guest(i) });
const conversionOf = (server: RaceServer, token: string, holdId: string, i: number) =>
  send(server, token, 'POST', '/api/v1/bookings', { holdId, ...guest(i) });

function summary(answers: ApiResponse[]): string {
  return JSON.stringify(answers.map((r) => [r.status, r.body?.type ?? r.body?.id ?? r.body]));
}

function expectNo5xx(answers: ApiResponse[]): void {
  expect(
    answers.filter((r) => r.status >= 500),
    summary(answers),
  ).toEqual([]);
}

function expectProblem(answer: ApiResponse, status: number, type: string, context: string): void {
  expect(answer.status, context).toBe(status);
  expect(answer.headers.get('content-type'), context).toMatch(/^application\/problem\+json/);
  expect(answer.body.type, context).toBe(type);
}

function expectFast(target: RaceTarget, answers: Answer[], context: string): void {
  if (target.maxRequestMs === null) return;
  expect(Math.max(...answers.map((a) => a.ms)), context).toBeLessThan(target.maxRequestMs);
}

const overlap = (x: { from: number; to: number }, y: { from: number; to: number }) => x.from < y.to && y.from < x.to;

/** No two of the rows overlap on [occupied_start, occupied_end). */
function expectDisjoint(rows: OccupyingRow[], context: string): void {
  const sorted = [...rows].sort((x, y) => x.occupiedStart - y.occupiedStart);
  for (let i = 1; i < sorted.length; i++) {
    expect(
      sorted[i]!.occupiedStart,
      `${context}: ${sorted[i - 1]!.id} and ${sorted[i]!.id} overlap: ${JSON.stringify(sorted)}`,
    ).toBeGreaterThanOrEqual(sorted[i - 1]!.occupiedEnd);
  }
}

/** Rows that occupy time at `now`: confirmed bookings and holds not yet expired. */
const liveAt = (rows: OccupyingRow[], now: number) =>
  rows.filter((r) => r.status === 'confirmed' || (r.status === 'held' && r.expiresAt !== null && now < r.expiresAt));

/** The day's free starts on `server`, or the problem it answered instead. */
async function slotStarts(
  server: RaceServer,
  token: string,
  eventTypeId: string,
  day: number,
): Promise<{ starts: number[] } | { problem: string }> {
  const response = await api(
    server,
    token,
    'GET',
    `/api/v1/slots?eventTypeId=${eventTypeId}&from=${iso(day)}&to=${iso(day + DAY)}`,
  );
  if (response.status !== 200) return { problem: `${response.status} ${JSON.stringify(response.body)}` };
  return { starts: (response.body.data as Array<{ start: string }>).map((slot) => Date.parse(slot.start)) };
}

/**
 * The day's free starts on `server` once they satisfy `settled`, or its last answer after a
 * second (which must then be a 200): an instance hears another's commits at once on SQLite, and
 * within its change poll's interval on PostgreSQL (docs/architecture.md, "PostgreSQL's change
 * poll"); an event type made on another instance is unknown to it until then.
 */
async function settledSlotStarts(
  server: RaceServer,
  token: string,
  eventTypeId: string,
  day: number,
  settled: (starts: number[]) => boolean,
): Promise<number[]> {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const answer = await slotStarts(server, token, eventTypeId, day);
    // An instance that has not heard of a new event type yet answers 400 for it meanwhile.
    if ('starts' in answer && (settled(answer.starts) || Date.now() > deadline)) return answer.starts;
    if ('problem' in answer && Date.now() > deadline) throw new Error(`${server.url} answered ${answer.problem}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function confirmedStarts(server: RaceServer, token: string, day: number): Promise<Map<number, string>> {
  const response = await api(server, token, 'GET', `/api/v1/bookings?from=${iso(day)}&to=${iso(day + DAY)}&limit=100`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.nextCursor).toBeNull();
  return new Map((response.body.data as Array<{ id: string; start: string }>).map((b) => [Date.parse(b.start), b.id]));
}

/** Open around the clock in UTC, with the two event types of `Calendar`. */
export async function prepareCalendar(server: RaceServer, token: string): Promise<Calendar> {
  const allDay = [{ start: '00:00', end: '24:00' }];
  const availability = await api(server, token, 'PUT', '/api/v1/availability', {
    timeZone: 'UTC',
    weekly: Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, allDay]),
    ),
  });
  expect(availability.status, JSON.stringify(availability.body)).toBe(200);
  const plain = await api(server, token, 'POST', '/api/v1/event-types', { title: 'Plain call', durationMinutes: 30 });
  expect(plain.status, JSON.stringify(plain.body)).toBe(201);
  const buffered = await api(server, token, 'POST', '/api/v1/event-types', {
    title: 'Buffered call',
    durationMinutes: 30,
    slotIntervalMinutes: 5,
    bufferBeforeMinutes: 15,
    bufferAfterMinutes: 15,
  });
  expect(buffered.status, JSON.stringify(buffered.body)).toBe(201);
  return { token, plainId: plain.body.id, bufferedId: buffered.body.id };
}

export interface OneStartOutcome {
  winner: 'hold' | 'booking';
  refused: number;
  slowestMs: number;
}

/**
 * Two rounds of 90 requests for one start, holds and bookings alternating, each process getting
 * both kinds (the first request is a hold in one round and a booking in the other, since the first
 * one in usually wins): exactly one 201, a hold or a booking, 89 × 409 slot-unavailable, and the
 * database has the winner's row alone.
 */
export async function raceOneStart(target: RaceTarget): Promise<OneStartOutcome[]> {
  const outcomes: OneStartOutcome[] = [];
  for (const [round, first] of (['hold', 'booking'] as const).entries())
    outcomes.push(await raceOneStartOnce(target, dayAhead(7 + round), first));
  return outcomes;
}

async function raceOneStartOnce(target: RaceTarget, day: number, first: 'hold' | 'booking'): Promise<OneStartOutcome> {
  const { token, plainId } = target.alice;
  const start = day + 10 * 60 * MIN;
  const other = first === 'hold' ? 'booking' : 'hold';
  const requests = Array.from({ length: 90 }, (_, i) => ({
    kind: i % 2 === 0 ? first : other,
    server: target.servers[Math.floor(i / 2) % target.servers.length]!,
  }));
  const answers = await Promise.all(
    requests.map(({ kind, server }, i) =>
      kind === 'hold' ? holdOf(server, token, plainId, start) : bookingOf(server, token, plainId, start, i),
    ),
  );
  const context = `${first} first: ${summary(answers)}`;
  expectNo5xx(answers);
  const winners = answers.flatMap((answer, i) => (answer.status === 201 ? [{ answer, kind: requests[i]!.kind }] : []));
  expect(winners, context).toHaveLength(1);
  const winner = winners[0]!;
  for (const answer of answers) if (answer !== winner.answer) expectProblem(answer, 409, SLOT_UNAVAILABLE, context);
  expectFast(target, answers, context);

  expect(winner.answer.body.start).toBe(iso(start));
  if (winner.kind === 'hold') {
    expect(winner.answer.body.id).toMatch(/^hld_/);
    expect(Date.parse(winner.answer.body.expiresAt) - Date.parse(winner.answer.body.createdAt)).toBe(300_000);
  } else {
    expect(winner.answer.body.id).toMatch(/^bkg_/);
    expect(winner.answer.body.status).toBe('confirmed');
  }
  const rows = await target.occupyingRows('alice', day, day + DAY);
  expect(rows.map((r) => [r.id, r.status, r.start])).toEqual([
    [winner.answer.body.id, winner.kind === 'hold' ? 'held' : 'confirmed', start],
  ]);
  for (const server of target.servers)
    expect(await settledSlotStarts(server, token, plainId, day, (free) => !free.includes(start))).not.toContain(start);
  return {
    winner: winner.kind,
    refused: answers.length - 1,
    slowestMs: Math.round(Math.max(...answers.map((a) => a.ms))),
  };
}

export interface OverlapRoundOutcome {
  holds: number;
  bookings: number;
  refused: number;
  slowestMs: number;
}

/**
 * Rounds of 60 requests at random nearby starts (10:00–12:00 of one day per round): holds and
 * bookings alternating, two thirds buffered (5-minute grid, 15-minute buffers), one third plain.
 * Afterwards no two occupying rows overlap, the rows are exactly the 201s, and every 409 collides
 * with a 201: the winners left no room for it.
 */
export async function raceOverlappingStarts(
  target: RaceTarget,
  rounds: number,
  firstDay: number,
): Promise<OverlapRoundOutcome[]> {
  const { token, plainId, bufferedId } = target.alice;
  const outcomes: OverlapRoundOutcome[] = [];
  for (let round = 0; round < rounds; round++) {
    const day = dayAhead(firstDay + round);
    const from = day + 10 * 60 * MIN;
    const requests = Array.from({ length: 60 }, (_, i) => {
      const buffered = i % 3 !== 2;
      const start = buffered
        ? from + Math.floor(Math.random() * 25) * 5 * MIN
        : from + Math.floor(Math.random() * 5) * 30 * MIN;
      const shape = buffered ? BUFFERED : PLAIN;
      return {
        kind: i % 2 === 0 ? ('hold' as const) : ('booking' as const),
        eventTypeId: buffered ? bufferedId : plainId,
        start,
        occupied: { from: start - shape.beforeMs, to: start + shape.durationMs + shape.afterMs },
        server: target.servers[Math.floor(i / 2) % target.servers.length]!,
      };
    });
    const answers = await Promise.all(
      requests.map(({ kind, eventTypeId, start, server }, i) =>
        kind === 'hold' ? holdOf(server, token, eventTypeId, start) : bookingOf(server, token, eventTypeId, start, i),
      ),
    );
    const context = `round ${round}: ${JSON.stringify(
      requests.map((r, i) => [
        r.kind,
        r.eventTypeId === bufferedId ? 'buffered' : 'plain',
        iso(r.start),
        answers[i]!.status,
      ]),
    )}`;
    expectNo5xx(answers);
    for (const answer of answers) if (answer.status !== 201) expectProblem(answer, 409, SLOT_UNAVAILABLE, context);
    expectFast(target, answers, context);

    const won = requests.filter((_, i) => answers[i]!.status === 201);
    expect(won.length, context).toBeGreaterThanOrEqual(1);
    for (const [i, request] of requests.entries()) {
      if (answers[i]!.status === 201) continue;
      expect(
        won.some((w) => overlap(w.occupied, request.occupied)),
        `${request.kind} at ${iso(request.start)} refused without a collision; ${context}`,
      ).toBe(true);
    }

    // The database has exactly the winners, each as answered, and no two of them overlap.
    const now = Date.now();
    const rows = await target.occupyingRows('alice', day, day + DAY);
    const expected = answers.flatMap((answer, i) => {
      if (answer.status !== 201) return [];
      const request = requests[i]!;
      expect(answer.body.id, context).toMatch(request.kind === 'hold' ? /^hld_/ : /^bkg_/);
      expect(answer.body.start, context).toBe(iso(request.start));
      return [
        [answer.body.id, request.kind === 'hold' ? 'held' : 'confirmed', request.occupied.from, request.occupied.to],
      ];
    });
    const sortById = (x: unknown[], y: unknown[]) => String(x[0]).localeCompare(String(y[0]));
    expect(rows.map((r) => [r.id, r.status, r.occupiedStart, r.occupiedEnd]).sort(sortById), context).toEqual(
      expected.sort(sortById),
    );
    const live = liveAt(rows, now);
    expect(live, 'the holds are still live').toHaveLength(rows.length);
    expectDisjoint(live, context);
    outcomes.push({
      holds: won.filter((w) => w.kind === 'hold').length,
      bookings: won.filter((w) => w.kind === 'booking').length,
      refused: answers.length - won.length,
      slowestMs: Math.round(Math.max(...answers.map((a) => a.ms))),
    });
  }
  return outcomes;
}

export interface ConversionOutcome {
  converted: number;
  released: number;
  /** Per hold, what won: C (a conversion) or R (the release). */
  byHold: string;
}

/**
 * Ten holds, and for each at once four conversions and one release spread over the processes:
 * per hold exactly one of them succeeds (201 or 204), the other conversions get 409 hold-expired
 * and a losing release 404; the bookings are exactly the 201 conversions, and no hold is left.
 */
export async function raceConversionsAndReleases(target: RaceTarget): Promise<ConversionOutcome> {
  const { token, plainId } = target.alice;
  const { servers } = target;
  const day = dayAhead(20);
  const starts = Array.from({ length: 10 }, (_, k) => day + (8 + k) * 60 * MIN);
  const made = await Promise.all(starts.map((start, k) => holdOf(servers[k % servers.length]!, token, plainId, start)));
  expect(
    made.map((r) => r.status),
    summary(made),
  ).toEqual(Array(10).fill(201));
  const holds = made.map((r) => r.body as { id: string; start: string; end: string });

  // Interleaved so that each hold's five requests are far apart in the list and on different
  // processes. A release is one statement and a conversion several, so a release sent with the
  // conversions often wins: holds 0–4 have theirs sent with the conversions, holds 5–9 have it
  // sent 20 ms later, so that there the conversions mostly race one another.
  const requests = Array.from({ length: 5 }, (_, j) =>
    holds.map((_, k) => ({
      k,
      action: j === k % 5 ? ('release' as const) : ('convert' as const),
      server: servers[(j + k) % servers.length]!,
    })),
  ).flat();
  const answers = await Promise.all(
    requests.map(async ({ k, action, server }, i) => {
      if (action === 'convert') return conversionOf(server, token, holds[k]!.id, i);
      if (k >= 5) await sleep(20);
      return send(server, token, 'DELETE', `/api/v1/holds/${holds[k]!.id}`);
    }),
  );
  expectNo5xx(answers);

  const converted = new Map<number, string>();
  let released = 0;
  let byHold = '';
  for (const [k, hold] of holds.entries()) {
    const mine = requests.flatMap((r, i) => (r.k === k ? [{ ...r, answer: answers[i]! }] : []));
    const context = `hold ${k}: ${JSON.stringify(mine.map((m) => [m.action, m.answer.status, m.answer.body?.type]))}`;
    const successes = mine.filter((m) => (m.action === 'convert' ? m.answer.status === 201 : m.answer.status === 204));
    expect(successes, context).toHaveLength(1);
    for (const m of mine) {
      if (m === successes[0]) continue;
      if (m.action === 'convert') expectProblem(m.answer, 409, HOLD_EXPIRED, context);
      else expectProblem(m.answer, 404, NOT_FOUND, context);
    }
    const success = successes[0]!;
    if (success.action === 'convert') {
      expect(success.answer.body, context).toMatchObject({
        eventTypeId: plainId,
        start: hold.start,
        end: hold.end,
        status: 'confirmed',
      });
      expect(success.answer.body.id, context).toMatch(/^bkg_/);
      converted.set(Date.parse(hold.start), success.answer.body.id);
      byHold += 'C';
    } else {
      expect(success.answer.body, context).toBeNull();
      released++;
      byHold += 'R';
    }
    for (const server of servers)
      expectProblem(await api(server, token, 'GET', `/api/v1/holds/${hold.id}`), 404, NOT_FOUND, context);
  }

  // The bookings are the 201 conversions, no more; no hold row is left; released times are free.
  const rows = await target.occupyingRows('alice', day, day + DAY);
  expect(rows.map((r) => [r.start, r.id, r.status]).sort()).toEqual(
    [...converted].map(([start, id]) => [start, id, 'confirmed']).sort(),
  );
  expect(await confirmedStarts(servers[0]!, token, day)).toEqual(converted);
  for (const server of servers) {
    const free = await settledSlotStarts(server, token, plainId, day, (free) =>
      starts.every((start) => free.includes(start) === !converted.has(start)),
    );
    for (const start of starts)
      expect(free.includes(start), `${iso(start)} on ${server.url}`).toBe(!converted.has(start));
  }
  return { converted: converted.size, released, byHold };
}

export interface DailyCapOutcome {
  holds: number;
  bookings: number;
  refused: number;
}

/**
 * Rounds of 30 requests for 30 distinct half-hours of one day of an event type with a daily
 * maximum of 3, holds and bookings alternating: no constraint counts, so only the count taken
 * under the calendar lock (PostgreSQL) or the write lock (SQLite) keeps each day at exactly three,
 * holds included. Several rounds, since an overshoot needs two writers between count and commit.
 */
export async function raceDailyCap(target: RaceTarget, rounds: number, firstDay: number): Promise<DailyCapOutcome[]> {
  const { token } = target.alice;
  const created = await api(target.servers[0]!, token, 'POST', '/api/v1/event-types', {
    title: 'Three a day',
    durationMinutes: 30,
    maxBookingsPerDay: 3,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const eventTypeId = created.body.id as string;
  const outcomes: DailyCapOutcome[] = [];
  for (let round = 0; round < rounds; round++) {
    const day = dayAhead(firstDay + round);
    const requests = Array.from({ length: 30 }, (_, i) => ({
      kind: i % 2 === 0 ? ('hold' as const) : ('booking' as const),
      start: day + 6 * 60 * MIN + i * 30 * MIN,
      server: target.servers[Math.floor(i / 2) % target.servers.length]!,
    }));
    const answers = await Promise.all(
      requests.map(({ kind, start, server }, i) =>
        kind === 'hold' ? holdOf(server, token, eventTypeId, start) : bookingOf(server, token, eventTypeId, start, i),
      ),
    );
    const context = `round ${round}: ${summary(answers)}`;
    expectNo5xx(answers);
    const won = answers.filter((a) => a.status === 201);
    expect(won, context).toHaveLength(3);
    for (const answer of answers) if (answer.status !== 201) expectProblem(answer, 409, SLOT_UNAVAILABLE, context);
    const rows = await target.occupyingRows('alice', day, day + DAY);
    expect(rows.map((r) => r.id).sort(), context).toEqual(won.map((a) => a.body.id).sort());
    for (const server of target.servers)
      expect(await settledSlotStarts(server, token, eventTypeId, day, (free) => free.length === 0), context).toEqual(
        [],
      );
    outcomes.push({
      holds: won.filter((a) => String(a.body.id).startsWith('hld_')).length,
      bookings: won.filter((a) => String(a.body.id).startsWith('bkg_')).length,
      refused: answers.length - won.length,
    });
  }
  return outcomes;
}

export interface ExpiryOutcome {
  converted: number;
  expired: number;
  takenByCompetitor: number;
  /** Conversions sent before expiresAt that still found the hold gone. */
  lateBeforeExpiry: number;
}

// Conversions lean early: a request sent with forty others reaches its server some tens of
// milliseconds late, and both outcomes should occur.
const CONVERSION_OFFSETS_MS = [-60, -45, -30, -15, 0, 15, 30, 45];
const COMPETITOR_OFFSETS_MS = [-40, -20, 0, 20, 40];

/**
 * Eight holds of alice's with the shortest life (30 s), made at once, and around the instant each
 * expires a conversion (at its own offset, −60 ms … +45 ms) and five plain bookings of the same
 * time (−40 ms … +40 ms), spread over the processes. Per hold: the conversion wins and every
 * booking is refused, or the conversion finds the hold expired and at most one booking wins;
 * never a converted booking and another. Bob's hold, converted too late, shows that an expired
 * hold frees its time in `/slots` on every process with nothing written at all.
 */
export async function raceExpiryAgainstConversion(target: RaceTarget): Promise<ExpiryOutcome> {
  const { servers, alice, bob } = target;
  const day = dayAhead(25);
  const starts = CONVERSION_OFFSETS_MS.map((_, k) => day + (8 + k) * 60 * MIN);
  const bobStart = day + 9 * 60 * MIN;
  const made = await Promise.all([
    ...starts.map((start, k) => holdOf(servers[k % servers.length]!, alice.token, alice.plainId, start, 30)),
    holdOf(servers[servers.length - 1]!, bob.token, bob.plainId, bobStart, 30),
  ]);
  expect(
    made.map((r) => r.status),
    summary(made),
  ).toEqual(Array(starts.length + 1).fill(201));
  const holds = made.map((r) => ({ id: r.body.id as string, expiresAt: Date.parse(r.body.expiresAt) }));
  const bobHold = holds.pop()!;

  // Every process answers for the held times now, and keeps that calendar until something changes
  // or a hold in it expires.
  for (const server of servers) {
    const aliceFree = await settledSlotStarts(server, alice.token, alice.plainId, day, (free) =>
      starts.every((start) => !free.includes(start)),
    );
    for (const start of starts) expect(aliceFree).not.toContain(start);
    expect(
      await settledSlotStarts(server, bob.token, bob.plainId, day, (free) => !free.includes(bobStart)),
    ).not.toContain(bobStart);
  }
  const firstExpiry = Math.min(...holds.map((h) => h.expiresAt), bobHold.expiresAt);
  expect(Date.now(), 'the holds must still be live when the race is set up').toBeLessThan(firstExpiry - 1_000);

  // The one wait on the real clock: holds expire only with time.
  await sleep(firstExpiry - 300 - Date.now());
  const at = (instant: number, fire: () => Promise<Answer>) =>
    new Promise<Answer>((resolve, reject) =>
      setTimeout(() => fire().then(resolve, reject), Math.max(0, instant - Date.now())),
    );
  const raced = holds.map((hold, k) => {
    const via = (j: number) => servers[(k + j) % servers.length]!;
    return {
      conversion: at(hold.expiresAt + CONVERSION_OFFSETS_MS[k]!, () =>
        conversionOf(via(0), alice.token, hold.id, 1000 + k),
      ),
      competitors: COMPETITOR_OFFSETS_MS.map((offset, j) =>
        at(hold.expiresAt + offset, () => bookingOf(via(j + 1), alice.token, alice.plainId, starts[k]!, 100 * k + j)),
      ),
    };
  });
  const bobLate = at(bobHold.expiresAt + 20, () => conversionOf(servers[0]!, bob.token, bobHold.id, 9999));
  const results = await Promise.all(
    raced.map(async (r) => ({ conversion: await r.conversion, competitors: await Promise.all(r.competitors) })),
  );

  const outcome: ExpiryOutcome = { converted: 0, expired: 0, takenByCompetitor: 0, lateBeforeExpiry: 0 };
  for (const [k, { conversion, competitors }] of results.entries()) {
    const { expiresAt } = holds[k]!;
    const timeline = (a: Answer) => [a.sentAt - expiresAt, a.answeredAt - expiresAt, a.status, a.body?.type];
    const context = `hold ${k} (ms after expiresAt sent, answered): conversion ${JSON.stringify(timeline(conversion))}, bookings ${JSON.stringify(competitors.map(timeline))}`;
    expectNo5xx([conversion, ...competitors]);
    for (const competitor of competitors)
      if (competitor.status !== 201) expectProblem(competitor, 409, SLOT_UNAVAILABLE, context);
    // What the shared clock decides: judged before expiresAt, the hold was live; after, it was not.
    for (const competitor of competitors)
      if (competitor.answeredAt < expiresAt) expect(competitor.status, context).toBe(409);
    if (conversion.answeredAt < expiresAt) expect(conversion.status, context).toBe(201);
    if (conversion.sentAt >= expiresAt) expect(conversion.status, context).toBe(409);

    const booked = competitors.filter((c) => c.status === 201);
    if (conversion.status === 201) {
      expect(conversion.body, context).toMatchObject({ start: iso(starts[k]!), status: 'confirmed' });
      expect(booked, context).toEqual([]);
      outcome.converted++;
    } else {
      expectProblem(conversion, 409, HOLD_EXPIRED, context);
      expect(booked.length, context).toBeLessThanOrEqual(1);
      // A booking sent after expiresAt found the time free unless another booking had it first.
      if (competitors.some((c) => c.sentAt >= expiresAt)) expect(booked, context).toHaveLength(1);
      outcome.expired++;
      if (conversion.sentAt < expiresAt) outcome.lateBeforeExpiry++;
      if (booked.length === 1) outcome.takenByCompetitor++;
    }
    const winner = conversion.status === 201 ? conversion : booked[0];
    const rows = (await target.occupyingRows('alice', starts[k]!, starts[k]! + 1)).filter(
      (r) => r.status === 'confirmed',
    );
    expect(
      rows.map((r) => r.id),
      context,
    ).toEqual(winner ? [winner.body.id] : []);
    for (const server of servers)
      expectProblem(await api(server, alice.token, 'GET', `/api/v1/holds/${holds[k]!.id}`), 404, NOT_FOUND, context);
  }

  const late = await bobLate;
  expect(late.sentAt).toBeGreaterThanOrEqual(bobHold.expiresAt);
  expectProblem(late, 409, HOLD_EXPIRED, summary([late]));
  expect(liveAt(await target.occupyingRows('bob', bobStart, bobStart + 1), Date.now())).toEqual([]);

  // Each process shows a time free exactly when no booking has it: bob's calendar changed in
  // nothing, yet its held time is free again on every process.
  const booked = await confirmedStarts(servers[0]!, alice.token, day);
  for (const server of servers) {
    const aliceFree = await settledSlotStarts(server, alice.token, alice.plainId, day, (free) =>
      starts.every((start) => free.includes(start) === !booked.has(start)),
    );
    for (const start of starts)
      expect(aliceFree.includes(start), `${iso(start)} on ${server.url}`).toBe(!booked.has(start));
    expect(
      await settledSlotStarts(server, bob.token, bob.plainId, day, (free) => free.includes(bobStart)),
      `bob on ${server.url}`,
    ).toContain(bobStart);
  }
  return outcome;
}
