import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  createEventType,
  expectInvalid,
  expectProblem,
  putAvailability,
  type BookingBody,
  type EventTypeBody,
  type ListBody,
} from './helpers.js';

let h: Harness;
let alice: string;
let bob: string;
let aliceType: EventTypeBody;
let aliceBooking: BookingBody;
let aliceWebhookId: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  alice = await h.key('alice');
  bob = await h.key('bob');
  aliceType = await createEventType(h, alice, { title: 'Alice call', slug: 'shared-slug' });
  aliceBooking = await book(h, alice, aliceType.id, '2026-01-05T09:00:00Z');
  const webhook = await h.request({
    method: 'POST',
    url: '/api/v1/webhooks',
    token: alice,
    json: { url: 'https://alice.example.com/hook' },
  });
  aliceWebhookId = webhook.json<{ id: string }>().id;
});

afterEach(async () => {
  await h.close();
});

async function aliceSnapshot() {
  const get = (url: string) => h.request({ method: 'GET', url, token: alice }).then((r) => r.json<unknown>());
  return {
    eventType: await get(`/api/v1/event-types/${aliceType.id}`),
    booking: await get(`/api/v1/bookings/${aliceBooking.id}`),
    webhooks: await get('/api/v1/webhooks'),
    availability: await get('/api/v1/availability'),
    bookings: await get('/api/v1/bookings?from=2026-01-01T00:00:00Z'),
  };
}

describe('tenant isolation', () => {
  it('when holder B touches A’s event type, booking or webhook by id, then every attempt is 404 and A’s data is unchanged', async () => {
    const before = await aliceSnapshot();
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/event-types/${aliceType.id}`],
      ['PATCH', `/api/v1/event-types/${aliceType.id}`, { title: 'Hijacked' }],
      ['DELETE', `/api/v1/event-types/${aliceType.id}`],
      ['GET', `/api/v1/bookings/${aliceBooking.id}`],
      ['POST', `/api/v1/bookings/${aliceBooking.id}/cancel`, { reason: 'mine now' }],
      ['POST', `/api/v1/bookings/${aliceBooking.id}/reschedule`, { start: '2026-01-05T10:00:00Z' }],
      ['DELETE', `/api/v1/webhooks/${aliceWebhookId}`],
    ];
    for (const [method, url, json] of attempts) {
      const res = await h.request({
        method: method as 'GET',
        url,
        token: bob,
        ...(json !== undefined ? { json } : {}),
      });
      const problem = expectProblem(res, 404, 'not-found');
      // The answer must not reveal whether the id exists for someone else.
      expect(problem.detail).not.toMatch(/alice|another|other holder|forbidden/i);
    }
    // Cancel without a body too.
    expectProblem(
      await h.request({ method: 'POST', url: `/api/v1/bookings/${aliceBooking.id}/cancel`, token: bob }),
      404,
      'not-found',
    );
    expect(await aliceSnapshot()).toEqual(before);
  });

  it('when B asks about an id that exists for A and one that exists for nobody, then the answers are identical apart from the id', async () => {
    const theirs = await h.request({ method: 'GET', url: `/api/v1/bookings/${aliceBooking.id}`, token: bob });
    const nobodys = await h.request({ method: 'GET', url: '/api/v1/bookings/bkg_00000000000000000000', token: bob });
    expect(theirs.statusCode).toBe(nobodys.statusCode);
    expect(theirs.body.replace(aliceBooking.id, 'ID')).toBe(nobodys.body.replace('bkg_00000000000000000000', 'ID'));
  });

  it('when B lists event types, bookings and webhooks, then none of A’s items appear', async () => {
    const bobType = await createEventType(h, bob, { title: 'Bob call' });
    const bobBooking = await book(h, bob, bobType.id, '2026-01-05T10:00:00Z');
    const list = async (url: string) =>
      (await h.request({ method: 'GET', url, token: bob })).json<ListBody<{ id: string }>>().data.map((x) => x.id);
    expect(await list('/api/v1/event-types')).toEqual([bobType.id]);
    expect(await list('/api/v1/bookings?from=2026-01-01T00:00:00Z')).toEqual([bobBooking.id]);
    expect(await list(`/api/v1/bookings?from=2026-01-01T00:00:00Z&eventTypeId=${aliceType.id}`)).toEqual([]);
    expect(await list('/api/v1/webhooks')).toEqual([]);
  });

  it('when B lists, reads or releases holds, then A’s holds are neither shown nor touched (404 by id)', async () => {
    const held = await h.request({
      method: 'POST',
      url: '/api/v1/holds',
      token: alice,
      json: { eventTypeId: aliceType.id, start: '2026-01-05T11:00:00Z' },
    });
    const holdId = held.json<{ id: string }>().id;
    const aliceHolds = () => h.request({ method: 'GET', url: '/api/v1/holds', token: alice }).then((r) => r.json());
    const before = await aliceHolds();
    expect((await h.request({ method: 'GET', url: '/api/v1/holds', token: bob })).json()).toEqual({
      data: [],
      nextCursor: null,
    });
    const filtered = await h.request({ method: 'GET', url: `/api/v1/holds?eventTypeId=${aliceType.id}`, token: bob });
    expect(filtered.json<ListBody<unknown>>().data).toEqual([]);
    for (const method of ['GET', 'DELETE'] as const) {
      const problem = expectProblem(
        await h.request({ method, url: `/api/v1/holds/${holdId}`, token: bob }),
        404,
        'not-found',
      );
      expect(problem.detail).not.toMatch(/alice|another|other holder|forbidden/i);
    }
    expect(await aliceHolds()).toEqual(before);
  });

  it('when B books at the time A is booked, then it succeeds: calendars are per holder', async () => {
    const bobType = await createEventType(h, bob);
    const bobBooking = await book(h, bob, bobType.id, aliceBooking.start);
    expect(bobBooking.start).toBe(aliceBooking.start);
  });

  it('when B uses A’s event type for slots or a booking, then 400 on eventTypeId', async () => {
    expectInvalid(
      await h.request({
        method: 'GET',
        url: `/api/v1/slots?eventTypeId=${aliceType.id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`,
        token: bob,
      }),
      ['eventTypeId'],
    );
    expectInvalid(
      await h.request({
        method: 'POST',
        url: '/api/v1/bookings',
        token: bob,
        json: { eventTypeId: aliceType.id, start: '2026-01-05T11:00:00Z', guestName: 'B', guestEmail: 'b@example.com' },
      }),
      ['eventTypeId'],
    );
  });

  it('when B replaces its availability, then A’s is untouched', async () => {
    const before = await aliceSnapshot();
    const res = await putAvailability(h, bob, { timeZone: 'Asia/Tokyo', weekly: {} });
    expect(res.statusCode).toBe(200);
    expect(await aliceSnapshot()).toEqual(before);
  });

  it('when B uses the same slug as A, then there is no conflict: slugs are unique per holder', async () => {
    const bobType = await createEventType(h, bob, { slug: 'shared-slug' });
    expect(bobType.slug).toBe('shared-slug');
  });
});
