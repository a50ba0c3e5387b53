// Issue 6: a slot query costs a constant number of store round trips, however long its range and
// however many bookings it covers (the engine gets everything it needs in one bounded read).
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/app/ports/store.js';
import { composeServer, type Server } from '../../src/server.js';
import { testStoreKind } from '../support/databases.js';
import { createHarness, type Harness } from '../support/harness.js';
import { book, createEventType, BEFORE_MONDAY } from './helpers.js';

let h: Harness;
let server: Server;
let counted: FastifyInstance;
let calls: string[];

/** The same store, with every call of a resource's method recorded as `resource.method`. */
function countingStore(store: Store): Store {
  const counting = { ...store, transaction: store.transaction.bind(store) } as Store;
  for (const resource of [
    'holders',
    'apiKeys',
    'eventTypes',
    'availability',
    'bookings',
    'webhooks',
    'deliveries',
  ] as const) {
    const target = store[resource];
    (counting as unknown as Record<string, unknown>)[resource] = new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(`${resource}.${String(property)}`);
          return (value as (...a: unknown[]) => unknown).apply(object, args);
        };
      },
    });
  }
  return counting;
}

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  calls = [];
  // A second server over the same database, its store counting calls (the change signal, read
  // from the SQLite connection's shared memory and not by a query, is no round trip).
  server = await composeServer({ ...h.storage, store: countingStore(h.store) }, h.settings);
  counted = server.app;
});

afterEach(async () => {
  await server.close();
  await h.close();
});

async function roundTripsOfSlots(token: string, eventTypeId: string, days: number, from = '2026-01-05T00:00:00Z') {
  calls = [];
  const to = new Date(Date.parse(from) + days * 86_400_000).toISOString();
  const res = await counted.inject({
    method: 'GET',
    url: `/api/v1/slots?eventTypeId=${eventTypeId}&from=${encodeURIComponent(from)}&to=${to}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return calls;
}

describe('store round trips of GET /slots', () => {
  it('when the range grows from 1 to 62 days and bookings accumulate, then the same few store calls answer it', async () => {
    const token = await h.key('alice');
    const et = await createEventType(h, token, { durationMinutes: 30 });
    const oneDay = await roundTripsOfSlots(token, et.id, 1);
    for (let week = 0; week < 8; week++) {
      await book(h, token, et.id, new Date(Date.parse('2026-01-05T09:00:00Z') + week * 7 * 86_400_000).toISOString());
    }
    // The bookings changed the calendar: it is loaded again, with the same calls as the first time.
    const sixtyTwoDays = await roundTripsOfSlots(token, et.id, 62);
    expect(sixtyTwoDays).toEqual(oneDay);
    // Authentication, the calendar version, then the calendar: availability (and its holder for
    // the default), event types, bookings.
    expect(sixtyTwoDays.length).toBeLessThanOrEqual(6);
  });

  it('when nothing changed since the last slot query of the holder, then at most the key (with the calendar version) is read for a 62-day range starting in the next days', async () => {
    const token = await h.key('alice');
    const et = await createEventType(h, token, { durationMinutes: 30 });
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await roundTripsOfSlots(token, et.id, 62);

    // SQLite tells that nothing at all was committed since the key was read, so not even that is
    // read again; PostgreSQL reads the key and its holder's calendar version in one query.
    const key = testStoreKind() === 'sqlite' ? [] : ['apiKeys.findByDigest'];
    for (const from of ['2026-01-05T00:00:00Z', '2026-01-06T07:30:00+01:00', '2026-01-07T00:00:00Z']) {
      expect(await roundTripsOfSlots(token, et.id, 62, from)).toEqual(key);
    }
    // Beyond what the cached calendar holds (70 days ahead), the range's bookings are read.
    expect(await roundTripsOfSlots(token, et.id, 62, '2026-03-01T00:00:00Z')).toEqual([
      ...key,
      'bookings.occupanciesOverlapping',
    ]);
  });

  it('when the server’s caches are reset, then the next slot query reads the key and the calendar again, as the first one did', async () => {
    const token = await h.key('alice');
    const et = await createEventType(h, token, { durationMinutes: 30 });
    const first = await roundTripsOfSlots(token, et.id, 62);
    expect(first).toContain('bookings.occupanciesOverlapping');
    expect(await roundTripsOfSlots(token, et.id, 62)).not.toContain('bookings.occupanciesOverlapping');

    server.resetCaches();
    expect(await roundTripsOfSlots(token, et.id, 62)).toEqual(first);
  });
});
