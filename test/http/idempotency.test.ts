// Contract §8 / issue 5: `Idempotency-Key` on every POST. Same key + same request within 24 h
// replays the stored answer (`Idempotent-Replayed: true`) with no second side effect; a different
// request under the key → 422; the key still in flight → 409; keys are scoped per API key;
// requests that fail validation (and 5xx answers) are not stored.
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Transaction } from '../../src/app/ports/store.js';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  bookingInput,
  createEventType,
  expectInvalid,
  expectProblem,
  type BookingBody,
  type EventTypeBody,
} from './helpers.js';

const HOUR = 3_600_000;
const SLOT = '2026-01-05T09:00:00Z';
const OTHER_SLOT = '2026-01-05T10:00:00Z';
const WEBHOOK_URL = 'https://hooks.example.com/in';

let h: Harness;
let token: string;
let et: EventTypeBody;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
  et = await createEventType(h, token, { durationMinutes: 30 });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

/** A POST with an Idempotency-Key (and a JSON body when `json` is given). */
function post(url: string, key: string | undefined, json?: unknown, as = token): Promise<LightMyRequestResponse> {
  return h.request({
    method: 'POST',
    url,
    token: as,
    ...(json === undefined ? {} : { json }),
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
}

/** The second answer is the first one replayed: same status, body, content type and Location, flagged as replayed. */
function expectReplay(first: LightMyRequestResponse, second: LightMyRequestResponse): void {
  expect(first.headers['idempotent-replayed']).toBeUndefined();
  expect(second.statusCode, second.body).toBe(first.statusCode);
  expect(second.body).toBe(first.body);
  expect(second.headers['idempotent-replayed']).toBe('true');
  expect(second.headers['content-type']).toBe(first.headers['content-type']);
  expect(second.headers.location).toBe(first.headers.location);
}

async function count(table: string): Promise<number> {
  return (await h.database.rows(table)).length;
}

async function registerWebhook(): Promise<string> {
  const res = await post('/api/v1/webhooks', undefined, { url: WEBHOOK_URL });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** Pauses the next store transaction (a use case's write) until `release()`; `entered` resolves when it started. */
function holdNextTransaction(): { entered: Promise<void>; release: () => void } {
  const original = h.store.transaction.bind(h.store);
  let release!: () => void;
  let markEntered!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const entered = new Promise<void>((resolve) => (markEntered = resolve));
  vi.spyOn(h.store, 'transaction').mockImplementationOnce((async (work: (tx: Transaction) => Promise<unknown>) => {
    markEntered();
    await gate;
    return original(work);
  }) as typeof h.store.transaction);
  return { entered, release };
}

describe('replay on every POST route', () => {
  it('when POST /event-types is repeated with the same key, then the 201 and Location are replayed and one event type exists', async () => {
    const body = { title: 'Demo', durationMinutes: 45 };
    const first = await post('/api/v1/event-types', 'et-1', body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers.location).toBe(`/api/v1/event-types/${first.json<EventTypeBody>().id}`);
    const second = await post('/api/v1/event-types', 'et-1', body);
    expectReplay(first, second);
    // The one from beforeEach, plus one.
    expect(await count('event_types')).toBe(2);
  });

  it('when POST /bookings is repeated with the same key, then the 201 is replayed, one booking row and one webhook event exist', async () => {
    await registerWebhook();
    const first = await post('/api/v1/bookings', 'bk-1', bookingInput(et.id, SLOT));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers.location).toBe(`/api/v1/bookings/${first.json<BookingBody>().id}`);
    const second = await post('/api/v1/bookings', 'bk-1', bookingInput(et.id, SLOT));
    expectReplay(first, second);
    const third = await post('/api/v1/bookings', 'bk-1', bookingInput(et.id, SLOT));
    expectReplay(first, third);
    expect(await count('bookings')).toBe(1);
    expect((await h.database.rows('webhook_events')).map((r) => r.type)).toEqual(['booking.created']);
    expect(await count('webhook_deliveries')).toBe(1);
  });

  it('when POST /holds is repeated with the same key, then the 201 and Location are replayed and one hold exists (not a 409 for its own time)', async () => {
    const body = { eventTypeId: et.id, start: SLOT };
    const first = await post('/api/v1/holds', 'hd-1', body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers.location).toBe(`/api/v1/holds/${first.json<{ id: string }>().id}`);
    expectReplay(first, await post('/api/v1/holds', 'hd-1', body));
    expect((await h.database.rows('bookings')).map((r) => r.status)).toEqual(['held']);
  });

  it('when POST /bookings/:id/cancel is repeated with the same key, then the 200 is replayed (not 409 invalid-state) and one cancel event exists', async () => {
    await registerWebhook();
    const booking = await book(h, token, et.id, SLOT);
    const first = await post(`/api/v1/bookings/${booking.id}/cancel`, 'cx-1', { reason: 'ill' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<BookingBody>().status).toBe('cancelled');
    const second = await post(`/api/v1/bookings/${booking.id}/cancel`, 'cx-1', { reason: 'ill' });
    expectReplay(first, second);
    const types = (await h.database.rows('webhook_events')).map((r) => r.type).sort();
    expect(types).toEqual(['booking.cancelled', 'booking.created']);
  });

  it('when POST /bookings/:id/cancel with no body is repeated with the same key, then it is replayed', async () => {
    const booking = await book(h, token, et.id, SLOT);
    const first = await post(`/api/v1/bookings/${booking.id}/cancel`, 'cx-empty');
    expect(first.statusCode, first.body).toBe(200);
    const second = await post(`/api/v1/bookings/${booking.id}/cancel`, 'cx-empty');
    expectReplay(first, second);
  });

  it('when POST /bookings/:id/reschedule is repeated with the same key, then the 201 and Location are replayed and only one new booking exists', async () => {
    await registerWebhook();
    const booking = await book(h, token, et.id, SLOT);
    const first = await post(`/api/v1/bookings/${booking.id}/reschedule`, 'rs-1', { start: OTHER_SLOT });
    expect(first.statusCode, first.body).toBe(201);
    const moved = first.json<BookingBody>();
    expect(first.headers.location).toBe(`/api/v1/bookings/${moved.id}`);
    const second = await post(`/api/v1/bookings/${booking.id}/reschedule`, 'rs-1', { start: OTHER_SLOT });
    expectReplay(first, second);
    const rows = await h.database.rows('bookings');
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.status).sort()).toEqual(['confirmed', 'rescheduled']);
    const types = (await h.database.rows('webhook_events')).map((r) => r.type).sort();
    expect(types).toEqual(['booking.created', 'booking.rescheduled']);
  });

  it('when POST /webhooks is repeated with the same key, then the 201 (with the same secret) is replayed and one webhook exists', async () => {
    const body = { url: WEBHOOK_URL, description: 'CRM' };
    const first = await post('/api/v1/webhooks', 'wh-1', body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<{ secret: string }>().secret).toMatch(/^whsec_/);
    expect(first.headers.location).toBe(`/api/v1/webhooks/${first.json<{ id: string }>().id}`);
    const second = await post('/api/v1/webhooks', 'wh-1', body);
    expectReplay(first, second);
    expect(await count('webhooks')).toBe(1);
  });

  it('when POST /webhooks/:id/test is repeated with the same key, then the 202 is replayed and one test event and delivery exist', async () => {
    const webhookId = await registerWebhook();
    const first = await post(`/api/v1/webhooks/${webhookId}/test`, 'wt-1');
    expect(first.statusCode, first.body).toBe(202);
    const second = await post(`/api/v1/webhooks/${webhookId}/test`, 'wt-1');
    expectReplay(first, second);
    expect((await h.database.rows('webhook_events')).map((r) => r.type)).toEqual(['webhook.test']);
    expect(await count('webhook_deliveries')).toBe(1);
  });

  it('when POST /webhooks/:id/deliveries/:id/retry is repeated with the same key, then the 202 is replayed (not 409 for a pending delivery)', async () => {
    const webhookId = await registerWebhook();
    const sent = await post(`/api/v1/webhooks/${webhookId}/test`, undefined);
    const deliveryId = sent.json<{ id: string }>().id;
    // The worker's part, straight on the store: one failed attempt, and the delivery gives up.
    const now = h.clock.now();
    const [job] = await h.storage.deliveryQueue.claimDue({
      now,
      leaseUntil: now + 60_000,
      limit: 10,
      perWebhook: 10,
      perHolder: 100,
      perAccount: 100,
      skipWebhookIds: [],
      skipOwnerIds: [],
      skipAccountIds: [],
    });
    expect(job?.deliveryId).toBe(deliveryId);
    await h.storage.deliveryQueue.recordAttempt(
      deliveryId,
      { attempt: 1, startedAt: now, durationMs: 5, statusCode: 500, error: null, responseExcerpt: 'down' },
      { status: 'failed', disableWebhook: false },
      now,
    );
    const url = `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/retry`;
    const first = await post(url, 'rt-1');
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json<{ status: string }>().status).toBe('pending');
    const second = await post(url, 'rt-1');
    expectReplay(first, second);
    // Without the key, a second retry of the (now pending) delivery really runs and is refused.
    expectProblem(await post(url, undefined), 409, 'invalid-state');
  });
});

describe('a different request under the same key', () => {
  it('when the same body comes with its fields in another order, then it is the same request and is replayed', async () => {
    const first = await post('/api/v1/event-types', 'order-1', {
      title: 'Demo',
      durationMinutes: 45,
      bufferAfterMinutes: 5,
    });
    const second = await post('/api/v1/event-types', 'order-1', {
      bufferAfterMinutes: 5,
      durationMinutes: 45,
      title: 'Demo',
    });
    expectReplay(first, second);
    expect(await count('event_types')).toBe(2);
  });

  it('when the same key comes with a different body, then 422 idempotency-key-reused and nothing is written', async () => {
    const first = await post('/api/v1/bookings', 'k', bookingInput(et.id, SLOT));
    expect(first.statusCode, first.body).toBe(201);
    const res = await post('/api/v1/bookings', 'k', bookingInput(et.id, OTHER_SLOT));
    expectProblem(res, 422, 'idempotency-key-reused');
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('bookings')).toBe(1);
  });

  it('when the same key comes on a different route, then 422 idempotency-key-reused and nothing is written', async () => {
    const first = await post('/api/v1/event-types', 'k', { title: 'Demo', durationMinutes: 30 });
    expect(first.statusCode, first.body).toBe(201);
    expectProblem(await post('/api/v1/webhooks', 'k', { url: WEBHOOK_URL }), 422, 'idempotency-key-reused');
    expect(await count('webhooks')).toBe(0);
  });

  it('when the same key cancels a different booking, then 422 and the second booking stays confirmed', async () => {
    const a = await book(h, token, et.id, SLOT);
    const b = await book(h, token, et.id, OTHER_SLOT);
    expect((await post(`/api/v1/bookings/${a.id}/cancel`, 'k', {})).statusCode).toBe(200);
    expectProblem(await post(`/api/v1/bookings/${b.id}/cancel`, 'k', {}), 422, 'idempotency-key-reused');
    const fetched = await h.request({ method: 'GET', url: `/api/v1/bookings/${b.id}`, token });
    expect(fetched.json<BookingBody>().status).toBe('confirmed');
  });
});

describe('in flight', () => {
  it('when the same key arrives while the first request still runs, then 409 idempotency-conflict; afterwards it is replayed', async () => {
    const held = holdNextTransaction();
    const firstPromise = post('/api/v1/bookings', 'slow', bookingInput(et.id, SLOT));
    await held.entered;
    const during = await post('/api/v1/bookings', 'slow', bookingInput(et.id, SLOT));
    expectProblem(during, 409, 'idempotency-conflict');
    expect(during.headers['idempotent-replayed']).toBeUndefined();
    held.release();
    const first = await firstPromise;
    expect(first.statusCode, first.body).toBe(201);
    expectReplay(first, await post('/api/v1/bookings', 'slow', bookingInput(et.id, SLOT)));
    expect(await count('bookings')).toBe(1);
  });

  it('when a claim for the key was left in flight over a minute ago (its process died), then the request takes it over and runs', async () => {
    const me = (await h.request({ method: 'GET', url: '/api/v1/me', token })).json<{ key: { id: string } }>();
    const at = h.clock.now() - 2 * 60_000;
    const outcome = await h.storage.idempotencyLedger.claim({
      requester: me.key.id,
      key: 'orphan',
      requestHash: 'hash-of-a-request-that-never-finished',
      now: at,
      expiresAt: at + 24 * HOUR,
      staleBefore: at - 60_000,
    });
    expect(outcome.kind).toBe('started');
    const res = await post('/api/v1/bookings', 'orphan', bookingInput(et.id, SLOT));
    expect(res.statusCode, res.body).toBe(201);
    expect(await count('bookings')).toBe(1);
  });

  it('when a claim for the key was just made by another request, then the request does not run', async () => {
    const me = (await h.request({ method: 'GET', url: '/api/v1/me', token })).json<{ key: { id: string } }>();
    const at = h.clock.now();
    await h.storage.idempotencyLedger.claim({
      requester: me.key.id,
      key: 'busy',
      requestHash: 'hash-of-another-request',
      now: at,
      expiresAt: at + 24 * HOUR,
      staleBefore: at - 60_000,
    });
    const res = await post('/api/v1/bookings', 'busy', bookingInput(et.id, SLOT));
    // In flight with a different request: either answer keeps the booking from being made twice.
    expect([409, 422]).toContain(res.statusCode);
    expect(res.json<{ type: string }>().type).toMatch(/^urn:service:problem:idempotency-(conflict|key-reused)$/);
    expect(await count('bookings')).toBe(0);
  });
});

describe('scope and storage rules', () => {
  it('when two API keys of one holder send the same Idempotency-Key, then both requests run', async () => {
    const second = await h.key('alice');
    const body = { title: 'Shared key', durationMinutes: 30 };
    const a = await post('/api/v1/event-types', 'same', body, token);
    const b = await post('/api/v1/event-types', 'same', body, second);
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode, b.body).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json<EventTypeBody>().id).not.toBe(a.json<EventTypeBody>().id);
    expect(await count('event_types')).toBe(3);
  });

  it('when two holders send the same Idempotency-Key, then each gets its own result', async () => {
    const bob = await h.key('bob');
    const bobEt = await createEventType(h, bob, { durationMinutes: 30 });
    const a = await post('/api/v1/bookings', 'same', bookingInput(et.id, SLOT), token);
    const b = await post('/api/v1/bookings', 'same', bookingInput(bobEt.id, SLOT), bob);
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json<BookingBody>().eventTypeId).toBe(bobEt.id);
    expect(await count('bookings')).toBe(2);
  });

  it('when a request fails schema validation (400), then it is not stored: the fixed body with the same key runs', async () => {
    const bad = await post('/api/v1/bookings', 'fix-me', { ...bookingInput(et.id, SLOT), guestEmail: 42 });
    expectInvalid(bad, ['guestEmail']);
    const fixed = await post('/api/v1/bookings', 'fix-me', bookingInput(et.id, SLOT));
    expect(fixed.statusCode, fixed.body).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('bookings')).toBe(1);
  });

  it('when a request fails validation of its content (400 for an unknown eventTypeId), then it is not stored: the fixed body with the same key runs', async () => {
    const bad = await post('/api/v1/bookings', 'fix-me-too', bookingInput('evt_doesnotexist', SLOT));
    expectProblem(bad, 400, 'invalid-request');
    const fixed = await post('/api/v1/bookings', 'fix-me-too', bookingInput(et.id, SLOT));
    expect(fixed.statusCode, fixed.body).toBe(201);
    expect(await count('bookings')).toBe(1);
  });

  it('when a booking is refused with 409 slot-unavailable, then that answer is stored and replayed even after the slot frees up', async () => {
    const taken = await book(h, token, et.id, SLOT);
    const refused = await post('/api/v1/bookings', 'late', bookingInput(et.id, SLOT, { guestName: 'Grace' }));
    expectProblem(refused, 409, 'slot-unavailable');
    expect((await post(`/api/v1/bookings/${taken.id}/cancel`, undefined, {})).statusCode).toBe(200);
    const again = await post('/api/v1/bookings', 'late', bookingInput(et.id, SLOT, { guestName: 'Grace' }));
    expectReplay(refused, again);
    expect(await count('bookings')).toBe(1);
    // A new key runs the request for real, and now the slot is free.
    expect(
      (await post('/api/v1/bookings', 'late-2', bookingInput(et.id, SLOT, { guestName: 'Grace' }))).statusCode,
    ).toBe(201);
  });

  it('when 24 hours have passed, then the key is forgotten and the same request runs again; just before, it is replayed', async () => {
    const body = { title: 'Daily', durationMinutes: 30 };
    const first = await post('/api/v1/event-types', 'daily', body);
    expect(first.statusCode, first.body).toBe(201);
    const start = h.clock.now();
    h.clock.set(start + 24 * HOUR - 60_000);
    expectReplay(first, await post('/api/v1/event-types', 'daily', body));
    h.clock.set(start + 24 * HOUR + 1_000);
    const later = await post('/api/v1/event-types', 'daily', body);
    expect(later.statusCode, later.body).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json<EventTypeBody>().id).not.toBe(first.json<EventTypeBody>().id);
    expect(await count('event_types')).toBe(3);
  });

  it('when the request fails on the server (500), then it is not stored: the same key runs again', async () => {
    vi.spyOn(h.store, 'transaction').mockRejectedValueOnce(new Error('disk on fire'));
    const failed = await post('/api/v1/bookings', 'retry-me', bookingInput(et.id, SLOT));
    expectProblem(failed, 500, 'internal');
    expect(failed.body).not.toContain('disk on fire');
    expect(await count('idempotency_keys')).toBe(0);
    const retried = await post('/api/v1/bookings', 'retry-me', bookingInput(et.id, SLOT));
    expect(retried.statusCode, retried.body).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('bookings')).toBe(1);
  });

  it('when no Idempotency-Key is sent, then repeating a POST runs it twice', async () => {
    const body = { title: 'Twice', durationMinutes: 30 };
    expect((await post('/api/v1/event-types', undefined, body)).statusCode).toBe(201);
    const again = await post('/api/v1/event-types', undefined, body);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('event_types')).toBe(3);
  });
});

describe('the Idempotency-Key header itself', () => {
  it.each([
    ['empty', ''],
    ['over 255 characters', 'k'.repeat(256)],
    ['non-ASCII', 'clé-1'],
    ['containing a space', 'two words'],
  ])('when the key is %s, then 400 on field Idempotency-Key and nothing is written', async (_name, key) => {
    const res = await post('/api/v1/bookings', key, bookingInput(et.id, SLOT));
    expectInvalid(res, ['Idempotency-Key']);
    expect(await count('bookings')).toBe(0);
  });

  it('when the key is exactly 255 visible ASCII characters (a UUID-like shape too), then it is accepted', async () => {
    const long = 'k'.repeat(255);
    expect((await post('/api/v1/bookings', long, bookingInput(et.id, SLOT))).statusCode).toBe(201);
    expect((await post('/api/v1/bookings', long, bookingInput(et.id, SLOT))).headers['idempotent-replayed']).toBe(
      'true',
    );
    const uuid = '3f1c2a8e-5b7d-4c9e-8f0a-1b2c3d4e5f60';
    expect((await post('/api/v1/bookings', uuid, bookingInput(et.id, OTHER_SLOT))).statusCode).toBe(201);
  });

  it('when a GET carries the header (even an invalid one), then it is ignored: nothing is replayed or refused', async () => {
    const get = (key: string) =>
      h.request({
        method: 'GET',
        url: '/api/v1/bookings?from=2026-01-05T00:00:00Z',
        token,
        headers: { 'idempotency-key': key },
      });
    const before = await get('read-1');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json<{ data: unknown[] }>().data).toHaveLength(0);
    await book(h, token, et.id, SLOT);
    const after = await get('read-1');
    expect(after.statusCode).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.json<{ data: unknown[] }>().data).toHaveLength(1);
    expect((await get('')).statusCode).toBe(200);
    expect(await count('idempotency_keys')).toBe(0);
  });

  it('when a request without a valid API key carries the header, then 401 and nothing is stored', async () => {
    const res = await post('/api/v1/bookings', 'anon', bookingInput(et.id, SLOT), 'sw_not-a-real-key');
    expectProblem(res, 401, 'unauthorized');
    expect(await count('idempotency_keys')).toBe(0);
  });
});
