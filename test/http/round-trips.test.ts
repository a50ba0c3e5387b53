// Issue 6: a slot query costs a constant number of store round trips, however long its range and
// however many bookings it covers (the engine gets everything it needs in one bounded read).
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/app/ports/store.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { digestOf } from '../../src/app/key-cache.js';
import { HOLDER_HEADER } from '../../src/http/auth.js';
import { composeServer, type Server } from '../../src/server.js';
import { openStorage, parseDatabaseUrl } from '../../src/storage/open-storage.js';
import { testStoreKind } from '../support/databases.js';
import { DEFAULT_CHANGE_POLL_TIMING } from '../../src/storage/postgres-change-poll.js';
import { createHarness, type Harness } from '../support/harness.js';
import { eventTypeRecord, newHolder, newId } from '../storage/records.js';
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
    'teamEventTypes',
    'schedules',
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
  // What is read while the process hears others' commits, not how long an answer is trusted (that
  // is test/storage/change-signal.test.ts's): a test machine under load can keep this process off
  // the CPU for longer than the production trust of 500 ms, after which everything is read.
  h = await createHarness({ now: BEFORE_MONDAY, changePoll: { ...DEFAULT_CHANGE_POLL_TIMING, trustMs: 30_000 } });
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

/** Waits until the storage hears other processes' commits (PostgreSQL: its change poll has answered). */
async function hearingChanges(): Promise<void> {
  await expect.poll(() => h.storage.changes.mark(), { timeout: 5_000, interval: 5 }).not.toBeNull();
}

/**
 * Waits until this process's own commits so far have come back through its change poll as well
 * (PostgreSQL: a key read before then is read once more after).
 */
async function ownCommitsHeard(): Promise<void> {
  await h.storage.changesHeard();
}

/** Who sends a request: a key (as a bearer token), or an account key acting for one of its holders. */
type Sender = string | { token: string; holderId: string };

function headersOf(sender: Sender): Record<string, string> {
  return typeof sender === 'string'
    ? { authorization: `Bearer ${sender}` }
    : { authorization: `Bearer ${sender.token}`, [HOLDER_HEADER]: sender.holderId };
}

/** Books through a second storage and server over the same database: another process, as far as `server` can tell. */
async function bookElsewhere(sender: Sender, eventTypeId: string, start: string): Promise<void> {
  const storage = await openStorage(parseDatabaseUrl(h.database.databaseUrl), {
    poolSize: 1,
    statementTimeoutMs: 5_000,
  });
  const other = await composeServer(storage, h.settings);
  try {
    const res = await other.app.inject({
      method: 'POST',
      url: '/api/v1/bookings',
      headers: headersOf(sender),
      payload: { eventTypeId, start, guestName: 'Gus', guestEmail: 'gus@example.com' },
    });
    expect(res.statusCode, res.body).toBe(201);
  } finally {
    await other.close();
    await storage.close();
  }
}

/** The store calls a GET of `url` on the counting server makes. */
async function roundTripsOf(sender: Sender, url: string) {
  calls = [];
  const res = await counted.inject({ method: 'GET', url, headers: headersOf(sender) });
  expect(res.statusCode, res.body).toBe(200);
  return calls;
}

function roundTripsOfSlots(sender: Sender, eventTypeId: string, days: number, from = '2026-01-05T00:00:00Z') {
  const to = new Date(Date.parse(from) + days * 86_400_000).toISOString();
  return roundTripsOf(sender, `/api/v1/slots?eventTypeId=${eventTypeId}&from=${encodeURIComponent(from)}&to=${to}`);
}

/** Alice and Bob, each with an event type; Alice's slot query warm (it makes no round trip). */
async function aliceWarmNextToBob() {
  const alice = await h.key('alice');
  const bob = await h.key('bob');
  const aliceType = await createEventType(h, alice, { durationMinutes: 30 });
  const bobType = await createEventType(h, bob, { durationMinutes: 30 });
  await hearingChanges();
  await ownCommitsHeard();
  await roundTripsOfSlots(alice, aliceType.id, 62);
  expect(await roundTripsOfSlots(alice, aliceType.id, 62)).toEqual([]);
  return { alice, bob, aliceType, bobType };
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

  it('when nothing changed since the last slot query of the holder, then a 62-day range starting in the next days makes no database round trip at all', async () => {
    const token = await h.key('alice');
    const et = await createEventType(h, token, { durationMinutes: 30 });
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await roundTripsOfSlots(token, et.id, 62);
    // PostgreSQL: once the change poll answers (it starts with the first request), the key read
    // after that is reused until a commit concerns its holder. SQLite: `data_version` says so.
    await hearingChanges();
    await ownCommitsHeard();
    await roundTripsOfSlots(token, et.id, 62);

    const sentBefore = h.storage.queriesSent();
    for (const from of ['2026-01-05T00:00:00Z', '2026-01-06T07:30:00+01:00', '2026-01-07T00:00:00Z']) {
      expect(await roundTripsOfSlots(token, et.id, 62, from)).toEqual([]);
    }
    expect(h.storage.queriesSent()).toBe(sentBefore);
    // Beyond what the cached calendar holds (70 days ahead), the range's bookings are read.
    expect(await roundTripsOfSlots(token, et.id, 62, '2026-03-01T00:00:00Z')).toEqual([
      'bookings.occupanciesOverlappingOf',
    ]);
    expect(h.storage.queriesSent()).toBeGreaterThan(sentBefore);
  });

  it('when this process commits another holder’s booking, or only what no cache keeps (idempotency keys, rate-limit counts, webhook deliveries), then a warm slot query still makes no round trip', async () => {
    const { alice, bob, aliceType, bobType } = await aliceWarmNextToBob();

    // Bob's booking, made by this process, with an Idempotency-Key (its claim and its completion
    // are transactions of their own).
    const booked = await counted.inject({
      method: 'POST',
      url: '/api/v1/bookings',
      headers: { authorization: `Bearer ${bob}`, 'idempotency-key': 'bob-first-booking' },
      payload: {
        eventTypeId: bobType.id,
        start: '2026-01-05T09:00:00Z',
        guestName: 'Gus',
        guestEmail: 'gus@example.com',
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const bobKey = (await h.store.apiKeys.findByDigest(digestOf(bob)))!;
    await h.storage.requestCounts.add(bobKey.id, Date.parse('2026-01-05T09:00:00Z'), 16);
    await h.storage.deliveryQueue.claimDue({
      now: Date.now(),
      leaseUntil: Date.now() + 60_000,
      limit: 10,
      perWebhook: 4,
      perHolder: 16,
      perAccount: 100,
      skipWebhookIds: [],
      skipOwnerIds: [],
      skipAccountIds: [],
    });
    await ownCommitsHeard();
    expect(await roundTripsOfSlots(alice, aliceType.id, 62)).toEqual([]);

    // Alice's own booking is seen by her next query at once.
    await book(h, alice, aliceType.id, '2026-01-05T10:00:00Z');
    expect(await roundTripsOfSlots(alice, aliceType.id, 62)).toContain('bookings.occupanciesOverlappingOf');
  });

  it('when another holder books, then this holder’s warm slot queries still make no round trip; when this holder books, the next one reads again', async () => {
    const { alice, bob, aliceType, bobType } = await aliceWarmNextToBob();

    // Through another process over the same database: the change reaches this one as a change
    // naming bob (PostgreSQL's change poll), or as "something changed" (SQLite's data_version).
    const bobId = (await h.store.apiKeys.findByDigest(digestOf(bob)))!.holderId!;
    const beforeBob = h.storage.changes.mark()!;
    await bookElsewhere(bob, bobType.id, '2026-01-05T09:00:00Z');
    await expect
      .poll(() => h.storage.changes.unchangedSince(beforeBob, bobId), { timeout: 1_000, interval: 5 })
      .toBe(false);
    const afterBob = await roundTripsOfSlots(alice, aliceType.id, 62);
    expect(afterBob).toEqual(testStoreKind() === 'postgres' ? [] : ['apiKeys.findByDigest']);

    await bookElsewhere(alice, aliceType.id, '2026-01-05T10:00:00Z');
    await expect
      .poll(() => roundTripsOfSlots(alice, aliceType.id, 62), { timeout: 1_000, interval: 5 })
      .toContain('bookings.occupanciesOverlappingOf');
  });

  it('when bookings are made, then each sends the same few statements, however many bookings the holder has', async () => {
    const token = await h.key('alice');
    const et = await createEventType(h, token, { durationMinutes: 30 });
    const sent: number[] = [];
    for (let day = 0; day < 5; day++) {
      for (const hour of ['09', '10', '11']) {
        const before = h.storage.queriesSent();
        await book(h, token, et.id, `2026-01-0${5 + day}T${hour}:00:00Z`);
        sent.push(h.storage.queriesSent() - before);
      }
    }
    // PostgreSQL: the key (read again after every commit of this process), begin, the decision's
    // rules (the event type, the availability, the holder's creation, the calendar sources
    // share-locked, the active webhooks: one statement), the bookings around the start, the
    // booking's row with its occupancy (one statement), commit. SQLite: the same, the row and its
    // occupancy two statements, within a savepoint of a group commit (savepoint, release).
    expect(new Set(sent)).toEqual(new Set([testStoreKind() === 'postgres' ? 6 : 9]));
  });

  it('when the server’s caches are reset, then the next slot query reads the key and the calendar again, as the first one did', async () => {
    const token = await h.key('alice');
    const et = await createEventType(h, token, { durationMinutes: 30 });
    const first = await roundTripsOfSlots(token, et.id, 62);
    expect(first).toContain('bookings.occupanciesOverlappingOf');
    expect(await roundTripsOfSlots(token, et.id, 62)).not.toContain('bookings.occupanciesOverlappingOf');

    server.resetCaches();
    expect(await roundTripsOfSlots(token, et.id, 62)).toEqual(first);
  });
});

/** An account key of `account` acting for each of `holderNames` (holders of that account made on first use), each with an event type. */
async function actingFor(account: string, holderNames: string[]) {
  const { token } = await createApiKey(h.context, {
    accountName: account,
    holderName: null,
    scopes: ['read', 'write'],
    expiresAt: null,
  });
  const holders: Array<{ acting: { token: string; holderId: string }; eventTypeId: string }> = [];
  for (const holderName of holderNames) {
    // As `keys create --account ACCOUNT --holder NAME` makes the holder (its key is not used).
    const { key } = await createApiKey(h.context, {
      accountName: account,
      holderName,
      scopes: ['read'],
      expiresAt: null,
    });
    const acting = { token, holderId: key.holderId! };
    const created = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      headers: { [HOLDER_HEADER]: acting.holderId },
      json: { title: 'Intro call', durationMinutes: 30 },
    });
    expect(created.statusCode, created.body).toBe(201);
    holders.push({ acting, eventTypeId: created.json<{ id: string }>().id });
  }
  return holders;
}

/**
 * Queries until one makes no round trip: the key (and holder) and the calendar are cached and
 * current. On a loaded machine this process's own commits may come back through PostgreSQL's
 * change poll later than `ownCommitsHeard` waits.
 */
async function warmedUp(sender: Sender, eventTypeId: string): Promise<void> {
  await expect.poll(() => roundTripsOfSlots(sender, eventTypeId, 62), { timeout: 5_000, interval: 20 }).toEqual([]);
}

async function bookActing(acting: { token: string; holderId: string }, eventTypeId: string, start: string) {
  const res = await h.request({
    method: 'POST',
    url: '/api/v1/bookings',
    token: acting.token,
    headers: { [HOLDER_HEADER]: acting.holderId },
    json: { eventTypeId, start, guestName: 'Gus', guestEmail: 'gus@example.com' },
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe('store round trips of an account key acting for a holder (Slotwise-Holder)', () => {
  it('when nothing changed, then its slot queries make no database round trip and GET /event-types only the list’s own read, as with the holder’s own key', async () => {
    const [ada] = await actingFor('acme', ['ada']);
    const { token: adaKey } = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: 'ada',
      scopes: ['read'],
      expiresAt: null,
    });
    await bookActing(ada!.acting, ada!.eventTypeId, '2026-01-05T09:00:00Z');
    await hearingChanges();
    await ownCommitsHeard();
    for (const sender of [ada!.acting, adaKey]) await warmedUp(sender, ada!.eventTypeId);

    const sentBefore = h.storage.queriesSent();
    for (const from of ['2026-01-05T00:00:00Z', '2026-01-06T07:30:00+01:00', '2026-01-07T00:00:00Z']) {
      expect(await roundTripsOfSlots(ada!.acting, ada!.eventTypeId, 62, from)).toEqual([]);
    }
    expect(h.storage.queriesSent()).toBe(sentBefore);
    const listedByHolderKey = await roundTripsOf(adaKey, '/api/v1/event-types');
    expect(listedByHolderKey).toEqual(['eventTypes.list']);
    expect(await roundTripsOf(ada!.acting, '/api/v1/event-types')).toEqual(listedByHolderKey);
  });

  it('when this process books for holder X, then a warm slot query acting for holder Y of the same account makes no round trip, and the next one acting for X reads X and its calendar again', async () => {
    const [x, y] = await actingFor('acme', ['xena', 'yuri']);
    await hearingChanges();
    await ownCommitsHeard();
    for (const holder of [x!, y!]) {
      await warmedUp(holder.acting, holder.eventTypeId);
    }

    await bookActing(x!.acting, x!.eventTypeId, '2026-01-05T09:00:00Z');
    await ownCommitsHeard();
    expect(await roundTripsOfSlots(y!.acting, y!.eventTypeId, 62)).toEqual([]);
    const afterX = await roundTripsOfSlots(x!.acting, x!.eventTypeId, 62);
    expect(afterX).toContain('holders.acting');
    expect(afterX).toContain('bookings.occupanciesOverlappingOf');
    // The account key concerns the account, which a holder's booking leaves unchanged.
    expect(afterX).not.toContain('apiKeys.findByDigest');
    expect(await roundTripsOfSlots(x!.acting, x!.eventTypeId, 62)).toEqual([]);
  });

  it('when another process books for holder X, then a warm slot query acting for holder Y reads no calendar (PostgreSQL: nothing at all), and one acting for X sees the booking within a second', async () => {
    const [x, y] = await actingFor('acme', ['xena', 'yuri']);
    await hearingChanges();
    await ownCommitsHeard();
    await warmedUp(y!.acting, y!.eventTypeId);

    const beforeX = h.storage.changes.mark()!;
    await bookElsewhere(x!.acting, x!.eventTypeId, '2026-01-05T09:00:00Z');
    await expect
      .poll(() => h.storage.changes.unchangedSince(beforeX, x!.acting.holderId), { timeout: 1_000, interval: 5 })
      .toBe(false);
    // SQLite hears only that another process committed something: the key and the holder are
    // read again (one statement each), their calendar version unchanged, so no calendar is loaded.
    expect(await roundTripsOfSlots(y!.acting, y!.eventTypeId, 62)).toEqual(
      testStoreKind() === 'postgres' ? [] : ['apiKeys.findByDigest', 'holders.acting'],
    );

    await bookElsewhere(x!.acting, x!.eventTypeId, '2026-01-05T10:00:00Z');
    await expect
      .poll(() => roundTripsOfSlots(x!.acting, x!.eventTypeId, 62), { timeout: 1_000, interval: 5 })
      .toContain('bookings.occupanciesOverlappingOf');
  });

  it('when the calendar-sync worker looks for due sources (once a second), then warm slot queries of a holder key and of an account key acting for a holder still make no round trip', async () => {
    const [ada] = await actingFor('acme', ['ada']);
    const bob = await h.key('bob');
    const bobType = await createEventType(h, bob, { durationMinutes: 30 });
    await hearingChanges();
    await ownCommitsHeard();
    for (const [sender, eventTypeId] of [
      [ada!.acting, ada!.eventTypeId],
      [bob, bobType.id],
    ] as const) {
      await warmedUp(sender, eventTypeId);
    }

    await server.calendarSync.poll();
    expect(await roundTripsOfSlots(ada!.acting, ada!.eventTypeId, 62)).toEqual([]);
    expect(await roundTripsOfSlots(bob, bobType.id, 62)).toEqual([]);
  });

  it('when one account key acts for 100 holders in turn, then once each was read, another round over all of them makes no database round trip', async () => {
    const { token } = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: null,
      scopes: ['read'],
      expiresAt: null,
    });
    const holders = await h.store.transaction(async (tx) => {
      const account = await tx.accounts.ensure({ id: newId('acc'), name: 'acme', createdAt: h.clock.now() });
      const made: Array<{ acting: { token: string; holderId: string }; eventTypeId: string }> = [];
      for (let i = 0; i < 100; i++) {
        const holder = await tx.holders.ensure(...newHolder(account.id, `holder ${i}`, h.clock.now()));
        const eventType = eventTypeRecord(holder.id, h.clock.now());
        await tx.eventTypes.insert(eventType);
        made.push({ acting: { token, holderId: holder.id }, eventTypeId: eventType.id });
      }
      return made;
    });
    await hearingChanges();
    await ownCommitsHeard();
    for (const holder of holders) {
      expect(await roundTripsOfSlots(holder.acting, holder.eventTypeId, 62)).toContain('holders.acting');
    }

    const sentBefore = h.storage.queriesSent();
    for (const holder of holders) {
      expect(await roundTripsOfSlots(holder.acting, holder.eventTypeId, 62), holder.acting.holderId).toEqual([]);
    }
    expect(h.storage.queriesSent()).toBe(sentBefore);
  });
});

describe('store round trips of a team event type’s slots (contract §14)', () => {
  it('when nothing changed, then its slot queries make no database round trip; after one host is booked elsewhere, the next reads that host’s calendar alone', async () => {
    const [ada, bob, cy] = await actingFor('acme', ['ada', 'bob', 'cy']);
    const { token } = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: null,
      scopes: ['read', 'write'],
      expiresAt: null,
    });
    const created = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      json: {
        title: 'Panel',
        durationMinutes: 30,
        assignment: 'collective',
        hosts: [ada!, bob!, cy!].map((host) => ({ holderId: host.acting.holderId })),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const teamId = created.json<{ id: string }>().id;
    await hearingChanges();
    await ownCommitsHeard();
    await warmedUp(token, teamId);

    const sentBefore = h.storage.queriesSent();
    for (const from of ['2026-01-05T00:00:00Z', '2026-01-06T07:30:00+01:00', '2026-01-07T00:00:00Z']) {
      expect(await roundTripsOfSlots(token, teamId, 62, from)).toEqual([]);
    }
    expect(h.storage.queriesSent()).toBe(sentBefore);

    await bookElsewhere(bob!.acting, bob!.eventTypeId, '2026-01-05T09:00:00Z');
    await expect
      .poll(async () => (await roundTripsOfSlots(token, teamId, 62)).filter((call) => call.startsWith('bookings.')), {
        timeout: 5_000,
        interval: 20,
      })
      .toEqual(['bookings.occupanciesOverlappingOf']);
  });
});

describe('statements of a cold team slot query (issue 28)', () => {
  it('when no host’s calendar is cached, then a team type of 12 hosts is answered with as many statements as one of 2, each host’s calendar read in the same statements as the others’', async () => {
    const { token } = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: null,
      scopes: ['read', 'write'],
      expiresAt: null,
    });
    const hosts = await h.store.transaction(async (tx) => {
      const account = await tx.accounts.ensure({ id: newId('acc'), name: 'acme', createdAt: h.clock.now() });
      const made: string[] = [];
      for (let i = 0; i < 14; i++) {
        const holder = await tx.holders.ensure(...newHolder(account.id, `host ${i}`, h.clock.now()));
        made.push(holder.id);
      }
      return made;
    });
    const teamOf = async (title: string, assignment: string, holderIds: string[]) => {
      const created = await h.request({
        method: 'POST',
        url: '/api/v1/event-types',
        token,
        json: { title, durationMinutes: 30, assignment, hosts: holderIds.map((holderId) => ({ holderId })) },
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json<{ id: string }>().id;
    };
    const small = await teamOf('Pair', 'collective', hosts.slice(0, 2));
    const large = await teamOf('Any rep', 'round-robin', hosts.slice(2));
    // A booking of some hosts of each: their calendars hold occupancies.
    for (const [teamId, start] of [
      [small, '2026-01-05T09:00:00Z'],
      [large, '2026-01-05T10:00:00Z'],
      [large, '2026-01-06T10:00:00Z'],
    ] as const) {
      const booked = await h.request({
        method: 'POST',
        url: '/api/v1/bookings',
        token,
        json: { eventTypeId: teamId, start, guestName: 'Gus', guestEmail: 'gus@example.com' },
      });
      expect(booked.statusCode, booked.body).toBe(201);
    }
    await hearingChanges();
    await ownCommitsHeard();

    const coldQuery = async (teamId: string) => {
      server.resetCaches();
      const sentBefore = h.storage.queriesSent();
      const calls = await roundTripsOfSlots(token, teamId, 62);
      return { calls, statements: h.storage.queriesSent() - sentBefore };
    };
    const ofSmall = await coldQuery(small);
    const ofLarge = await coldQuery(large);
    expect(ofLarge.calls).toEqual(ofSmall.calls);
    expect(ofLarge.calls.filter((call) => call === 'bookings.occupanciesOverlappingOf')).toHaveLength(1);
    expect(ofLarge.statements).toBe(ofSmall.statements);
    // The key, the team type, the hosts' versions, their schedules, event types, occupancies and
    // busy time (PostgreSQL; SQLite's counting statements of its own the same way).
    expect(ofLarge.statements).toBeLessThanOrEqual(8);
    // Warm: nothing at all.
    await warmedUp(token, large);
  });
});
