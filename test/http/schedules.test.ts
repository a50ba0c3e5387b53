// Contract §13 on both stores: a holder's weekly schedules through /api/v1/schedules (the default
// one is the availability), their bounds and conflicts, event types' `scheduleId`, and
// bookability by the event type's schedule (its hours, its zone, its zone's local date for the
// daily cap), in slots, bookings and pages, and at once after a change (the slot cache).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  bookingInput,
  createEventType,
  expectInvalid,
  expectProblem,
  getSlots,
  putAvailability,
  startsOf,
  type ListBody,
} from './helpers.js';

interface ScheduleBody {
  id: string;
  name: string;
  timeZone: string;
  weekly: Record<string, Array<{ start: string; end: string }>>;
  overrides: Array<{ date: string; intervals: Array<{ start: string; end: string }> }>;
  default: boolean;
  createdAt: string;
  updatedAt: string;
}

let h: Harness;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
});

afterEach(async () => {
  await h.close();
});

const WORKDAY = [{ start: '09:00', end: '17:00' }];
const DEFAULT_WEEKLY = {
  monday: WORKDAY,
  tuesday: WORKDAY,
  wednesday: WORKDAY,
  thursday: WORKDAY,
  friday: WORKDAY,
  saturday: [],
  sunday: [],
};
const NO_DAYS = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };

/** Europe/Berlin 08:00–12:00 on weekdays: 07:00–11:00 UTC in January. */
const BERLIN_MORNINGS = {
  name: 'Berlin mornings',
  timeZone: 'Europe/Berlin',
  weekly: Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => [day, [{ start: '08:00', end: '12:00' }]]),
  ),
};

const list = (query = '', as = token) => h.request({ method: 'GET', url: `/api/v1/schedules${query}`, token: as });
const get = (id: string, as = token) => h.request({ method: 'GET', url: `/api/v1/schedules/${id}`, token: as });
const post = (json: unknown, as = token) => h.request({ method: 'POST', url: '/api/v1/schedules', token: as, json });
const put = (id: string, json: unknown, as = token) =>
  h.request({ method: 'PUT', url: `/api/v1/schedules/${id}`, token: as, json });
const remove = (id: string, as = token) => h.request({ method: 'DELETE', url: `/api/v1/schedules/${id}`, token: as });
const availability = async (as = token) =>
  (await h.request({ method: 'GET', url: '/api/v1/availability', token: as })).json<Record<string, unknown>>();

async function created(json: unknown, as = token): Promise<ScheduleBody> {
  const res = await post(json, as);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ScheduleBody>();
}

async function schedules(query = '', as = token): Promise<ListBody<ScheduleBody>> {
  const res = await list(query, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ListBody<ScheduleBody>>();
}

async function defaultSchedule(as = token): Promise<ScheduleBody> {
  return (await schedules('', as)).data[0]!;
}

/** The document of a schedule, as `/availability` shows one. */
function documentOf(schedule: ScheduleBody) {
  return {
    timeZone: schedule.timeZone,
    weekly: schedule.weekly,
    overrides: schedule.overrides,
    updatedAt: schedule.updatedAt,
  };
}

describe('the default schedule is the availability', () => {
  it('when a holder is new, then its schedules are exactly its default one, named Default, with the availability’s document', async () => {
    const { data, nextCursor } = await schedules();
    expect(nextCursor).toBeNull();
    expect(data).toEqual([
      {
        id: expect.stringMatching(/^sch_[0-9a-z]{20}$/),
        name: 'Default',
        timeZone: 'UTC',
        weekly: DEFAULT_WEEKLY,
        overrides: [],
        default: true,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
    expect(await availability()).toEqual(documentOf(data[0]!));
  });

  it('when the availability is replaced, then the default schedule has its document and keeps its name; when the default schedule is replaced and renamed, then the availability is its document', async () => {
    h.clock.set('2026-01-02T10:00:00Z');
    const res = await putAvailability(h, token, {
      timeZone: 'Europe/Berlin',
      weekly: { monday: [{ start: '10:00', end: '11:00' }] },
      overrides: [{ date: '2026-12-24', intervals: [] }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const afterAvailability = await defaultSchedule();
    expect(afterAvailability).toMatchObject({
      name: 'Default',
      timeZone: 'Europe/Berlin',
      weekly: { ...NO_DAYS, monday: [{ start: '10:00', end: '11:00' }] },
      overrides: [{ date: '2026-12-24', intervals: [] }],
      default: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T10:00:00.000Z',
    });
    expect(res.json()).toEqual(documentOf(afterAvailability));

    h.clock.set('2026-01-02T11:00:00Z');
    const replaced = await put(afterAvailability.id, { name: 'Office hours', timeZone: 'UTC', weekly: DEFAULT_WEEKLY });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ name: 'Office hours', default: true, overrides: [] });
    expect(await availability()).toEqual(documentOf(replaced.json<ScheduleBody>()));

    // A PUT of the availability never renames it.
    await putAvailability(h, token, { timeZone: 'UTC', weekly: {} });
    expect((await defaultSchedule()).name).toBe('Office hours');
  });

  it('when the default schedule is deleted, then 409 conflict and it stays', async () => {
    const fallback = await defaultSchedule();
    expectProblem(await remove(fallback.id), 409, 'conflict');
    expect(await defaultSchedule()).toEqual(fallback);
  });

  it('when an account makes a holder with a zone, then its default schedule is Mon–Fri 09:00–17:00 in that zone', async () => {
    const { token: accountKey } = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: null,
      scopes: ['read', 'write'],
      expiresAt: null,
    });
    const made = await h.request({
      method: 'POST',
      url: '/api/v1/holders',
      token: accountKey,
      json: { name: 'Bea', timeZone: 'america/new_york' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await h.request({
      method: 'GET',
      url: '/api/v1/schedules',
      token: accountKey,
      headers: { 'slotwise-holder': made.json<{ id: string }>().id },
    });
    expect(res.json<ListBody<ScheduleBody>>().data).toEqual([
      expect.objectContaining({ name: 'Default', timeZone: 'America/New_York', weekly: DEFAULT_WEEKLY, default: true }),
    ]);
  });
});

describe('POST, GET, PUT and DELETE /api/v1/schedules', () => {
  it('when a schedule is made, then 201 with Location, its document as stored (zone canonical, omitted days empty, sorted), and it is listed after the default one', async () => {
    h.clock.set('2026-01-02T08:00:00Z');
    const res = await post({
      name: 'Evenings',
      timeZone: 'europe/berlin',
      weekly: {
        tuesday: [
          { start: '19:00', end: '21:00' },
          { start: '17:00', end: '18:00' },
        ],
      },
      overrides: [
        { date: '2026-03-02', intervals: [] },
        { date: '2026-02-02', intervals: [{ start: '18:00', end: '24:00' }] },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const schedule = res.json<ScheduleBody>();
    expect(res.headers.location).toBe(`/api/v1/schedules/${schedule.id}`);
    expect(schedule).toEqual({
      id: expect.stringMatching(/^sch_[0-9a-z]{20}$/),
      name: 'Evenings',
      timeZone: 'Europe/Berlin',
      weekly: {
        ...NO_DAYS,
        tuesday: [
          { start: '17:00', end: '18:00' },
          { start: '19:00', end: '21:00' },
        ],
      },
      overrides: [
        { date: '2026-02-02', intervals: [{ start: '18:00', end: '24:00' }] },
        { date: '2026-03-02', intervals: [] },
      ],
      default: false,
      createdAt: '2026-01-02T08:00:00.000Z',
      updatedAt: '2026-01-02T08:00:00.000Z',
    });
    expect((await get(schedule.id)).json()).toEqual(schedule);
    expect((await schedules()).data.map((s) => s.name)).toEqual(['Default', 'Evenings']);
  });

  it('when a schedule is replaced, then its name and document are the sent ones, createdAt stays and updatedAt moves; the availability is untouched', async () => {
    const before = await availability();
    const schedule = await created(BERLIN_MORNINGS);
    h.clock.set('2026-01-03T00:00:00Z');
    const res = await put(schedule.id, { name: 'Tokyo', timeZone: 'Asia/Tokyo', weekly: { sunday: WORKDAY } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...schedule,
      name: 'Tokyo',
      timeZone: 'Asia/Tokyo',
      weekly: { ...NO_DAYS, sunday: WORKDAY },
      overrides: [],
      updatedAt: '2026-01-03T00:00:00.000Z',
    });
    expect((await get(schedule.id)).json()).toEqual(res.json());
    expect(await availability()).toEqual(before);
  });

  it('when the body is wrong, then 400 names every failing field, the rules of the availability included, and nothing is stored or changed', async () => {
    const schedule = await created(BERLIN_MORNINGS);
    const bad = {
      name: 'x'.repeat(101),
      timeZone: 'Mars/Olympus',
      weekly: {
        monday: [
          { start: '09:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ],
        funday: [],
      },
      overrides: [{ date: '2026-02-30', intervals: [] }],
      colour: 'blue',
    };
    const fields = ['name', 'timeZone', 'weekly.funday', 'weekly.monday[1]', 'overrides[0].date', 'colour'];
    expectInvalid(await post(bad), fields);
    expectInvalid(await put(schedule.id, bad), fields);
    expectInvalid(await post({ ...BERLIN_MORNINGS, name: 'two\nlines' }), ['name']);
    expectInvalid(await post({ timeZone: 'UTC', weekly: {} }), ['name']);
    expectInvalid(await post({ name: '', timeZone: 'UTC', weekly: {} }), ['name']);
    expect((await schedules()).data.map((s) => s.id)).toHaveLength(2);
    expect((await get(schedule.id)).json()).toEqual(schedule);
  });

  it('when a schedule is deleted, then 204, it is gone (404) and no longer listed; a second delete is 404', async () => {
    const schedule = await created(BERLIN_MORNINGS);
    const res = await remove(schedule.id);
    expect(res.statusCode, res.body).toBe(204);
    expectProblem(await get(schedule.id), 404, 'not-found');
    expect((await schedules()).data.map((s) => s.name)).toEqual(['Default']);
    expectProblem(await remove(schedule.id), 404, 'not-found');
  });

  it('when another holder’s schedule, or an unknown one, is named, then 404 on every route, and it is unchanged', async () => {
    const bob = await h.key('bob');
    const bobs = await created(BERLIN_MORNINGS, bob);
    const bobsDefault = await defaultSchedule(bob);
    for (const id of [bobs.id, bobsDefault.id, 'sch_00000000000000000000']) {
      expectProblem(await get(id), 404, 'not-found');
      expectProblem(await put(id, BERLIN_MORNINGS), 404, 'not-found');
      expectProblem(await remove(id), 404, 'not-found');
    }
    expect((await schedules('', bob)).data).toEqual([bobsDefault, bobs]);
    expect((await schedules()).data.map((s) => s.name)).toEqual(['Default']);
  });

  it('when the key may only read, then GET works and every write is 403', async () => {
    const schedule = await created(BERLIN_MORNINGS);
    const reader = await h.key('alice', ['read']);
    expect((await get(schedule.id, reader)).statusCode).toBe(200);
    expectProblem(await post(BERLIN_MORNINGS, reader), 403, 'forbidden');
    expectProblem(await put(schedule.id, BERLIN_MORNINGS, reader), 403, 'forbidden');
    expectProblem(await remove(schedule.id, reader), 403, 'forbidden');
  });

  it('when an account key lists schedules without Slotwise-Holder, then 400 on Slotwise-Holder; with it, the holder’s schedules', async () => {
    const { token: accountKey } = await createApiKey(h.context, {
      accountName: 'alice',
      holderName: null,
      scopes: ['read', 'write'],
      expiresAt: null,
    });
    expectInvalid(await list('', accountKey), ['Slotwise-Holder']);
    expectInvalid(await post(BERLIN_MORNINGS, accountKey), ['Slotwise-Holder']);
    const own = await defaultSchedule();
    const holderId = (await h.request({ method: 'GET', url: '/api/v1/me', token }).then((r) => r.json())).holder.id;
    const acting = await h.request({
      method: 'GET',
      url: `/api/v1/schedules/${own.id}`,
      token: accountKey,
      headers: { 'slotwise-holder': holderId },
    });
    expect(acting.json()).toEqual(own);
  });
});

describe('the list of schedules', () => {
  it('when there are more than a page, then the default comes first and the others oldest first, each once, page after page', async () => {
    const names: string[] = [];
    for (let i = 1; i <= 4; i++) {
      // Made in one millisecond: the id orders them.
      names.push((await created({ ...BERLIN_MORNINGS, name: `Schedule ${i}` })).name);
    }
    h.clock.set('2026-01-01T00:00:01Z');
    names.push((await created({ ...BERLIN_MORNINGS, name: 'Later' })).name);
    const everything = (await schedules()).data;
    expect(everything[0]!.default).toBe(true);
    const sameMoment = everything.slice(1, 5);
    expect(sameMoment.map((s) => s.id)).toEqual([...sameMoment.map((s) => s.id)].sort());
    expect(everything[5]!.name).toBe('Later');

    const paged: ScheduleBody[] = [];
    let cursor: string | null = null;
    do {
      const page: ListBody<ScheduleBody> = await schedules(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(paged).toEqual(everything);
    expectInvalid(await list('?limit=101'), ['limit']);
    expectInvalid(await list('?cursor=nonsense'), ['cursor']);
  });
});

describe('SCHEDULES_PER_HOLDER', () => {
  it('when the holder has as many schedules as allowed (the default one counted), then another is 409 limit-reached and not stored; a deletion makes room; another holder is not affected', async () => {
    const limited = await createHarness({ now: BEFORE_MONDAY, schedulesPerHolder: 3 });
    try {
      const alice = await limited.key('alice');
      const make = (as: string) =>
        limited.request({ method: 'POST', url: '/api/v1/schedules', token: as, json: BERLIN_MORNINGS });
      const first = await make(alice);
      expect(first.statusCode).toBe(201);
      expect((await make(alice)).statusCode).toBe(201);
      const refused = expectProblem(await make(alice), 409, 'limit-reached');
      expect(refused.detail).toContain('SCHEDULES_PER_HOLDER');
      const listed = await limited.request({ method: 'GET', url: '/api/v1/schedules', token: alice });
      expect(listed.json<ListBody<ScheduleBody>>().data).toHaveLength(3);

      const bob = await limited.key('bob');
      expect((await make(bob)).statusCode).toBe(201);

      const deleted = await limited.request({
        method: 'DELETE',
        url: `/api/v1/schedules/${first.json<ScheduleBody>().id}`,
        token: alice,
      });
      expect(deleted.statusCode).toBe(204);
      expect((await make(alice)).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('when creations race for the last place, then exactly as many succeed as there is room', async () => {
    const limited = await createHarness({ now: BEFORE_MONDAY, schedulesPerHolder: 4 });
    try {
      const alice = await limited.key('alice');
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          limited.request({ method: 'POST', url: '/api/v1/schedules', token: alice, json: BERLIN_MORNINGS }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
      const listed = await limited.request({ method: 'GET', url: '/api/v1/schedules', token: alice });
      expect(listed.json<ListBody<ScheduleBody>>().data).toHaveLength(4);
    } finally {
      await limited.close();
    }
  });
});

describe('an event type’s scheduleId', () => {
  it('when an event type is made or changed with one of the holder’s schedules, then it shows it; without one, or with null, it shows null (the default schedule)', async () => {
    const mornings = await created(BERLIN_MORNINGS);
    const plain = await createEventType(h, token);
    expect(plain).toMatchObject({ scheduleId: null });
    const onMornings = await createEventType(h, token, { title: 'Mornings call', scheduleId: mornings.id });
    expect(onMornings).toMatchObject({ scheduleId: mornings.id });
    const fetched = await h.request({ method: 'GET', url: `/api/v1/event-types/${onMornings.id}`, token });
    expect(fetched.json()).toMatchObject({ scheduleId: mornings.id });

    const moved = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${plain.id}`,
      token,
      json: { scheduleId: mornings.id },
    });
    expect(moved.json()).toMatchObject({ scheduleId: mornings.id, title: plain.title });
    // A PATCH without it keeps it.
    const renamed = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${plain.id}`,
      token,
      json: { title: 'Renamed' },
    });
    expect(renamed.json()).toMatchObject({ scheduleId: mornings.id });
    const back = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${plain.id}`,
      token,
      json: { scheduleId: null },
    });
    expect(back.json()).toMatchObject({ scheduleId: null });
    const listed = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    const shown = listed.json<ListBody<{ id: string; scheduleId: string | null }>>().data;
    expect(Object.fromEntries(shown.map((eventType) => [eventType.id, eventType.scheduleId]))).toEqual({
      [plain.id]: null,
      [onMornings.id]: mornings.id,
    });
  });

  it('when scheduleId names another holder’s schedule, an unknown one, or is no string, then 400 on scheduleId and nothing is stored or changed', async () => {
    const bob = await h.key('bob');
    const bobs = await created(BERLIN_MORNINGS, bob);
    const eventType = await createEventType(h, token);
    for (const scheduleId of [bobs.id, (await defaultSchedule(bob)).id, 'sch_00000000000000000000', 42, '']) {
      expectInvalid(
        await h.request({
          method: 'POST',
          url: '/api/v1/event-types',
          token,
          json: { title: 'Call', durationMinutes: 30, scheduleId },
        }),
        ['scheduleId'],
      );
      expectInvalid(
        await h.request({ method: 'PATCH', url: `/api/v1/event-types/${eventType.id}`, token, json: { scheduleId } }),
        ['scheduleId'],
      );
    }
    const listed = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    expect(listed.json<ListBody<unknown>>().data).toEqual([eventType]);
  });

  it('when a live event type books in a schedule, then deleting the schedule is 409 conflict; once the event type moved away, or was deleted, it can be deleted', async () => {
    const mornings = await created(BERLIN_MORNINGS);
    const moving = await createEventType(h, token, { scheduleId: mornings.id });
    const retiring = await createEventType(h, token, { title: 'Retiring', scheduleId: mornings.id });
    expectProblem(await remove(mornings.id), 409, 'conflict');

    await h.request({ method: 'PATCH', url: `/api/v1/event-types/${moving.id}`, token, json: { scheduleId: null } });
    expectProblem(await remove(mornings.id), 409, 'conflict');
    await h.request({ method: 'DELETE', url: `/api/v1/event-types/${retiring.id}`, token });
    expect((await remove(mornings.id)).statusCode).toBe(204);
  });
});

describe('bookability by the event type’s schedule', () => {
  const MONDAY = { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' };
  const hours = (...times: string[]) => times.map((time) => `2026-01-05T${time}:00.000Z`);

  it('when an event type books in another schedule, then its slots and bookings follow that schedule’s hours and zone, the default one’s event types keep theirs, and a booking of either occupies the holder', async () => {
    const mornings = await created(BERLIN_MORNINGS);
    const onMornings = await createEventType(h, token, { durationMinutes: 60, scheduleId: mornings.id });
    const onDefault = await createEventType(h, token, { title: 'Default call', durationMinutes: 60 });

    expect(startsOf(await getSlots(h, token, { eventTypeId: onMornings.id, ...MONDAY }))).toEqual(
      hours('07:00', '08:00', '09:00', '10:00'),
    );
    expect(startsOf(await getSlots(h, token, { eventTypeId: onDefault.id, ...MONDAY }))).toEqual(
      hours('09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'),
    );
    const shown = await getSlots(h, token, { eventTypeId: onMornings.id, ...MONDAY, timeZone: 'Europe/Berlin' });
    expect(shown[0]).toEqual({ start: '2026-01-05T08:00:00+01:00', end: '2026-01-05T09:00:00+01:00' });

    // Outside the default hours, inside the schedule's: bookable; the other way round: not.
    await book(h, token, onMornings.id, '2026-01-05T07:00:00Z');
    const outside = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(onMornings.id, '2026-01-05T12:00:00Z'),
    });
    expectProblem(outside, 409, 'slot-unavailable');
    const early = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(onDefault.id, '2026-01-05T08:00:00Z'),
    });
    expectProblem(early, 409, 'slot-unavailable');

    // One holder, one time: a booking of one schedule's event type takes the time from the other's.
    await book(h, token, onMornings.id, '2026-01-05T09:00:00Z');
    expect(startsOf(await getSlots(h, token, { eventTypeId: onDefault.id, ...MONDAY }))).toEqual(
      hours('10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'),
    );
    await book(h, token, onDefault.id, '2026-01-05T10:00:00Z');
    expect(startsOf(await getSlots(h, token, { eventTypeId: onMornings.id, ...MONDAY }))).toEqual(hours('08:00'));
  });

  it('when the event type has a daily cap, then it counts the local dates of its schedule’s zone, not UTC’s', async () => {
    // Tokyo's Monday 08:00–10:00 is Sunday 23:00 to Monday 01:00 UTC.
    const tokyo = await created({
      name: 'Tokyo',
      timeZone: 'Asia/Tokyo',
      weekly: { monday: [{ start: '08:00', end: '10:00' }] },
    });
    const capped = await createEventType(h, token, { durationMinutes: 60, maxBookingsPerDay: 1, scheduleId: tokyo.id });
    const range = { from: '2026-01-04T00:00:00Z', to: '2026-01-06T00:00:00Z' };
    expect(startsOf(await getSlots(h, token, { eventTypeId: capped.id, ...range }))).toEqual([
      '2026-01-04T23:00:00.000Z',
      '2026-01-05T00:00:00.000Z',
    ]);
    await book(h, token, capped.id, '2026-01-04T23:00:00Z');
    // Another UTC date, the same Tokyo date: the day is full.
    const second = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(capped.id, '2026-01-05T00:00:00Z'),
    });
    expect(expectProblem(second, 409, 'slot-unavailable').detail).toContain('maximum number of bookings');
    expect(await getSlots(h, token, { eventTypeId: capped.id, ...range })).toEqual([]);
  });

  it('when a schedule is replaced, then the slots of its event types follow at once, and the others’ stay', async () => {
    const mornings = await created(BERLIN_MORNINGS);
    const onMornings = await createEventType(h, token, { durationMinutes: 60, scheduleId: mornings.id });
    const onDefault = await createEventType(h, token, { title: 'Default call', durationMinutes: 60 });
    const defaultSlots = await getSlots(h, token, { eventTypeId: onDefault.id, ...MONDAY });
    // Twice: the second answer comes from the cached track.
    await getSlots(h, token, { eventTypeId: onMornings.id, ...MONDAY });
    expect(startsOf(await getSlots(h, token, { eventTypeId: onMornings.id, ...MONDAY }))).toHaveLength(4);

    const res = await put(mornings.id, { ...BERLIN_MORNINGS, weekly: { monday: [{ start: '13:00', end: '15:00' }] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(startsOf(await getSlots(h, token, { eventTypeId: onMornings.id, ...MONDAY }))).toEqual(
      hours('12:00', '13:00'),
    );
    expect(await getSlots(h, token, { eventTypeId: onDefault.id, ...MONDAY })).toEqual(defaultSlots);

    // Moving the event type to the default schedule moves its slots there at once too.
    await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${onMornings.id}`,
      token,
      json: { scheduleId: null },
    });
    expect(await getSlots(h, token, { eventTypeId: onMornings.id, ...MONDAY })).toEqual(defaultSlots);
  });

  it('when a booking is made, then the cached slots of an event type on another schedule are derived, not computed again (the schedule compiled once, shared)', async () => {
    const mornings = await created(BERLIN_MORNINGS);
    const onMornings = await createEventType(h, token, { durationMinutes: 60, scheduleId: mornings.id });
    const onDefault = await createEventType(h, token, { title: 'Default call', durationMinutes: 60 });
    await getSlots(h, token, { eventTypeId: onMornings.id, ...MONDAY });
    const before = h.context.calendars.trackComputations();
    await book(h, token, onDefault.id, '2026-01-05T10:00:00Z');
    expect(startsOf(await getSlots(h, token, { eventTypeId: onMornings.id, ...MONDAY }))).toEqual(
      hours('07:00', '08:00', '09:00'),
    );
    expect(h.context.calendars.trackComputations()).toEqual({ full: before.full, derived: before.derived + 1 });
  });

  it('when a public event type books in another schedule, then its page shows times in that schedule’s zone by default', async () => {
    const tokyo = await created({ name: 'Tokyo', timeZone: 'Asia/Tokyo', weekly: { monday: WORKDAY } });
    await createEventType(h, token, { title: 'Tokyo call', public: true, scheduleId: tokyo.id });
    const page = await h.request({ method: 'GET', url: '/book/alice/tokyo-call' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Times are shown in <strong>Asia/Tokyo</strong>');
    // Monday 09:00 in Tokyo is Monday 00:00 UTC.
    expect(page.body).toContain('2026-01-05T00:00:00.000Z');
  });
});
