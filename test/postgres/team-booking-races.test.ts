// Issue 28 on PostgreSQL: three real `slotwise serve` processes on one database, raced over HTTP
// with bookings of team event types (contract §14). What keeps a host's time apart is one exclusion
// constraint over `occupancies` (one row per host of every booking and hold), whatever event type,
// personal or team, a row belongs to; a round-robin decision refused a host by it goes on with the
// next host in its order. So: 20 round-robin requests for one start with 3 free hosts give exactly
// 3 bookings, on distinct hosts, and 17 409s; and personal, collective and round-robin bookings of
// shared hosts racing for overlapping times never put a host in two overlapping occupancies, read
// straight from the table. No answer is a 5xx and no instance logs an error.
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
  type RaceField,
} from './race-support.js';

let field: RaceField;
let instances: Instance[];
let account: string;
/** Holders of the account, each with a key of its own. */
let hosts: Record<'ada' | 'bob' | 'cy', { id: string; key: string }>;

async function eventType(token: string, fields: Record<string, unknown>): Promise<string> {
  return (await created(api(instances[0]!, token, 'POST', '/api/v1/event-types', { durationMinutes: 30, ...fields })))
    .id;
}

function book(instance: Instance, token: string, eventTypeId: string, start: number, extra = {}) {
  return api(instance, token, 'POST', '/api/v1/bookings', {
    eventTypeId,
    start: iso(start),
    guestName: 'Racer',
    guestEmail: 'racer@example.com',
    ...extra,
  });
}

const occupancies = (from: number, to: number) => occupancyRows(field.db, from, to);

beforeAll(async () => {
  field = await raceField(['ada', 'bob', 'cy']);
  ({ instances, account } = field);
  hosts = field.holders as typeof hosts;
}, 60_000);

afterAll(() => field?.close(), 30_000);

describe('team bookings raced by three instances on one PostgreSQL database (contract §14)', () => {
  it('when 20 round-robin requests for one start arrive at once across three instances with 3 free hosts, then exactly 3 are booked, each on another host, and the other 17 are 409', async ({
    annotate,
  }) => {
    const type = await eventType(account, {
      title: 'Any rep',
      assignment: 'round-robin',
      hosts: [{ holderId: hosts.ada.id }, { holderId: hosts.bob.id }, { holderId: hosts.cy.id }],
    });
    const start = mondayAhead(7) + 10 * 60 * MINUTE;
    const began = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (async () => {
          const at = performance.now();
          const answer = await book(instances[i % 3]!, account, type, start);
          return { answer, ms: performance.now() - at };
        })(),
      ),
    );
    const slowestMs = Math.round(Math.max(...answers.map((a) => a.ms)));
    expectBookedOrRefused(answers.map((a) => a.answer));
    const booked = answers
      .filter((a) => a.answer.status === 201)
      .map((a) => a.answer.body as { id: string; hostIds: string[] });
    expect(booked).toHaveLength(3);
    expect(
      booked
        .map((b) => b.hostIds)
        .flat()
        .sort(),
    ).toEqual([hosts.ada.id, hosts.bob.id, hosts.cy.id].sort());
    const rows = await occupancies(start - DAY, start + DAY);
    expect(rows.map((row) => [row.booking_id, row.holder_id]).sort()).toEqual(
      booked.map((b) => [b.id, b.hostIds[0]!]).sort(),
    );
    await annotate(
      JSON.stringify({ booked: 3, refused: 17, slowestMs, totalMs: Math.round(performance.now() - began) }),
    );
    expectNoInstanceErrors(instances);
  }, 60_000);

  it('when personal, collective and round-robin bookings of shared hosts race for overlapping times, round after round, then no host is ever in two overlapping occupancies and every booking occupies exactly its hosts', async ({
    annotate,
  }) => {
    const interval = { slotIntervalMinutes: 15 };
    const collective = await eventType(account, {
      title: 'Panel',
      durationMinutes: 60,
      assignment: 'collective',
      hosts: [{ holderId: hosts.ada.id }, { holderId: hosts.bob.id }],
      ...interval,
    });
    const roundRobin = await eventType(account, {
      title: 'Any of two',
      bufferAfterMinutes: 15,
      assignment: 'round-robin',
      hosts: [{ holderId: hosts.bob.id }, { holderId: hosts.cy.id }, { holderId: hosts.ada.id, fixed: true }],
      ...interval,
    });
    const own = {
      ada: await eventType(hosts.ada.key, { title: 'Ada alone', bufferBeforeMinutes: 15, ...interval }),
      bob: await eventType(hosts.bob.key, { title: 'Bob alone', ...interval }),
      cy: await eventType(hosts.cy.key, { title: 'Cy alone', durationMinutes: 45, ...interval }),
    };
    const kinds = [
      { token: account, eventTypeId: collective, hostCount: 2 },
      { token: account, eventTypeId: roundRobin, hostCount: 2 },
      { token: hosts.ada.key, eventTypeId: own.ada, hostCount: 1 },
      { token: hosts.bob.key, eventTypeId: own.bob, hostCount: 1 },
      { token: hosts.cy.key, eventTypeId: own.cy, hostCount: 1 },
    ];
    const outcomes: Array<{ day: string; booked: number; refused: number; slowestMs: number }> = [];
    for (let round = 0; round < 5; round++) {
      const day = mondayAhead(14) + round * DAY;
      // Every kind at every quarter hour from 10:00 to 11:45, three times over, at once.
      const requests = [0, 1, 2].flatMap((copy) =>
        Array.from({ length: 8 }, (_, quarter) => day + (10 * 60 + quarter * 15) * MINUTE).flatMap((start, q) =>
          kinds.map((kind, k) => ({ ...kind, start, instance: instances[(copy + q + k) % 3]! })),
        ),
      );
      const answers = await Promise.all(
        requests.map(async (request) => {
          const at = performance.now();
          const answer = await book(request.instance, request.token, request.eventTypeId, request.start);
          return { request, answer, ms: performance.now() - at };
        }),
      );
      expectBookedOrRefused(answers.map((a) => a.answer));
      const booked = answers.filter((a) => a.answer.status === 201);
      expect(booked.length).toBeGreaterThan(0);
      const rows = await occupancies(day, day + DAY);
      // Every booking occupies exactly its hosts, and nothing else is there.
      const expected = booked
        .flatMap((a) => {
          const body = a.answer.body as { id: string; hostIds: string[] };
          expect(body.hostIds).toHaveLength(a.request.hostCount);
          return body.hostIds.map((hostId) => `${body.id} ${hostId}`);
        })
        .sort();
      expect(rows.map((row) => `${row.booking_id} ${row.holder_id}`).sort()).toEqual(expected);
      // No host in two overlapping occupancies (rows are by host, then start).
      for (let i = 1; i < rows.length; i++) {
        const [previous, row] = [rows[i - 1]!, rows[i]!];
        if (previous.holder_id === row.holder_id)
          expect(
            row.occupied_start,
            `${previous.booking_id} and ${row.booking_id} of ${row.holder_id}`,
          ).toBeGreaterThanOrEqual(previous.occupied_end);
      }
      outcomes.push({
        day: iso(day).slice(0, 10),
        booked: booked.length,
        refused: answers.length - booked.length,
        slowestMs: Math.round(Math.max(...answers.map((a) => a.ms))),
      });
    }
    await annotate(JSON.stringify(outcomes));
    expectNoInstanceErrors(instances);
  }, 120_000);
});
