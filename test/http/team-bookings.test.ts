// Contract §14, bookings and holds of team event types, on both stores: made in account scope
// (`POST /bookings`, `POST /holds`, with `hostId` for round robin); a collective booking occupies
// every host and a round-robin one every fixed host and the one chosen by the rule (priority,
// load ÷ weight over 30 days, least recently booked, smallest id); the team's daily cap; cancel
// and reschedule by the account and by any host (keeping the hosts, or another by the rule, or
// `hostId`); holds occupy the hosts they would book and convert onto them; webhooks reach the
// account's and each host's own; a host sees the team bookings it hosts; every bad input is a 400
// on its field with nothing written.
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  createEventType,
  expectInvalid,
  expectProblem,
  type BookingBody,
  type ListBody,
} from './helpers.js';

interface TeamBooking extends BookingBody {
  holderId: string | null;
  hostIds: string[];
}

interface Hold {
  id: string;
  holderId: string | null;
  hostIds: string[];
  eventTypeId: string;
  start: string;
}

interface HostInput {
  holderId: string;
  fixed?: boolean;
  priority?: number;
  weight?: number;
}

interface Holder {
  id: string;
  key: string;
}

let h: Harness;
/** acme's account key; its holders ada, bob and cy, each with a holder key. */
let acme: string;
let ada: Holder;
let bob: Holder;
let cy: Holder;
/** Another account: its key, and its holder gus. */
let globex: string;
let gus: Holder;

async function accountKey(account: string): Promise<string> {
  return (await createApiKey(h.context, { accountName: account, holderName: null, scopes: ['*'], expiresAt: null }))
    .token;
}

async function holderIn(account: string, name: string): Promise<Holder> {
  const { key, token } = await createApiKey(h.context, {
    accountName: account,
    holderName: name,
    scopes: ['*'],
    expiresAt: null,
  });
  return { id: key.holderId!, key: token };
}

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  acme = await accountKey('acme');
  ada = await holderIn('acme', 'ada');
  bob = await holderIn('acme', 'bob');
  cy = await holderIn('acme', 'cy');
  globex = await accountKey('globex');
  gus = await holderIn('globex', 'gus');
});

afterEach(async () => {
  await h.close();
});

function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string, json?: unknown) {
  return h.request({ method, url: `/api/v1${url}`, token, ...(json === undefined ? {} : { json }) });
}

async function teamType(
  assignment: 'collective' | 'round-robin',
  hosts: HostInput[],
  fields: Record<string, unknown> = {},
): Promise<string> {
  const res = await call('POST', '/event-types', acme, {
    title: 'Team call',
    durationMinutes: 30,
    assignment,
    hosts,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

const guest = { guestName: 'Grace Hopper', guestEmail: 'grace@example.com' };

function bookTeam(eventTypeId: string, start: string, extra: Record<string, unknown> = {}, token = acme) {
  return call('POST', '/bookings', token, { eventTypeId, start, ...guest, ...extra });
}

async function booked(eventTypeId: string, start: string, extra: Record<string, unknown> = {}): Promise<TeamBooking> {
  const res = await bookTeam(eventTypeId, start, extra);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TeamBooking>();
}

/** A holder's own event type, booked with its own key. */
async function bookOwn(holder: Holder, start: string): Promise<LightMyRequestResponse> {
  const own = await createEventType(h, holder.key, { title: 'Own call' });
  return call('POST', '/bookings', holder.key, { eventTypeId: own.id, start, ...guest });
}

/** Rows of every table a booking or hold writes, to show that a refused request wrote none. */
async function written(): Promise<unknown> {
  return {
    bookings: (await h.database.rows('bookings')).length,
    occupancies: (await h.database.rows('occupancies')).length,
    hosts: (await h.database.rows('team_booking_hosts')).length,
    events: (await h.database.rows('webhook_events')).length,
  };
}

const MONDAY_10 = '2026-01-05T10:00:00.000Z';
const MONDAY_11 = '2026-01-05T11:00:00.000Z';

/** A calendar file's events as ical.js reads them (it throws on what is not iCalendar). */
function eventsOf(text: string) {
  return new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().toISOString(),
      status: String(vevent.getFirstPropertyValue('status')),
      sequence: event.sequence,
    };
  });
}

describe('collective team bookings', () => {
  it('when the account books a collective type, then the booking is the account’s (holderId null) and takes every host’s time: a personal booking of any host at that time is 409, and the other way round', async () => {
    const type = await teamType('collective', [{ holderId: ada.id }, { holderId: bob.id }]);
    // Bob's own slots, read (and kept by this process) before the team booking.
    const bobs = await createEventType(h, bob.key, { title: 'Bob alone' });
    const bobsSlots = async () =>
      (await call('GET', `/slots?eventTypeId=${bobs.id}&from=2026-01-05T09:00:00Z&to=2026-01-05T12:00:00Z`, bob.key))
        .json<{ data: Array<{ start: string }> }>()
        .data.map((slot) => slot.start);
    expect(await bobsSlots()).toContain(MONDAY_10);
    const booking = await booked(type, MONDAY_10);
    expect(booking.holderId).toBeNull();
    expect(booking.hostIds).toEqual([ada.id, bob.id]);
    expect(booking.status).toBe('confirmed');
    expect(booking.manageUrl).toEqual(expect.any(String));
    // The host's own slots leave the time out at once.
    expect(await bobsSlots()).not.toContain(MONDAY_10);
    for (const host of [ada, bob]) expectProblem(await bookOwn(host, MONDAY_10), 409, 'slot-unavailable');
    expect((await bookOwn(cy, MONDAY_10)).statusCode).toBe(201);

    expect((await bookOwn(bob, MONDAY_11)).statusCode).toBe(201);
    const refused = expectProblem(await bookTeam(type, MONDAY_11), 409, 'slot-unavailable');
    expect(refused.detail).toMatch(/overlaps another confirmed booking/);
    const occupancies = await h.database.rows('occupancies');
    expect(occupancies.filter((row) => row.booking_id === booking.id).map((row) => row.holder_id)).toEqual(
      expect.arrayContaining([ada.id, bob.id]),
    );
  });

  it('when a host’s schedule does not offer the start, then the collective type is not bookable there, whatever the others offer', async () => {
    const put = await call('PUT', '/availability', bob.key, {
      timeZone: 'UTC',
      weekly: { monday: [{ start: '12:00', end: '17:00' }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const type = await teamType('collective', [{ holderId: ada.id }, { holderId: bob.id }]);
    const refused = expectProblem(await bookTeam(type, MONDAY_10), 409, 'slot-unavailable');
    expect(refused.detail).toMatch(/not a slot of the availability/);
    expect((await booked(type, '2026-01-05T12:00:00Z')).hostIds).toEqual([ada.id, bob.id]);
  });
});

describe('round-robin choice (contract §14)', () => {
  const hostOf = (booking: TeamBooking) => booking.hostIds[0]!;
  /** Mondays to Fridays from 5 January, 09:00, 09:30, … UTC: one start per booking. */
  const starts = Array.from(
    { length: 12 },
    (_, i) => `2026-01-05T${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}:00Z`,
  );

  it('when hosts differ in priority, then the highest priority free host gets every booking; when it is busy, the next', async () => {
    const type = await teamType('round-robin', [
      { holderId: ada.id, priority: 1 },
      { holderId: bob.id, priority: 4 },
      { holderId: cy.id, priority: 2 },
    ]);
    for (const start of starts.slice(0, 3)) expect(hostOf(await booked(type, start))).toBe(bob.id);
    expect((await bookOwn(bob, starts[3]!)).statusCode).toBe(201);
    expect(hostOf(await booked(type, starts[3]!))).toBe(cy.id);
  });

  it('when hosts of one priority differ in weight, then bookings go by load ÷ weight: with weights 3:1, six and two of eight', async () => {
    const type = await teamType('round-robin', [
      { holderId: ada.id, weight: 300 },
      { holderId: bob.id, weight: 100 },
    ]);
    const hosts: string[] = [];
    for (const start of starts.slice(0, 8)) hosts.push(hostOf(await booked(type, start)));
    expect(hosts.filter((id) => id === ada.id)).toHaveLength(6);
    expect(hosts.filter((id) => id === bob.id)).toHaveLength(2);
  });

  it('when hosts tie on priority and load, then the one booked longest ago goes first, and of hosts never booked the smallest id', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id }, { holderId: bob.id }, { holderId: cy.id }]);
    const [first, second, third] = [ada.id, bob.id, cy.id].sort() as [string, string, string];
    expect(hostOf(await booked(type, starts[0]!))).toBe(first);
    h.clock.set('2026-01-01T00:01:00Z');
    expect(hostOf(await booked(type, starts[1]!))).toBe(second);
    h.clock.set('2026-01-01T00:02:00Z');
    expect(hostOf(await booked(type, starts[2]!))).toBe(third);
    // One booking each: the one booked longest ago.
    h.clock.set('2026-01-01T00:03:00Z');
    expect(hostOf(await booked(type, starts[3]!))).toBe(first);
    h.clock.set('2026-01-01T00:04:00Z');
    expect(hostOf(await booked(type, starts[4]!, { hostId: third }))).toBe(third);
    // The lowest load.
    h.clock.set('2026-01-01T00:05:00Z');
    expect(hostOf(await booked(type, starts[5]!))).toBe(second);
    h.clock.set('2026-01-01T00:06:00Z');
    expect(hostOf(await booked(type, starts[6]!))).toBe(first);
    // `second` and `third` have two each, `first` three: `third` was booked longest ago (00:04,
    // `second` at 00:05), though `second` has the smaller id.
    h.clock.set('2026-01-01T00:07:00Z');
    expect(hostOf(await booked(type, starts[7]!))).toBe(third);
  });

  it('when a host’s bookings were cancelled, or made more than 30 days ago, then they no longer count toward its load', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id }, { holderId: bob.id }]);
    const [small, large] = [ada.id, bob.id].sort() as [string, string];
    const first = await booked(type, starts[0]!);
    expect(hostOf(first)).toBe(small);
    expect((await call('POST', `/bookings/${first.id}/cancel`, acme, {})).statusCode).toBe(200);
    // Neither has a confirmed booking: the smaller id again.
    h.clock.set('2026-01-01T00:01:00Z');
    expect(hostOf(await booked(type, starts[1]!))).toBe(small);
    h.clock.set('2026-01-01T00:02:00Z');
    expect(hostOf(await booked(type, starts[2]!))).toBe(large);
    h.clock.set('2026-01-01T00:03:00Z');
    expect(hostOf(await booked(type, starts[3]!))).toBe(small);
    // `small` has two bookings, `large` one; 31 days on, none was made in the last 30, and
    // `large` was booked longest ago.
    h.clock.set('2026-02-01T00:00:00Z');
    expect(hostOf(await booked(type, '2026-02-02T09:00:00Z'))).toBe(large);
  });

  it('when a type has fixed hosts, then each booking takes every fixed host and one other; a busy fixed host makes the start unbookable', async () => {
    const type = await teamType('round-robin', [
      { holderId: ada.id, fixed: true },
      { holderId: bob.id },
      { holderId: cy.id },
    ]);
    const booking = await booked(type, starts[0]!);
    expect(booking.hostIds).toHaveLength(2);
    expect(booking.hostIds[0]).toBe(ada.id);
    expect([bob.id, cy.id]).toContain(booking.hostIds[1]);
    expect((await bookOwn(ada, starts[1]!)).statusCode).toBe(201);
    expectProblem(await bookTeam(type, starts[1]!), 409, 'slot-unavailable');
  });

  it('when hostId names a host that is not fixed, then that host is booked, or 409 when it is busy though another is free', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id }, { holderId: bob.id, priority: 4 }]);
    expect((await booked(type, starts[0]!, { hostId: ada.id })).hostIds).toEqual([ada.id]);
    expect((await bookOwn(ada, starts[1]!)).statusCode).toBe(201);
    expectProblem(await bookTeam(type, starts[1]!, { hostId: ada.id }), 409, 'slot-unavailable');
    expect((await booked(type, starts[1]!)).hostIds).toEqual([bob.id]);
  });

  it('when every host that is not fixed is busy, then 409', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id }, { holderId: bob.id }]);
    await booked(type, starts[0]!);
    await booked(type, starts[0]!);
    expectProblem(await bookTeam(type, starts[0]!), 409, 'slot-unavailable');
  });
});

describe('the team’s daily cap', () => {
  it('when a team type has maxBookingsPerDay, then it counts the type’s bookings of the day over every host, a collective one once', async () => {
    const roundRobin = await teamType('round-robin', [{ holderId: ada.id }, { holderId: bob.id }], {
      maxBookingsPerDay: 2,
    });
    await booked(roundRobin, '2026-01-05T09:00:00Z');
    await booked(roundRobin, '2026-01-05T09:00:00Z');
    const full = expectProblem(await bookTeam(roundRobin, '2026-01-05T13:00:00Z'), 409, 'slot-unavailable');
    expect(full.detail).toMatch(/maximum number of bookings on that day/);
    await booked(roundRobin, '2026-01-06T09:00:00Z');

    const collective = await teamType('collective', [{ holderId: ada.id }, { holderId: bob.id }], {
      maxBookingsPerDay: 2,
    });
    await booked(collective, '2026-01-07T09:00:00Z');
    await booked(collective, '2026-01-07T10:00:00Z');
    expectProblem(await bookTeam(collective, '2026-01-07T11:00:00Z'), 409, 'slot-unavailable');
  });
});

describe('reschedule and cancel (contract §14)', () => {
  it('when a round-robin booking moves to a time its host is free, then it keeps the host; where it is not, another by the rule; with hostId, that host, also at the same start', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id, priority: 4 }, { holderId: bob.id }]);
    const booking = await booked(type, MONDAY_10);
    expect(booking.hostIds).toEqual([ada.id]);
    // Reassigned by hand first, so that keeping is not the rule's choice anyway.
    const reassigned = await call('POST', `/bookings/${booking.id}/reschedule`, acme, {
      start: MONDAY_10,
      hostId: bob.id,
    });
    expect(reassigned.statusCode, reassigned.body).toBe(201);
    const onBob = reassigned.json<TeamBooking>();
    expect(onBob).toMatchObject({ hostIds: [bob.id], start: MONDAY_10, rescheduledFromId: booking.id });
    expect((await call('GET', `/bookings/${booking.id}`, acme)).json<TeamBooking>().status).toBe('rescheduled');

    const kept = await call('POST', `/bookings/${onBob.id}/reschedule`, acme, { start: MONDAY_11 });
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json<TeamBooking>().hostIds).toEqual([bob.id]);

    expect((await bookOwn(bob, '2026-01-05T12:00:00Z')).statusCode).toBe(201);
    const moved = await call('POST', `/bookings/${kept.json<TeamBooking>().id}/reschedule`, acme, {
      start: '2026-01-05T12:00:00Z',
    });
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json<TeamBooking>().hostIds).toEqual([ada.id]);
  });

  it('when no host can take the new start, then 409 and the booking stays as it was', async () => {
    const collective = await teamType('collective', [{ holderId: ada.id }, { holderId: bob.id }]);
    const booking = await booked(collective, MONDAY_10);
    expect((await bookOwn(bob, MONDAY_11)).statusCode).toBe(201);
    const before = await written();
    expectProblem(
      await call('POST', `/bookings/${booking.id}/reschedule`, acme, { start: MONDAY_11 }),
      409,
      'slot-unavailable',
    );
    expect(await written()).toEqual(before);
    expect((await call('GET', `/bookings/${booking.id}`, acme)).json<TeamBooking>().status).toBe('confirmed');
  });

  it('when a host reschedules or cancels a team booking it hosts, then it may; a holder that does not host it gets 404', async () => {
    const type = await teamType('collective', [{ holderId: ada.id }, { holderId: bob.id }]);
    const booking = await booked(type, MONDAY_10);
    expect((await call('POST', `/bookings/${booking.id}/cancel`, cy.key, {})).statusCode).toBe(404);
    expect((await call('POST', `/bookings/${booking.id}/reschedule`, cy.key, { start: MONDAY_11 })).statusCode).toBe(
      404,
    );
    const moved = await call('POST', `/bookings/${booking.id}/reschedule`, ada.key, { start: MONDAY_11 });
    expect(moved.statusCode, moved.body).toBe(201);
    const next = moved.json<TeamBooking>();
    expect(next.hostIds).toEqual([ada.id, bob.id]);
    expect((await bookOwn(cy, MONDAY_10)).statusCode).toBe(201);
    expect((await bookOwn(ada, MONDAY_10)).statusCode).toBe(201);

    const metadata = await call('PATCH', `/bookings/${next.id}`, bob.key, { metadata: { room: '4' } });
    expect(metadata.statusCode, metadata.body).toBe(200);
    const cancelled = await call('POST', `/bookings/${next.id}/cancel`, bob.key, { reason: 'ill' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<TeamBooking>()).toMatchObject({ status: 'cancelled', metadata: { room: '4' } });
    expect((await bookOwn(bob, MONDAY_11)).statusCode).toBe(201);
  });
});

describe('holds of team types', () => {
  it('when the account holds a round-robin time with hostId, then the hold occupies that host; converted, the booking is on it', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id }, { holderId: bob.id }]);
    const res = await call('POST', '/holds', acme, { eventTypeId: type, start: MONDAY_10, hostId: bob.id });
    expect(res.statusCode, res.body).toBe(201);
    const hold = res.json<Hold>();
    expect(hold).toMatchObject({ holderId: null, hostIds: [bob.id] });
    expectProblem(await bookOwn(bob, MONDAY_10), 409, 'slot-unavailable');
    expect((await call('GET', `/holds/${hold.id}`, acme)).statusCode).toBe(200);
    expect((await call('GET', `/holds/${hold.id}`, bob.key)).statusCode).toBe(404);

    const converted = await call('POST', '/bookings', acme, { holdId: hold.id, ...guest });
    expect(converted.statusCode, converted.body).toBe(201);
    expect(converted.json<TeamBooking>()).toMatchObject({ holderId: null, hostIds: [bob.id], start: MONDAY_10 });
    expect((await call('GET', `/holds/${hold.id}`, acme)).statusCode).toBe(404);
  });

  it('when a collective hold is released, or its team type deleted, then its hosts are free again', async () => {
    const type = await teamType('collective', [{ holderId: ada.id }, { holderId: bob.id }]);
    const first = await call('POST', '/holds', acme, { eventTypeId: type, start: MONDAY_10 });
    expect(first.json<Hold>().hostIds).toEqual([ada.id, bob.id]);
    expectProblem(await bookOwn(ada, MONDAY_10), 409, 'slot-unavailable');
    expect((await call('DELETE', `/holds/${first.json<Hold>().id}`, acme)).statusCode).toBe(204);

    const second = await call('POST', '/holds', acme, { eventTypeId: type, start: MONDAY_11 });
    expect(second.statusCode, second.body).toBe(201);
    expectProblem(await bookOwn(bob, MONDAY_11), 409, 'slot-unavailable');
    expect((await call('DELETE', `/event-types/${type}`, acme)).statusCode).toBe(204);
    expect((await call('GET', `/holds/${second.json<Hold>().id}`, acme)).statusCode).toBe(404);
    for (const [host, start] of [
      [ada, MONDAY_10],
      [bob, MONDAY_11],
    ] as const)
      expect((await bookOwn(host, start)).statusCode).toBe(201);
  });
});

describe('webhooks of team bookings (contract §12)', () => {
  async function register(token: string): Promise<string> {
    const res = await call('POST', '/webhooks', token, { url: 'https://hooks.example.com/team' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  }

  /** Per webhook, the events its deliveries carry: type, booking id and hostIds. */
  async function heard(): Promise<Map<string, string[]>> {
    const events = new Map(
      (await h.database.rows('webhook_events')).map((event) => {
        const payload = JSON.parse(String(event.payload)) as {
          type: string;
          data: { booking: { id: string; hostIds: string[] } };
        };
        expect(event.holder_id).toBeNull();
        return [String(event.id), `${payload.type} ${payload.data.booking.hostIds.join('+')}`];
      }),
    );
    const byWebhook = new Map<string, string[]>();
    for (const delivery of await h.database.rows('webhook_deliveries')) {
      const list = byWebhook.get(String(delivery.webhook_id)) ?? [];
      list.push(events.get(String(delivery.event_id))!);
      byWebhook.set(String(delivery.webhook_id), list);
    }
    return byWebhook;
  }

  it('when a team booking is made, moved and cancelled, then the account’s webhooks and each of its hosts’ own hear it, as the account’s event with hostIds; no other holder’s', async () => {
    const [account, adas, bobs, cys] = [
      await register(acme),
      await register(ada.key),
      await register(bob.key),
      await register(cy.key),
    ];
    const gusType = await createEventType(h, gus.key);
    await register(globex);
    const type = await teamType('round-robin', [{ holderId: ada.id, priority: 4 }, { holderId: bob.id }]);
    const booking = await booked(type, MONDAY_10);
    const moved = await call('POST', `/bookings/${booking.id}/reschedule`, acme, { start: MONDAY_10, hostId: bob.id });
    expect(moved.statusCode, moved.body).toBe(201);
    expect((await call('POST', `/bookings/${moved.json<TeamBooking>().id}/cancel`, acme, {})).statusCode).toBe(200);
    void gusType;

    const byWebhook = await heard();
    expect(byWebhook.get(account)?.sort()).toEqual(
      [`booking.created ${ada.id}`, `booking.rescheduled ${bob.id}`, `booking.cancelled ${bob.id}`].sort(),
    );
    // The host it moved away from hears the move too.
    expect(byWebhook.get(adas)?.sort()).toEqual([`booking.created ${ada.id}`, `booking.rescheduled ${bob.id}`].sort());
    expect(byWebhook.get(bobs)?.sort()).toEqual(
      [`booking.rescheduled ${bob.id}`, `booking.cancelled ${bob.id}`].sort(),
    );
    expect(byWebhook.get(cys)).toBeUndefined();
    expect(byWebhook.size).toBe(3);
  });
});

describe('what a host sees (contract §14)', () => {
  it('when a host lists its bookings, then it finds its own and the team bookings it hosts, by start; another holder of the account finds none of them; the account finds every one, and with holderId what the host lists', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id, priority: 4 }, { holderId: bob.id }]);
    const onAda = await booked(type, MONDAY_11);
    const onBob = await booked(type, MONDAY_11);
    const own = (await bookOwn(ada, MONDAY_10)).json<TeamBooking>();
    const range = 'from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z';
    const ids = async (url: string, token: string) => {
      const res = await call('GET', url, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ListBody<TeamBooking>>().data.map((b) => b.id);
    };
    expect(await ids(`/bookings?${range}`, ada.key)).toEqual([own.id, onAda.id]);
    expect(await ids(`/bookings?${range}`, bob.key)).toEqual([onBob.id]);
    expect(await ids(`/bookings?${range}`, cy.key)).toEqual([]);
    expect(await ids(`/bookings?${range}&eventTypeId=${type}`, ada.key)).toEqual([onAda.id]);
    expect(await ids(`/bookings?${range}&limit=1`, ada.key)).toEqual([own.id]);
    // Page by page, one cursor over both: every booking once, in order.
    const paged: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await call('GET', `/bookings?${range}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, ada.key);
      const body = page.json<ListBody<TeamBooking>>();
      paged.push(...body.data.map((b) => b.id));
      cursor = body.nextCursor;
    }
    expect(paged).toEqual([own.id, onAda.id]);
    expect((await ids(`/bookings?${range}`, acme)).sort()).toEqual([own.id, onAda.id, onBob.id].sort());
    expect(await ids(`/bookings?${range}&holderId=${ada.id}`, acme)).toEqual([own.id, onAda.id]);
    expect(await ids(`/bookings?${range}`, globex)).toEqual([]);

    const asHost = await call('GET', `/bookings/${onAda.id}`, ada.key);
    expect(asHost.statusCode).toBe(200);
    expect(asHost.json<TeamBooking>()).toMatchObject({ holderId: null, hostIds: [ada.id] });
    expect((await call('GET', `/bookings/${onAda.id}`, bob.key)).statusCode).toBe(404);
    expect((await call('GET', `/bookings/${onAda.id}`, acme)).statusCode).toBe(200);
    expect((await call('GET', `/bookings/${onAda.id}`, globex)).statusCode).toBe(404);
  });

  it('when a host’s calendar feed is fetched, then it shows the team bookings it hosts under their type’s title, a cancelled one as cancelled; a holder that does not host them sees none', async () => {
    const type = await teamType('collective', [{ holderId: ada.id }, { holderId: bob.id }], { title: 'Panel' });
    const kept = await booked(type, MONDAY_10);
    const cancelled = await booked(type, MONDAY_11);
    expect((await call('POST', `/bookings/${cancelled.id}/cancel`, acme, {})).statusCode).toBe(200);
    const feedOf = async (holder: Holder) => {
      const me = await call('GET', '/me', holder.key);
      const url = new URL(me.json<{ holder: { calendarFeedUrl: string } }>().holder.calendarFeedUrl);
      const res = await h.request({ method: 'GET', url: url.pathname });
      expect(res.statusCode, res.body).toBe(200);
      return res.body.replace(/\r\n[ \t]/g, '');
    };
    const feed = await feedOf(bob);
    const events = feed.split('BEGIN:VEVENT').slice(1);
    expect(events).toHaveLength(2);
    const eventOf = (id: string) => events.find((event) => event.includes(`UID:${id}@slotwise`))!;
    expect(eventOf(kept.id)).toMatch(/STATUS:CONFIRMED/);
    expect(eventOf(kept.id)).toMatch(/SUMMARY:Panel: Grace Hopper/);
    expect(eventOf(cancelled.id)).toMatch(/STATUS:CANCELLED/);
    expect((await feedOf(cy)).includes('BEGIN:VEVENT')).toBe(false);
  });

  it('when a round-robin booking is moved to another host, then the old host’s feed shows the appointment cancelled and the new host’s shows it moved, under one UID, and the guest’s .ics shows it with its new host', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id }, { holderId: bob.id }], { title: 'Panel' });
    const booking = await booked(type, MONDAY_10, { hostId: ada.id });
    const moved = await call('POST', `/bookings/${booking.id}/reschedule`, acme, { start: MONDAY_11, hostId: bob.id });
    expect(moved.statusCode, moved.body).toBe(201);
    const feedOf = async (holder: Holder) => {
      const me = await call('GET', '/me', holder.key);
      const url = new URL(me.json<{ holder: { calendarFeedUrl: string } }>().holder.calendarFeedUrl);
      const res = await h.request({ method: 'GET', url: url.pathname });
      expect(res.statusCode, res.body).toBe(200);
      return eventsOf(res.body);
    };
    const uid = `${booking.id}@slotwise`;
    expect(await feedOf(ada)).toEqual([{ uid, start: MONDAY_10, status: 'CANCELLED', sequence: 1 }]);
    expect(await feedOf(bob)).toEqual([{ uid, start: MONDAY_11, status: 'CONFIRMED', sequence: 1 }]);
    const guestFile = await h.request({ method: 'GET', url: new URL(booking.icsUrl!).pathname });
    expect(eventsOf(guestFile.body)).toEqual([{ uid, start: MONDAY_11, status: 'CONFIRMED', sequence: 1 }]);
    expect(guestFile.body.replace(/\r\n[ \t]/g, '')).toContain('SUMMARY:Panel with bob');
  });

  it('when a holder hosts a confirmed team booking that has not ended, then the holder cannot be deleted', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id }]);
    await booked(type, MONDAY_10);
    const changed = await call('PATCH', `/event-types/${type}`, acme, { hosts: [{ holderId: bob.id }] });
    expect(changed.statusCode, changed.body).toBe(200);
    expectProblem(await call('DELETE', `/holders/${ada.id}`, acme), 409, 'invalid-state');
  });
});

describe('bad input: 400 on the field, nothing written', () => {
  it('when hostId is no host of the type that is not fixed, is sent for a collective or a holder’s own type, or the event type is not the account’s, then 400 on that field', async () => {
    const roundRobin = await teamType('round-robin', [{ holderId: ada.id, fixed: true }, { holderId: bob.id }]);
    const collective = await teamType('collective', [{ holderId: ada.id }]);
    const own = await createEventType(h, cy.key);
    const before = await written();
    for (const hostId of [ada.id, cy.id, gus.id, 'hdr_00000000000000000000'])
      expectInvalid(await bookTeam(roundRobin, MONDAY_10, { hostId }), ['hostId']);
    expectInvalid(await bookTeam(collective, MONDAY_10, { hostId: ada.id }), ['hostId']);
    expectInvalid(await bookTeam(own.id, MONDAY_10, { hostId: cy.id }), ['hostId']);
    expectInvalid(await bookTeam(own.id, MONDAY_10, { hostId: cy.id }, cy.key), ['hostId']);
    expectInvalid(await call('POST', '/holds', acme, { eventTypeId: collective, start: MONDAY_10, hostId: ada.id }), [
      'hostId',
    ]);
    expectInvalid(await bookTeam(roundRobin, MONDAY_10, {}, globex), ['eventTypeId']);
    expectInvalid(await bookTeam(roundRobin, MONDAY_10, { hostId: '' }), ['hostId']);
    expect(await written()).toEqual(before);

    const booking = await booked(roundRobin, MONDAY_10);
    const after = await written();
    expectInvalid(
      await call('POST', `/bookings/${booking.id}/reschedule`, acme, { start: MONDAY_11, hostId: ada.id }),
      ['hostId'],
    );
    expect(await written()).toEqual(after);
  });

  it('when a holder books or holds a team type it hosts, then 403 (account scope books them); one it does not host is an unknown eventTypeId', async () => {
    const type = await teamType('round-robin', [{ holderId: ada.id }]);
    const before = await written();
    expectProblem(await bookTeam(type, MONDAY_10, {}, ada.key), 403, 'forbidden');
    expectProblem(await call('POST', '/holds', ada.key, { eventTypeId: type, start: MONDAY_10 }), 403, 'forbidden');
    expectInvalid(await bookTeam(type, MONDAY_10, {}, bob.key), ['eventTypeId']);
    expect(await written()).toEqual(before);
  });
});
