import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  bookingInput,
  createEventType,
  expectInvalid,
  expectInvalidIncluding,
  expectProblem,
  type BookingBody,
  type EventTypeBody,
  type ListBody,
} from './helpers.js';

let h: Harness;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
});

afterEach(async () => {
  await h.close();
});

const post = (json: unknown) => h.request({ method: 'POST', url: '/api/v1/event-types', token, json });
const patch = (id: string, json: unknown) =>
  h.request({ method: 'PATCH', url: `/api/v1/event-types/${id}`, token, json });
const get = (id: string) => h.request({ method: 'GET', url: `/api/v1/event-types/${id}`, token });

describe('POST /api/v1/event-types', () => {
  it('when only title and duration are sent, then it is created with the documented defaults', async () => {
    const res = await post({ title: 'Intro Call', durationMinutes: 30 });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json<EventTypeBody>();
    expect(body.id).toMatch(/^evt_/);
    expect(body).toMatchObject({
      title: 'Intro Call',
      slug: 'intro-call',
      description: null,
      durationMinutes: 30,
      slotIntervalMinutes: 30,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      minimumNoticeMinutes: 0,
      bookingWindowDays: null,
      maxBookingsPerDay: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('when every field is sent, then every field is stored and returned', async () => {
    const fields = {
      title: 'Deep dive',
      slug: 'deep',
      description: 'An hour',
      durationMinutes: 60,
      slotIntervalMinutes: 15,
      bufferBeforeMinutes: 5,
      bufferAfterMinutes: 10,
      minimumNoticeMinutes: 120,
      bookingWindowDays: 30,
      maxBookingsPerDay: 3,
    };
    const created = await createEventType(h, token, fields);
    expect(created).toMatchObject(fields);
    const fetched = await get(created.id);
    expect(fetched.json()).toEqual(created);
  });

  it('when the derived slug is taken, then a numeric suffix is appended', async () => {
    const first = await createEventType(h, token, { title: 'Intro Call' });
    const second = await createEventType(h, token, { title: 'Intro Call' });
    const third = await createEventType(h, token, { title: 'intro   call!' });
    expect([first.slug, second.slug, third.slug]).toEqual(['intro-call', 'intro-call-2', 'intro-call-3']);
  });

  it('when the title has accents and punctuation, then the derived slug uses only [a-z0-9-]', async () => {
    const created = await createEventType(h, token, { title: 'Café — Weekly 1:1' });
    expect(created.slug).toBe('cafe-weekly-1-1');
  });

  it('when an explicit slug is taken, then 409 conflict and nothing is created', async () => {
    await createEventType(h, token, { title: 'Intro Call', slug: 'intro' });
    const res = await post({ title: 'Other', durationMinutes: 30, slug: 'intro' });
    expectProblem(res, 409, 'conflict');
    const list = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    expect(list.json<ListBody<EventTypeBody>>().data).toHaveLength(1);
  });

  it('when durationMinutes is not a multiple of 5, then 400 with an entry for durationMinutes', async () => {
    expectInvalid(await post({ title: 'Odd', durationMinutes: 31 }), ['durationMinutes']);
  });

  it.each([
    ['zero', 0],
    ['above a day', 1445],
    ['a fraction', 30.5],
    ['a string', '30'],
  ])('when durationMinutes is %s, then 400 on durationMinutes', async (_label, value) => {
    expectInvalid(await post({ title: 'Bad', durationMinutes: value }), ['durationMinutes']);
  });

  it('when an unknown field is sent, then 400 with an entry naming that field', async () => {
    const body = expectInvalid(await post({ title: 'X', durationMinutes: 30, colour: 'red' }), ['colour']);
    expect(body.errors?.[0]?.message).toMatch(/known/);
  });

  it('when title is missing, then 400 with an entry for title', async () => {
    expectInvalid(await post({ durationMinutes: 30 }), ['title']);
  });

  it('when several fields fail, then each has its own errors entry', async () => {
    expectInvalid(await post({ title: '', durationMinutes: 7, slug: 'Not A Slug', slotIntervalMinutes: 3, extra: 1 }), [
      'title',
      'durationMinutes',
      'slug',
      'slotIntervalMinutes',
      'extra',
    ]);
  });

  it('when the body is an empty object, then both required fields are reported', async () => {
    expectInvalid(await post({}), ['title', 'durationMinutes']);
  });

  it('when the body is a JSON array, then 400 invalid-request', async () => {
    expectProblem(await post([]), 400, 'invalid-request');
  });
});

describe('GET /api/v1/event-types (list)', () => {
  async function createMany(n: number): Promise<EventTypeBody[]> {
    const created: EventTypeBody[] = [];
    for (let i = 0; i < n; i++) {
      h.clock.set(h.clock.now() + 1000);
      created.push(await createEventType(h, token, { title: `Type ${i}` }));
    }
    return created;
  }

  it('when there are none, then data is empty and nextCursor is null', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [], nextCursor: null });
  });

  it('when paging with limit and cursor, then every item appears once in creation order and the last page has nextCursor null', async () => {
    const created = await createMany(5);
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const query = cursor ? `limit=2&cursor=${encodeURIComponent(cursor)}` : 'limit=2';
      const res = await h.request({ method: 'GET', url: `/api/v1/event-types?${query}`, token });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<ListBody<EventTypeBody>>();
      pageSizes.push(page.data.length);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.nextCursor;
      if (cursor === null) break;
      expect(typeof cursor).toBe('string');
    }
    expect(pageSizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(created.map((e) => e.id));
  });

  it('when the page is exactly full at the end, then nextCursor is null', async () => {
    await createMany(2);
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types?limit=2', token });
    expect(res.json<ListBody<EventTypeBody>>()).toMatchObject({ nextCursor: null });
    expect(res.json<ListBody<EventTypeBody>>().data).toHaveLength(2);
  });

  it('when no limit is sent, then at most 50 items come back', async () => {
    await createMany(51);
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    const page = res.json<ListBody<EventTypeBody>>();
    expect(page.data).toHaveLength(50);
    expect(page.nextCursor).not.toBeNull();
  });

  it.each(['not-a-cursor', 'eyJ4IjoxfQ', '%00'])('when the cursor is %s, then 400 on cursor', async (cursor) => {
    expectInvalid(await h.request({ method: 'GET', url: `/api/v1/event-types?cursor=${cursor}`, token }), ['cursor']);
  });

  it.each(['0', '101', 'ten', '1.5', 'Infinity', '-Infinity', '1e400', 'NaN'])(
    'when limit is %s, then 400 on limit',
    async (limit) => {
      expectInvalid(await h.request({ method: 'GET', url: `/api/v1/event-types?limit=${limit}`, token }), ['limit']);
    },
  );

  it('when an unknown query parameter is sent, then 400 names it', async () => {
    expectInvalid(await h.request({ method: 'GET', url: '/api/v1/event-types?sort=title', token }), ['sort']);
  });
});

describe('GET /api/v1/event-types/:id', () => {
  it('when the id exists, then 200 with the event type', async () => {
    const created = await createEventType(h, token);
    const res = await get(created.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
  });

  it('when the id is unknown, then 404 not-found', async () => {
    expectProblem(await get('evt_doesnotexist'), 404, 'not-found');
  });
});

describe('PATCH /api/v1/event-types/:id', () => {
  it('when only the title is sent, then only the title and updatedAt change', async () => {
    const created = await createEventType(h, token, {
      description: 'keep me',
      bufferBeforeMinutes: 5,
      bookingWindowDays: 10,
      maxBookingsPerDay: 2,
      minimumNoticeMinutes: 60,
    });
    h.clock.set('2026-01-02T00:00:00Z');
    const res = await patch(created.id, { title: 'Renamed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...created, title: 'Renamed', updatedAt: '2026-01-02T00:00:00.000Z' });
    expect((await get(created.id)).json()).toEqual(res.json());
  });

  it('when an empty object is sent, then nothing but updatedAt changes', async () => {
    const created = await createEventType(h, token);
    const res = await patch(created.id, {});
    expect(res.statusCode).toBe(200);
    expect({ ...res.json<EventTypeBody>(), updatedAt: created.updatedAt }).toEqual(created);
  });

  it('when the duration changes and no interval was set, then slotIntervalMinutes follows the duration', async () => {
    const created = await createEventType(h, token, { durationMinutes: 30 });
    const res = await patch(created.id, { durationMinutes: 60 });
    expect(res.json<EventTypeBody>()).toMatchObject({ durationMinutes: 60, slotIntervalMinutes: 60 });
  });

  it('when an interval was set, then a duration change keeps it; and null makes it follow the duration again', async () => {
    const created = await createEventType(h, token, { durationMinutes: 30 });
    expect((await patch(created.id, { slotIntervalMinutes: 15 })).json()).toMatchObject({ slotIntervalMinutes: 15 });
    expect((await patch(created.id, { durationMinutes: 45 })).json()).toMatchObject({
      durationMinutes: 45,
      slotIntervalMinutes: 15,
    });
    expect((await patch(created.id, { slotIntervalMinutes: null })).json()).toMatchObject({
      durationMinutes: 45,
      slotIntervalMinutes: 45,
    });
    expect((await patch(created.id, { durationMinutes: 20 })).json()).toMatchObject({ slotIntervalMinutes: 20 });
  });

  it('when nullable fields are sent as null, then they reset to null', async () => {
    const created = await createEventType(h, token, { description: 'x', bookingWindowDays: 5, maxBookingsPerDay: 2 });
    const res = await patch(created.id, { description: null, bookingWindowDays: null, maxBookingsPerDay: null });
    expect(res.json<EventTypeBody>()).toMatchObject({
      description: null,
      bookingWindowDays: null,
      maxBookingsPerDay: null,
    });
  });

  it('when a field breaks a rule, then 400 with its entry and nothing changes', async () => {
    const created = await createEventType(h, token);
    expectInvalid(await patch(created.id, { durationMinutes: 33, title: '' }), ['durationMinutes', 'title']);
    expect((await get(created.id)).json()).toEqual(created);
  });

  it('when a non-nullable field is sent as null, then 400 on that field', async () => {
    const created = await createEventType(h, token);
    expectInvalidIncluding(await patch(created.id, { durationMinutes: null }), ['durationMinutes']);
  });

  it('when an unknown field is sent, then 400 naming it', async () => {
    const created = await createEventType(h, token);
    expectInvalid(await patch(created.id, { holderId: 'someone' }), ['holderId']);
  });

  it('when the slug is set to another event type’s slug, then 409 conflict; its own slug is fine', async () => {
    const a = await createEventType(h, token, { slug: 'alpha' });
    const b = await createEventType(h, token, { slug: 'beta' });
    expectProblem(await patch(b.id, { slug: 'alpha' }), 409, 'conflict');
    expect((await get(b.id)).json<EventTypeBody>().slug).toBe('beta');
    const same = await patch(a.id, { slug: 'alpha' });
    expect(same.statusCode).toBe(200);
    expect(same.json<EventTypeBody>().slug).toBe('alpha');
  });

  it('when the id is unknown, then 404 not-found', async () => {
    expectProblem(await patch('evt_unknown', { title: 'x' }), 404, 'not-found');
  });
});

describe('DELETE /api/v1/event-types/:id', () => {
  it('when deleted, then 204 with an empty body and a later GET is 404', async () => {
    const created = await createEventType(h, token);
    const res = await h.request({ method: 'DELETE', url: `/api/v1/event-types/${created.id}`, token });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectProblem(await get(created.id), 404, 'not-found');
    expectProblem(await patch(created.id, { title: 'x' }), 404, 'not-found');
    expectProblem(
      await h.request({ method: 'DELETE', url: `/api/v1/event-types/${created.id}`, token }),
      404,
      'not-found',
    );
  });

  it('when deleted, then it leaves the list', async () => {
    const keep = await createEventType(h, token, { title: 'Keep' });
    const gone = await createEventType(h, token, { title: 'Gone' });
    await h.request({ method: 'DELETE', url: `/api/v1/event-types/${gone.id}`, token });
    const list = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    expect(list.json<ListBody<EventTypeBody>>().data.map((e) => e.id)).toEqual([keep.id]);
  });

  it('when deleted, then its bookings stay readable but slots and new bookings for it are 400 on eventTypeId', async () => {
    const created = await createEventType(h, token);
    const booking = await book(h, token, created.id, '2026-01-05T09:00:00Z');
    expect((await h.request({ method: 'DELETE', url: `/api/v1/event-types/${created.id}`, token })).statusCode).toBe(
      204,
    );

    const read = await h.request({ method: 'GET', url: `/api/v1/bookings/${booking.id}`, token });
    expect(read.statusCode).toBe(200);
    expect(read.json<BookingBody>()).toMatchObject({ id: booking.id, eventTypeId: created.id, status: 'confirmed' });

    const slots = await h.request({
      method: 'GET',
      url: `/api/v1/slots?eventTypeId=${created.id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`,
      token,
    });
    expectInvalid(slots, ['eventTypeId']);

    const again = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(created.id, '2026-01-05T10:00:00Z'),
    });
    expectInvalid(again, ['eventTypeId']);
  });

  it('when deleted, then its slug can be used again', async () => {
    const created = await createEventType(h, token, { slug: 'reuse-me' });
    await h.request({ method: 'DELETE', url: `/api/v1/event-types/${created.id}`, token });
    const again = await createEventType(h, token, { slug: 'reuse-me' });
    expect(again.slug).toBe('reuse-me');
  });
});
