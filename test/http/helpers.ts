import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Settled } from '../../src/app/booking-batches.js';
import type { Harness } from '../support/harness.js';

/** 2026-01-05 is a Monday; the default availability is Mon–Fri 09:00–17:00 UTC. */
export const MONDAY = '2026-01-05';
export const BEFORE_MONDAY = '2026-01-01T00:00:00Z';

export const PROBLEM_CONTENT_TYPE = /^application\/problem\+json(;|$)/;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Array<{ field: string; message: string }>;
}

/** Asserts a problem document of the given status and type and returns it. */
export function expectProblem(res: LightMyRequestResponse, status: number, kind: string): ProblemBody {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
  const body = res.json<ProblemBody>();
  expect(body.type).toBe(`urn:service:problem:${kind}`);
  expect(body.status).toBe(status);
  expect(typeof body.title).toBe('string');
  expect(body.title.length).toBeGreaterThan(0);
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  expect(res.body).not.toMatch(/\n\s+at\s/);
  return body;
}

/** A 400 invalid-request whose `errors` name exactly `fields` (in any order) and nothing else. */
export function expectInvalid(res: LightMyRequestResponse, fields: string[]): ProblemBody {
  const body = expectProblem(res, 400, 'invalid-request');
  expect(body.title).toBe('Invalid request');
  expect(body.errors, res.body).toBeDefined();
  const named = (body.errors ?? []).map((e) => e.field);
  expect([...named].sort(), res.body).toEqual([...fields].sort());
  for (const e of body.errors ?? []) {
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
  }
  return body;
}

/** A 400 invalid-request with at least an entry for each of `fields`. */
export function expectInvalidIncluding(res: LightMyRequestResponse, fields: string[]): ProblemBody {
  const body = expectProblem(res, 400, 'invalid-request');
  const named = (body.errors ?? []).map((e) => e.field);
  for (const field of fields) expect(named, res.body).toContain(field);
  return body;
}

export interface EventTypeBody {
  id: string;
  title: string;
  slug: string;
  description: string | null;
  durationMinutes: number;
  slotIntervalMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minimumNoticeMinutes: number;
  bookingWindowDays: number | null;
  maxBookingsPerDay: number | null;
  seats: number | null;
  location: { type: string; value: string } | null;
  createdAt: string;
  updatedAt: string;
}

export interface BookingBody {
  id: string;
  eventTypeId: string;
  start: string;
  end: string;
  status: 'confirmed' | 'cancelled' | 'rescheduled';
  guestName: string;
  guestEmail: string;
  guestTimeZone: string | null;
  guestLanguage: 'en' | 'de';
  notes: string | null;
  cancellationReason: string | null;
  cancelledAt: string | null;
  rescheduledFromId: string | null;
  rescheduledToId: string | null;
  answers: Record<string, string | number | boolean | string[]>;
  metadata: Record<string, string>;
  source: 'api' | 'page';
  location: { type: string; value: string } | null;
  /** Only for keys with the write scope. */
  manageUrl?: string;
  icsUrl?: string;
  createdAt: string;
  updatedAt: string;
}

export interface SlotBody {
  start: string;
  end: string;
}

export interface ListBody<T> {
  data: T[];
  nextCursor: string | null;
}

export async function createEventType(
  h: Harness,
  token: string,
  fields: Record<string, unknown> = {},
): Promise<EventTypeBody> {
  const res = await h.request({
    method: 'POST',
    url: '/api/v1/event-types',
    token,
    json: { title: 'Intro call', durationMinutes: 30, ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<EventTypeBody>();
}

export function bookingInput(eventTypeId: string, start: string | number, extra: Record<string, unknown> = {}) {
  return { eventTypeId, start, guestName: 'Ada Lovelace', guestEmail: 'ada@example.com', ...extra };
}

export async function book(
  h: Harness,
  token: string,
  eventTypeId: string,
  start: string | number,
  extra: Record<string, unknown> = {},
): Promise<BookingBody> {
  const res = await h.request({
    method: 'POST',
    url: '/api/v1/bookings',
    token,
    json: bookingInput(eventTypeId, start, extra),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<BookingBody>();
}

export async function getSlots(h: Harness, token: string, query: Record<string, string>): Promise<SlotBody[]> {
  const res = await h.request({ method: 'GET', url: `/api/v1/slots?${new URLSearchParams(query).toString()}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: SlotBody[] }>().data;
}

export async function putAvailability(h: Harness, token: string, body: unknown): Promise<LightMyRequestResponse> {
  return h.request({ method: 'PUT', url: '/api/v1/availability', token, json: body });
}

/** Starts (UTC ISO) of every slot of one day, for compact comparisons. */
export function startsOf(slots: SlotBody[]): string[] {
  return slots.map((s) => s.start);
}

/** A webhook as the API answers with it (`secret` only when it is created). */
export interface WebhookBody {
  id: string;
  /** Null for an account webhook (contract §12). */
  holderId: string | null;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}

/** Replaces the holder's availability with the same `hours` Monday to Friday in `timeZone`. */
export async function putWeekdays(
  h: Harness,
  token: string,
  timeZone: string,
  hours: Array<{ start: string; end: string }>,
): Promise<void> {
  const res = await h.request({
    method: 'PUT',
    url: '/api/v1/availability',
    token,
    json: { timeZone, weekly: { monday: hours, tuesday: hours, wednesday: hours, thursday: hours, friday: hours } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * Makes the next `count` bookings sent at once be decided as the service decides those that
 * arrive while one is under way (`BookingBatches`): the first alone, the others together after
 * it. The first's transaction waits until all `count` have reached the batches, however the
 * requests interleave on their way there.
 */
export function decideAfterTheFirst(h: Harness, count: number): void {
  const { bookingBatches: batches, store } = h.context;
  const decide = batches.decide.bind(batches);
  const transaction = store.transaction;
  const transactionOfStore = transaction.bind(store);
  let allArrived!: () => void;
  const arrived = new Promise<void>((resolve) => (allArrived = resolve));
  let seen = 0;
  batches.decide = function <In, Out>(
    key: string,
    input: In,
    decideThem: (inputs: In[]) => Promise<Array<Settled<Out>>>,
  ): Promise<Out> {
    if (++seen === count) {
      batches.decide = decide;
      allArrived();
    }
    return decide(key, input, decideThem);
  };
  store.transaction = (work, scope) => {
    store.transaction = transaction;
    return arrived.then(() => transactionOfStore(work, scope));
  };
}
