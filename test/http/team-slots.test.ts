// Contract §14, the slots of team event types, on both stores: each host's own schedule (its
// default one, or the one its host entry names), everything that occupies its time (bookings and
// holds of any event type) and the team's rule: collective, every host free; round robin, every
// fixed host and at least one other, or with `hostId` that one. Read in account scope and by the
// hosts; everyone else gets the unknown id's answer. A team type's change is seen at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, book, createEventType, expectInvalid, putWeekdays, type SlotBody } from './helpers.js';

let h: Harness;
let acme: string;
let ada: { id: string; key: string };
let bob: { id: string; key: string };
let cy: { id: string; key: string };
let globex: string;

async function accountKey(account: string): Promise<string> {
  return (await createApiKey(h.context, { accountName: account, holderName: null, scopes: ['*'], expiresAt: null }))
    .token;
}

async function holder(account: string, name: string): Promise<{ id: string; key: string }> {
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
  ada = await holder('acme', 'ada');
  bob = await holder('acme', 'bob');
  cy = await holder('acme', 'cy');
  globex = await accountKey('globex');
  // Monday 5 January 2026, in UTC: ada 09–12, bob 10–13, cy 14–15.
  await putWeekdays(h, ada.key, 'UTC', [{ start: '09:00', end: '12:00' }]);
  await putWeekdays(h, bob.key, 'UTC', [{ start: '10:00', end: '13:00' }]);
  await putWeekdays(h, cy.key, 'UTC', [{ start: '14:00', end: '15:00' }]);
});

afterEach(async () => {
  await h.close();
});

async function teamType(body: Record<string, unknown>): Promise<string> {
  const res = await h.request({
    method: 'POST',
    url: '/api/v1/event-types',
    token: acme,
    json: { title: 'Team call', durationMinutes: 30, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

function slots(token: string, eventTypeId: string, extra: Record<string, string> = {}) {
  const query = new URLSearchParams({
    eventTypeId,
    from: '2026-01-05T00:00:00Z',
    to: '2026-01-06T00:00:00Z',
    ...extra,
  });
  return h.request({ method: 'GET', url: `/api/v1/slots?${query.toString()}`, token });
}

async function startsOf(token: string, eventTypeId: string, extra: Record<string, string> = {}): Promise<string[]> {
  const res = await slots(token, eventTypeId, extra);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: SlotBody[] }>().data.map((slot) => slot.start.slice(11, 16));
}

const hosts = (...entries: Array<{ holderId: string } & Record<string, unknown>>) => entries;

describe('collective', () => {
  it('when every host must attend, then a start is offered where every host is free, each in its own hours', async () => {
    const id = await teamType({ assignment: 'collective', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    expect(await startsOf(acme, id)).toEqual(['10:00', '10:30', '11:00', '11:30']);
  });

  it('when a host is booked for another event type, or holds a time, then that time is gone for the team, and back once freed', async () => {
    const id = await teamType({ assignment: 'collective', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    const bobs = await createEventType(h, bob.key, { durationMinutes: 30 });
    const booking = await book(h, bob.key, bobs.id, '2026-01-05T10:30:00Z');
    const held = await h.request({
      method: 'POST',
      url: '/api/v1/holds',
      token: ada.key,
      json: {
        eventTypeId: (await createEventType(h, ada.key, { durationMinutes: 30 })).id,
        start: '2026-01-05T11:30:00Z',
      },
    });
    expect(held.statusCode, held.body).toBe(201);
    expect(await startsOf(acme, id)).toEqual(['10:00', '11:00']);
    const cancelled = await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token: bob.key });
    expect(cancelled.statusCode).toBe(200);
    expect(await startsOf(acme, id)).toEqual(['10:00', '10:30', '11:00']);
  });

  it('when a host entry names one of the host’s schedules, then the team uses that schedule’s hours for it', async () => {
    const afternoons = await h.request({
      method: 'POST',
      url: '/api/v1/schedules',
      token: bob.key,
      json: { name: 'Early', timeZone: 'UTC', weekly: { monday: [{ start: '09:00', end: '10:30' }] } },
    });
    expect(afternoons.statusCode, afternoons.body).toBe(201);
    const scheduleId = afternoons.json<{ id: string }>().id;
    const id = await teamType({
      assignment: 'collective',
      hosts: hosts({ holderId: ada.id }, { holderId: bob.id, scheduleId }),
    });
    expect(await startsOf(acme, id)).toEqual(['09:00', '09:30', '10:00']);
  });

  it('when hostId is sent for a collective type, then 400 on hostId', async () => {
    const id = await teamType({ assignment: 'collective', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    expectInvalid(await slots(acme, id, { hostId: ada.id }), ['hostId']);
  });
});

describe('round robin', () => {
  it('when any one host may attend, then a start is offered where at least one is free', async () => {
    const id = await teamType({
      assignment: 'round-robin',
      hosts: hosts({ holderId: ada.id }, { holderId: bob.id }, { holderId: cy.id }),
    });
    expect(await startsOf(acme, id)).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
      '14:00',
      '14:30',
    ]);
  });

  it('when a host is fixed, then every start needs that host free and one other', async () => {
    const id = await teamType({
      assignment: 'round-robin',
      hosts: hosts({ holderId: ada.id, fixed: true }, { holderId: bob.id }, { holderId: cy.id }),
    });
    expect(await startsOf(acme, id)).toEqual(['10:00', '10:30', '11:00', '11:30']);
  });

  it('when hostId names a host, then only that host’s free times count (with the fixed ones); another value is 400 on hostId', async () => {
    const id = await teamType({
      assignment: 'round-robin',
      hosts: hosts({ holderId: ada.id }, { holderId: bob.id }, { holderId: cy.id, fixed: false }),
    });
    expect(await startsOf(acme, id, { hostId: cy.id })).toEqual(['14:00', '14:30']);
    const fixedOne = await teamType({
      assignment: 'round-robin',
      slug: 'with-fixed',
      hosts: hosts({ holderId: ada.id, fixed: true }, { holderId: bob.id }),
    });
    expectInvalid(await slots(acme, fixedOne, { hostId: ada.id }), ['hostId']);
    expectInvalid(await slots(acme, id, { hostId: 'hdr_00000000000000000000' }), ['hostId']);
  });

  it('when every host is busy at a time, then it is gone; when one is freed, it is back', async () => {
    const id = await teamType({ assignment: 'round-robin', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    const adas = await createEventType(h, ada.key, { durationMinutes: 30 });
    const bobs = await createEventType(h, bob.key, { durationMinutes: 30 });
    await book(h, ada.key, adas.id, '2026-01-05T10:00:00Z');
    expect(await startsOf(acme, id)).toContain('10:00');
    await book(h, bob.key, bobs.id, '2026-01-05T10:00:00Z');
    expect(await startsOf(acme, id)).not.toContain('10:00');
  });
});

describe('team bookings in the team’s slots', () => {
  async function bookTeam(eventTypeId: string, start: string, extra: Record<string, unknown> = {}) {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token: acme,
      json: { eventTypeId, start, guestName: 'Guest', guestEmail: 'guest@example.com', ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; hostIds: string[] }>();
  }

  it('when a collective type is booked, then the time is gone for it and for each host’s own event types', async () => {
    const id = await teamType({ assignment: 'collective', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    const bobs = await createEventType(h, bob.key, { durationMinutes: 30 });
    expect(await startsOf(bob.key, bobs.id)).toContain('10:30');
    const booking = await bookTeam(id, '2026-01-05T10:30:00Z');
    expect(booking.hostIds.sort()).toEqual([ada.id, bob.id].sort());
    expect(await startsOf(acme, id)).toEqual(['10:00', '11:00', '11:30']);
    expect(await startsOf(bob.key, bobs.id)).not.toContain('10:30');
  });

  it('when a round-robin type is booked, then the time stays offered while another host is free there, and goes with the last', async () => {
    const id = await teamType({ assignment: 'round-robin', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    const first = await bookTeam(id, '2026-01-05T10:30:00Z');
    expect(first.hostIds).toHaveLength(1);
    expect(await startsOf(acme, id)).toContain('10:30');
    const other = first.hostIds[0] === ada.id ? bob.id : ada.id;
    expect(await startsOf(acme, id, { hostId: first.hostIds[0]! })).not.toContain('10:30');
    expect(await startsOf(acme, id, { hostId: other })).toContain('10:30');
    await bookTeam(id, '2026-01-05T10:30:00Z');
    expect(await startsOf(acme, id)).not.toContain('10:30');
  });

  it('when the team type’s daily cap is reached, then its day is gone, counted once per booking over its hosts', async () => {
    const id = await teamType({
      assignment: 'collective',
      maxBookingsPerDay: 2,
      hosts: hosts({ holderId: ada.id }, { holderId: bob.id }),
    });
    await bookTeam(id, '2026-01-05T10:00:00Z');
    // One collective booking occupies both hosts: the day still has a place.
    expect(await startsOf(acme, id)).toEqual(['10:30', '11:00', '11:30']);
    await bookTeam(id, '2026-01-05T11:00:00Z');
    expect(await startsOf(acme, id)).toEqual([]);
  });
});

describe('who reads a team type’s slots', () => {
  it('when a host asks with its own key (or the account key acting for it), then it sees the team’s slots', async () => {
    const id = await teamType({ assignment: 'collective', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    const expected = await startsOf(acme, id);
    expect(await startsOf(ada.key, id)).toEqual(expected);
    const acting = await h.request({
      method: 'GET',
      url: `/api/v1/slots?eventTypeId=${id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`,
      token: acme,
      headers: { 'slotwise-holder': bob.id },
    });
    expect(acting.statusCode, acting.body).toBe(200);
    expect(acting.json<{ data: SlotBody[] }>().data.map((slot) => slot.start.slice(11, 16))).toEqual(expected);
  });

  it('when a holder that is no host, or another account, asks, then the answer is the unknown id’s: 400 on eventTypeId', async () => {
    const id = await teamType({ assignment: 'collective', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    const unknown = await slots(acme, 'evt_00000000000000000000');
    expectInvalid(unknown, ['eventTypeId']);
    for (const token of [cy.key, globex]) {
      const res = await slots(token, id);
      expectInvalid(res, ['eventTypeId']);
      expect(res.json()).toEqual(unknown.json());
    }
  });

  it('when a personal event type is asked for with hostId, then 400 on hostId', async () => {
    const own = await createEventType(h, ada.key, { durationMinutes: 30 });
    expectInvalid(await slots(ada.key, own.id, { hostId: ada.id }), ['hostId']);
    expectInvalid(await slots(acme, own.id, { hostId: ada.id }), ['hostId']);
  });
});

describe('changes', () => {
  it('when the team type’s duration or hosts change, then its slots follow at once', async () => {
    const id = await teamType({ assignment: 'collective', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    expect(await startsOf(acme, id)).toEqual(['10:00', '10:30', '11:00', '11:30']);
    const longer = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${id}`,
      token: acme,
      json: { durationMinutes: 60, slotIntervalMinutes: 30 },
    });
    expect(longer.statusCode, longer.body).toBe(200);
    expect(await startsOf(acme, id)).toEqual(['10:00', '10:30', '11:00']);
    const adaAlone = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${id}`,
      token: acme,
      json: { hosts: [{ holderId: ada.id }] },
    });
    expect(adaAlone.statusCode, adaAlone.body).toBe(200);
    expect(await startsOf(acme, id)).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
  });

  it('when a host changes its hours, then the team’s slots follow at once', async () => {
    const id = await teamType({ assignment: 'collective', hosts: hosts({ holderId: ada.id }, { holderId: bob.id }) });
    expect(await startsOf(acme, id)).toHaveLength(4);
    await putWeekdays(h, bob.key, 'UTC', [{ start: '11:00', end: '12:00' }]);
    expect(await startsOf(acme, id)).toEqual(['11:00', '11:30']);
  });
});
