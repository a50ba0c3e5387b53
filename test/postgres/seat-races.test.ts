// Issue 29 on PostgreSQL: three real `slotwise serve` processes on one database, raced over HTTP
// for the seats of one start (contract §15). Each seat writes its occupancy with a seat number no
// other seat of its occurrence holds (the exclusion constraint lets rows of one occurrence overlap,
// nothing else; a unique index refuses a number taken twice), without taking the holder's lock;
// once the seats were lowered below a number held, it counts them under that lock too: of N
// concurrent requests exactly the free seats win, the rest are 409, none a 5xx; an occurrence never
// shares its host's time with another booking; and the seats of a collective team type take every
// host once per seat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../e2e/support.js';
import type { Instance } from './instances.js';
import {
  created,
  DAY,
  expectBookedOrRefused,
  expectNoInstanceErrors,
  iso,
  MINUTE,
  mondayAhead,
  occupancyRows,
  raceField,
  type OccupancyRow,
  type RaceField,
} from './race-support.js';

let field: RaceField;
let instances: Instance[];
let account: string;
let hosts: Array<{ id: string; key: string }>;

async function eventType(token: string, fields: Record<string, unknown>): Promise<string> {
  const body = { title: 'Class', durationMinutes: 30, ...fields };
  return (await created(api(instances[0]!, token, 'POST', '/api/v1/event-types', body))).id;
}

/** `count` booking requests at once, spread over the instances; `kinds` cycles what each books. */
async function race(count: number, kinds: Array<{ token: string; eventTypeId: string; start: number }>) {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const kind = kinds[i % kinds.length]!;
      return api(instances[i % 3]!, kind.token, 'POST', '/api/v1/bookings', {
        eventTypeId: kind.eventTypeId,
        start: iso(kind.start),
        guestName: `Guest ${i}`,
        guestEmail: `guest${i}@example.com`,
      });
    }),
  );
}

const occupancies = (from: number, to: number) => occupancyRows(field.db, from, to);

/** No two rows of one host overlap unless they are seats of one occurrence. */
function expectOccurrencesApart(rows: OccupancyRow[]): void {
  for (const a of rows)
    for (const b of rows) {
      if (a === b || a.holder_id !== b.holder_id) continue;
      const overlap = a.occupied_start < b.occupied_end && b.occupied_start < a.occupied_end;
      if (overlap) expect(a.occurrence !== null && a.occurrence === b.occurrence, JSON.stringify([a, b])).toBe(true);
    }
}

beforeAll(async () => {
  field = await raceField(['ada', 'bob']);
  ({ instances, account } = field);
  hosts = Object.values(field.holders);
}, 60_000);

afterAll(() => field?.close(), 30_000);

describe('seats raced by three instances on one PostgreSQL database (contract §15)', () => {
  it('when 20 requests for the 5 seats of one start arrive at once, then exactly 5 are booked and 15 are 409', async ({
    annotate,
  }) => {
    const ada = hosts[0]!;
    const workshop = await eventType(ada.key, { title: 'Workshop', seats: 5 });
    const start = mondayAhead(7) + 10 * 60 * MINUTE;
    const answers = await race(20, [{ token: ada.key, eventTypeId: workshop, start }]);
    expectBookedOrRefused(answers);
    const booked = answers.filter((answer) => answer.status === 201);
    expect(booked).toHaveLength(5);
    const rows = await occupancies(start - DAY, start + DAY);
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((row) => row.occurrence)).size).toBe(1);
    expect(rows.map((row) => row.seat).sort()).toEqual([1, 2, 3, 4, 5]);
    await annotate(JSON.stringify({ booked: booked.length, refused: answers.length - booked.length }));
    expectNoInstanceErrors(instances);
  }, 60_000);

  it('when seats of an occurrence race with another event type’s bookings of overlapping times, round after round, then the host is never in two occurrences at once and no occurrence has more than its seats', async () => {
    const ada = hosts[0]!;
    const workshop = await eventType(ada.key, { title: 'Seminar', seats: 4, durationMinutes: 60 });
    const single = await eventType(ada.key, { title: 'One to one', slotIntervalMinutes: 15 });
    for (let round = 0; round < 4; round++) {
      const day = mondayAhead(14) + round * DAY;
      const at = (minutes: number) => day + (10 * 60 + minutes) * MINUTE;
      const answers = await race(24, [
        { token: ada.key, eventTypeId: workshop, start: at(0) },
        { token: ada.key, eventTypeId: workshop, start: at(0) },
        { token: ada.key, eventTypeId: single, start: at(15) },
        { token: ada.key, eventTypeId: workshop, start: at(60) },
        { token: ada.key, eventTypeId: single, start: at(45) },
        { token: ada.key, eventTypeId: workshop, start: at(0) },
      ]);
      expectBookedOrRefused(answers);
      const rows = await occupancies(day, day + DAY);
      expectOccurrencesApart(rows);
      const perOccurrence = new Map<string, number>();
      for (const row of rows)
        if (row.occurrence !== null) perOccurrence.set(row.occurrence, (perOccurrence.get(row.occurrence) ?? 0) + 1);
      for (const seats of perOccurrence.values()) expect(seats).toBeLessThanOrEqual(4);
      expect(rows.length).toBe(answers.filter((answer) => answer.status === 201).length);
    }
    expectNoInstanceErrors(instances);
  }, 120_000);

  it('when the seats were lowered below the numbers two guests hold and 10 requests arrive at once, then exactly the one seat left is booked', async () => {
    const ada = hosts[0]!;
    const workshop = await eventType(ada.key, { title: 'Lowered', seats: 6 });
    const start = mondayAhead(28) + 10 * 60 * MINUTE;
    const first = await race(5, [{ token: ada.key, eventTypeId: workshop, start }]);
    expect(first.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    const changed = await api(instances[0]!, ada.key, 'PATCH', `/api/v1/event-types/${workshop}`, { seats: 3 });
    expect(changed.status).toBe(200);
    // The two highest numbers of five among 1–6 are above the new 3: the guests holding them stay,
    // the other three leave, and one seat of the three is left.
    const rows = (await occupancies(start - DAY, start + DAY)).sort((a, b) => a.seat! - b.seat!);
    for (const row of rows.slice(0, 3)) {
      const cancelled = await api(instances[1]!, ada.key, 'POST', `/api/v1/bookings/${row.booking_id}/cancel`, {});
      expect(cancelled.status).toBe(200);
    }
    expect(rows.slice(3).every((row) => row.seat! > 3)).toBe(true);
    const answers = await race(10, [{ token: ada.key, eventTypeId: workshop, start }]);
    expectBookedOrRefused(answers);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(await occupancies(start - DAY, start + DAY)).toHaveLength(3);
    expectNoInstanceErrors(instances);
  }, 60_000);

  it('when 12 requests for the 3 seats of a collective team type arrive at once, then exactly 3 are booked, each on both hosts', async () => {
    const panel = await eventType(account, {
      title: 'Panel',
      assignment: 'collective',
      seats: 3,
      hosts: hosts.map((host) => ({ holderId: host.id })),
    });
    const start = mondayAhead(21) + 14 * 60 * MINUTE;
    const answers = await race(12, [{ token: account, eventTypeId: panel, start }]);
    expectBookedOrRefused(answers);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    const rows = await occupancies(start - DAY, start + DAY);
    expect(rows.filter((row) => row.holder_id === hosts[0]!.id)).toHaveLength(3);
    expect(rows.filter((row) => row.holder_id === hosts[1]!.id)).toHaveLength(3);
    expectNoInstanceErrors(instances);
  }, 60_000);
});
