// Contract §12, account scope, on both stores: an account key without `Slotwise-Holder` acts on
// every event type, booking and hold of its account's holders by id, books and holds for the
// holder of the event type, and lists the whole account (with a `holderId` filter); another
// account's resources answer as unknown ids do; what exists once per holder needs the header.
// Every event type, booking and hold shows its `holderId`.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { testStoreKind } from '../support/databases.js';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  bookingInput,
  createEventType,
  expectInvalid,
  expectProblem,
  getSlots,
  startsOf,
  type BookingBody,
  type EventTypeBody,
  type ListBody,
} from './helpers.js';

interface Owned {
  holderId: string | null;
}
type OwnedEventType = EventTypeBody & Owned & { bookingPageUrl: string | null };
type OwnedBooking = BookingBody & Owned;
interface OwnedHold extends Owned {
  id: string;
  eventTypeId: string;
  start: string;
}

let h: Harness;
/** Holder keys of ada and bob, holders of the account acme; acme's account key. */
let ada: string;
let bob: string;
let acme: string;
let adaId: string;
let bobId: string;
/** Another account, globex: its holder gus, its account key. */
let gus: string;
let globex: string;
let gusId: string;
let adaType: OwnedEventType;
let bobType: OwnedEventType;
let gusType: OwnedEventType;
let adaBooking: OwnedBooking;
let bobBooking: OwnedBooking;
let gusBooking: OwnedBooking;

async function keyOf(accountName: string, holderName: string | null) {
  const { key, token } = await createApiKey(h.context, {
    accountName,
    holderName,
    scopes: ['read', 'write'],
    expiresAt: null,
  });
  return { token, holderId: key.holderId };
}

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  ({ token: ada, holderId: adaId } = (await keyOf('acme', 'ada')) as { token: string; holderId: string });
  ({ token: bob, holderId: bobId } = (await keyOf('acme', 'bob')) as { token: string; holderId: string });
  acme = (await keyOf('acme', null)).token;
  ({ token: gus, holderId: gusId } = (await keyOf('globex', 'gus')) as { token: string; holderId: string });
  globex = (await keyOf('globex', null)).token;
  adaType = (await createEventType(h, ada, { title: 'Ada call', public: true })) as OwnedEventType;
  later();
  bobType = (await createEventType(h, bob, { title: 'Bob call' })) as OwnedEventType;
  later();
  gusType = (await createEventType(h, gus, { title: 'Gus call' })) as OwnedEventType;
  adaBooking = (await book(h, ada, adaType.id, '2026-01-05T09:00:00Z')) as OwnedBooking;
  bobBooking = (await book(h, bob, bobType.id, '2026-01-05T10:00:00Z')) as OwnedBooking;
  gusBooking = (await book(h, gus, gusType.id, '2026-01-05T11:00:00Z')) as OwnedBooking;
});

afterEach(async () => {
  await h.close();
});

/** Moves the clock on a minute: what is created next is ordered after what was created before. */
function later(): void {
  h.clock.set(h.clock.current + 60_000);
}

function call(method: string, url: string, token: string, json?: unknown, holder?: string) {
  return h.request({
    method: method as 'GET',
    url,
    token,
    ...(json === undefined ? {} : { json }),
    ...(holder ? { headers: { 'slotwise-holder': holder } } : {}),
  });
}

async function ok<T>(method: string, url: string, token: string, json?: unknown, status = 200): Promise<T> {
  const res = await call(method, url, token, json);
  expect(res.statusCode, res.body).toBe(status);
  return res.json<T>();
}

/** Every item of a list, page after page of `limit`. */
async function everyPage<T>(url: string, token: string, limit: number): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 20; pages++) {
    const separator = url.includes('?') ? '&' : '?';
    const page: ListBody<T> = await ok<ListBody<T>>(
      'GET',
      `${url}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      token,
    );
    items.push(...page.data);
    cursor = page.nextCursor;
    if (cursor === null) return items;
  }
  throw new Error('the list never ended');
}

async function holdFor(token: string, eventTypeId: string, start: string, holder?: string): Promise<OwnedHold> {
  const res = await call('POST', '/api/v1/holds', token, { eventTypeId, start }, holder);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<OwnedHold>();
}

/** Marks a holder deleted in the database, as deleting it does, and empties the server's caches. */
async function markDeleted(holderId: string): Promise<void> {
  const at = h.clock.now();
  if (testStoreKind() === 'sqlite') {
    const db = new Database(h.database.databaseUrl.slice('sqlite:'.length));
    try {
      db.prepare('update holders set deleted_at = ? where id = ?').run(at, holderId);
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: h.database.databaseUrl });
    await client.connect();
    try {
      await client.query('update holders set deleted_at = $1 where id = $2', [at, holderId]);
    } finally {
      await client.end();
    }
  }
  h.server.resetCaches();
}

describe('holderId on event types, bookings and holds', () => {
  it('when a holder key makes or reads them, then each shows its holder’s id, in lists and webhook payloads too', async () => {
    expect(adaType.holderId).toBe(adaId);
    expect(adaBooking.holderId).toBe(adaId);
    expect((await ok<OwnedEventType>('GET', `/api/v1/event-types/${bobType.id}`, bob)).holderId).toBe(bobId);
    expect((await ok<ListBody<OwnedEventType>>('GET', '/api/v1/event-types', bob)).data[0]!.holderId).toBe(bobId);
    expect((await ok<OwnedBooking>('GET', `/api/v1/bookings/${bobBooking.id}`, bob)).holderId).toBe(bobId);
    const listed = await ok<ListBody<OwnedBooking>>('GET', '/api/v1/bookings?from=2026-01-01T00:00:00Z', bob);
    expect(listed.data.map((b) => b.holderId)).toEqual([bobId]);
    const hold = await holdFor(bob, bobType.id, '2026-01-06T09:00:00Z');
    expect(hold.holderId).toBe(bobId);
    expect((await ok<OwnedHold>('GET', `/api/v1/holds/${hold.id}`, bob)).holderId).toBe(bobId);
    expect((await ok<ListBody<OwnedHold>>('GET', '/api/v1/holds', bob)).data[0]!.holderId).toBe(bobId);

    // Webhook payloads carry the booking as the API shows it.
    const webhook = await call('POST', '/api/v1/webhooks', ada, { url: 'https://ada.example.com/hook' });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const booked = await book(h, acme, adaType.id, '2026-01-05T13:00:00Z');
    await ok('POST', `/api/v1/bookings/${booked.id}/cancel`, acme, {});
    const moved = await ok<OwnedBooking>(
      'POST',
      `/api/v1/bookings/${adaBooking.id}/reschedule`,
      acme,
      { start: '2026-01-05T15:00:00Z' },
      201,
    );
    const payloads = (await h.database.rows('webhook_events')).map(
      (row) => JSON.parse(String(row.payload)) as { type: string; data: Record<string, Owned & { id: string }> },
    );
    expect(payloads.map((p) => p.type).sort()).toEqual(['booking.cancelled', 'booking.created', 'booking.rescheduled']);
    for (const payload of payloads) {
      expect(payload.data.booking!.holderId).toBe(adaId);
      if (payload.type === 'booking.rescheduled') {
        expect(payload.data.booking!.id).toBe(moved.id);
        expect(payload.data.previousBooking!.holderId).toBe(adaId);
      }
    }
  });

  it('when the OpenAPI document describes them, then holderId is a documented read-only field of each', async () => {
    const document = await ok<{ components: { schemas: Record<string, { properties: Record<string, unknown> }> } }>(
      'GET',
      '/api/v1/openapi.json',
      ada,
    );
    for (const name of ['EventType', 'Booking', 'Hold']) {
      const field = document.components.schemas[name]!.properties.holderId as { description?: string };
      expect(field.description, name).toMatch(/holder/);
    }
  });
});

describe('account scope: by id', () => {
  it('when an account key reads, changes and deletes each holder’s event type, then it acts for that holder', async () => {
    for (const [type, holderId] of [
      [adaType, adaId],
      [bobType, bobId],
    ] as const) {
      const read = await ok<OwnedEventType>('GET', `/api/v1/event-types/${type.id}`, acme);
      expect(read).toEqual(type);
      expect(read.holderId).toBe(holderId);
    }
    // The booking page link is the owner's, as the holder's own key sees it.
    expect(adaType.bookingPageUrl).toMatch(/\/book\/ada\//);

    const patched = await ok<OwnedEventType>('PATCH', `/api/v1/event-types/${bobType.id}`, acme, { title: 'Renamed' });
    expect(patched).toMatchObject({ id: bobType.id, holderId: bobId, title: 'Renamed' });
    expect((await ok<OwnedEventType>('GET', `/api/v1/event-types/${bobType.id}`, bob)).title).toBe('Renamed');

    expect((await call('DELETE', `/api/v1/event-types/${bobType.id}`, acme)).statusCode).toBe(204);
    expectProblem(await call('GET', `/api/v1/event-types/${bobType.id}`, bob), 404, 'not-found');
    expectProblem(await call('GET', `/api/v1/event-types/${bobType.id}`, acme), 404, 'not-found');
  });

  it('when an account key reads, annotates, cancels and reschedules each holder’s booking, then it acts for that holder', async () => {
    expect(await ok<OwnedBooking>('GET', `/api/v1/bookings/${adaBooking.id}`, acme)).toEqual(adaBooking);
    expect(await ok<OwnedBooking>('GET', `/api/v1/bookings/${bobBooking.id}`, acme)).toEqual(bobBooking);

    const annotated = await ok<OwnedBooking>('PATCH', `/api/v1/bookings/${adaBooking.id}`, acme, {
      metadata: { crm: '42' },
    });
    expect(annotated.metadata).toEqual({ crm: '42' });
    expect((await ok<OwnedBooking>('GET', `/api/v1/bookings/${adaBooking.id}`, ada)).metadata).toEqual({ crm: '42' });

    const cancelled = await ok<OwnedBooking>('POST', `/api/v1/bookings/${adaBooking.id}/cancel`, acme, {
      reason: 'ill',
    });
    expect(cancelled).toMatchObject({ holderId: adaId, status: 'cancelled', cancellationReason: 'ill' });

    const moved = await ok<OwnedBooking>(
      'POST',
      `/api/v1/bookings/${bobBooking.id}/reschedule`,
      acme,
      { start: '2026-01-05T14:00:00Z' },
      201,
    );
    expect(moved).toMatchObject({
      holderId: bobId,
      start: '2026-01-05T14:00:00.000Z',
      rescheduledFromId: bobBooking.id,
    });
    expect((await ok<OwnedBooking>('GET', `/api/v1/bookings/${bobBooking.id}`, bob)).status).toBe('rescheduled');
  });

  it('when an account key reads and releases each holder’s hold, then it acts for that holder', async () => {
    const adaHold = await holdFor(ada, adaType.id, '2026-01-06T09:00:00Z');
    const bobHold = await holdFor(bob, bobType.id, '2026-01-06T09:00:00Z');
    expect(await ok<OwnedHold>('GET', `/api/v1/holds/${adaHold.id}`, acme)).toEqual(adaHold);
    expect((await call('DELETE', `/api/v1/holds/${bobHold.id}`, acme)).statusCode).toBe(204);
    expectProblem(await call('GET', `/api/v1/holds/${bobHold.id}`, bob), 404, 'not-found');
    expect((await call('GET', `/api/v1/holds/${adaHold.id}`, ada)).statusCode).toBe(200);
  });

  it('when an account key names another account’s event type, booking or hold, then 404 as for an unknown id, and nothing changes', async () => {
    const gusHold = await holdFor(gus, gusType.id, '2026-01-06T09:00:00Z');
    const snapshot = async () => ({
      eventType: await ok('GET', `/api/v1/event-types/${gusType.id}`, gus),
      booking: await ok('GET', `/api/v1/bookings/${gusBooking.id}`, gus),
      hold: await ok('GET', `/api/v1/holds/${gusHold.id}`, gus),
    });
    const before = await snapshot();
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/event-types/%evt'],
      ['PATCH', '/api/v1/event-types/%evt', { title: 'Hijacked' }],
      ['DELETE', '/api/v1/event-types/%evt'],
      ['GET', '/api/v1/bookings/%bkg'],
      ['PATCH', '/api/v1/bookings/%bkg', { metadata: { mine: 'now' } }],
      ['POST', '/api/v1/bookings/%bkg/cancel', { reason: 'mine now' }],
      ['POST', '/api/v1/bookings/%bkg/reschedule', { start: '2026-01-05T15:00:00Z' }],
      ['GET', '/api/v1/holds/%hld'],
      ['DELETE', '/api/v1/holds/%hld'],
    ];
    const ids = (evt: string, bkg: string, hld: string) => (url: string) =>
      url.replace('%evt', evt).replace('%bkg', bkg).replace('%hld', hld);
    const theirs = ids(gusType.id, gusBooking.id, gusHold.id);
    const unknown = ids('evt_unknown', 'bkg_unknown', 'hld_unknown');
    for (const [method, url, json] of attempts) {
      const foreign = await call(method, theirs(url), acme, json);
      const none = await call(method, unknown(url), acme, json);
      expectProblem(foreign, 404, 'not-found');
      expectProblem(none, 404, 'not-found');
      // Word for word the unknown id's answer, but for the id itself.
      expect(foreign.json<{ detail: string }>().detail.replace(/(evt|bkg|hld)_\w+/, 'ID')).toBe(
        none.json<{ detail: string }>().detail.replace(/(evt|bkg|hld)_\w+/, 'ID'),
      );
    }
    // And the other way round: globex's account key sees nothing of acme.
    expectProblem(await call('GET', `/api/v1/bookings/${adaBooking.id}`, globex), 404, 'not-found');
    expectProblem(await call('GET', `/api/v1/event-types/${adaType.id}`, globex), 404, 'not-found');
    expect(await snapshot()).toEqual(before);
  });

  it('when the header names a holder, then only that holder’s resources are reached (another’s: 404)', async () => {
    expect((await call('GET', `/api/v1/bookings/${adaBooking.id}`, acme, undefined, adaId)).statusCode).toBe(200);
    expectProblem(await call('GET', `/api/v1/bookings/${bobBooking.id}`, acme, undefined, adaId), 404, 'not-found');
    expectProblem(await call('GET', `/api/v1/event-types/${bobType.id}`, acme, undefined, adaId), 404, 'not-found');
  });
});

describe('account scope: booking, holding and slots', () => {
  it('when an account key books an event type of either holder, then the booking is that holder’s', async () => {
    const forAda = await book(h, acme, adaType.id, '2026-01-05T13:00:00Z');
    const forBob = await book(h, acme, bobType.id, '2026-01-05T13:00:00Z');
    expect((forAda as OwnedBooking).holderId).toBe(adaId);
    expect((forBob as OwnedBooking).holderId).toBe(bobId);
    expect((await ok<OwnedBooking>('GET', `/api/v1/bookings/${forBob.id}`, bob)).eventTypeId).toBe(bobType.id);
    // The holder's time is taken: the same start again is refused.
    const again = await call('POST', '/api/v1/bookings', acme, bookingInput(adaType.id, '2026-01-05T13:00:00Z'));
    expectProblem(again, 409, 'slot-unavailable');
  });

  it('when an account key books another account’s event type, then the answer is the unknown eventTypeId’s', async () => {
    const foreign = await call('POST', '/api/v1/bookings', acme, bookingInput(gusType.id, '2026-01-05T13:00:00Z'));
    const none = await call('POST', '/api/v1/bookings', acme, bookingInput('evt_unknown', '2026-01-05T13:00:00Z'));
    expect(expectInvalid(foreign, ['eventTypeId'])).toEqual(expectInvalid(none, ['eventTypeId']));
    const held = await call('POST', '/api/v1/holds', acme, { eventTypeId: gusType.id, start: '2026-01-05T13:00:00Z' });
    expectInvalid(held, ['eventTypeId']);
  });

  it('when the header names a holder, then another holder’s event type is an unknown eventTypeId', async () => {
    const mine = await call('POST', '/api/v1/bookings', acme, bookingInput(adaType.id, '2026-01-05T13:00:00Z'), adaId);
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json<OwnedBooking>().holderId).toBe(adaId);
    const sibling = await call(
      'POST',
      '/api/v1/bookings',
      acme,
      bookingInput(bobType.id, '2026-01-05T13:00:00Z'),
      adaId,
    );
    expectInvalid(sibling, ['eventTypeId']);
    const slots = await call(
      'GET',
      `/api/v1/slots?eventTypeId=${bobType.id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`,
      acme,
      undefined,
      adaId,
    );
    expectInvalid(slots, ['eventTypeId']);
  });

  it('when an account key holds a holder’s time and books the hold, then both are that holder’s', async () => {
    const hold = await holdFor(acme, bobType.id, '2026-01-06T09:00:00Z');
    expect(hold.holderId).toBe(bobId);
    expect((await ok<ListBody<OwnedHold>>('GET', '/api/v1/holds', bob)).data.map((x) => x.id)).toEqual([hold.id]);
    const booked = await call('POST', '/api/v1/bookings', acme, {
      holdId: hold.id,
      guestName: 'Grace',
      guestEmail: 'grace@example.com',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    expect(booked.json<OwnedBooking>()).toMatchObject({ holderId: bobId, start: '2026-01-06T09:00:00.000Z' });
    expectProblem(await call('GET', `/api/v1/holds/${hold.id}`, acme), 404, 'not-found');
  });

  it('when an account key books another account’s hold, then 409 hold-expired, as for a hold that never existed', async () => {
    const gusHold = await holdFor(gus, gusType.id, '2026-01-06T09:00:00Z');
    const guest = { guestName: 'Grace', guestEmail: 'grace@example.com' };
    expectProblem(await call('POST', '/api/v1/bookings', acme, { holdId: gusHold.id, ...guest }), 409, 'hold-expired');
    expectProblem(
      await call('POST', '/api/v1/bookings', acme, { holdId: 'hld_unknown', ...guest }),
      409,
      'hold-expired',
    );
    expect((await call('GET', `/api/v1/holds/${gusHold.id}`, gus)).statusCode).toBe(200);
  });

  it('when an account key lists slots of a holder’s event type, then they are that holder’s, fresh after each booking', async () => {
    const monday = { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' };
    const asBob = startsOf(await getSlots(h, bob, { eventTypeId: bobType.id, ...monday }));
    expect(startsOf(await getSlots(h, acme, { eventTypeId: bobType.id, ...monday }))).toEqual(asBob);
    expect(asBob).not.toContain('2026-01-05T10:00:00.000Z');
    // Booked by bob's own key: the account key's next query sees it at once.
    await book(h, bob, bobType.id, '2026-01-05T15:00:00Z');
    const after = startsOf(await getSlots(h, acme, { eventTypeId: bobType.id, ...monday }));
    expect(after).toEqual(asBob.filter((start) => start !== '2026-01-05T15:00:00.000Z'));

    const foreign = await call(
      'GET',
      `/api/v1/slots?eventTypeId=${gusType.id}&from=${monday.from}&to=${monday.to}`,
      acme,
    );
    expectInvalid(foreign, ['eventTypeId']);
  });
});

describe('account scope: lists', () => {
  const allBookings = '/api/v1/bookings?from=2026-01-01T00:00:00Z';

  it('when an account key lists event types, bookings and holds, then every holder’s of the account appear, in the usual order, page by page', async () => {
    const adaHold = await holdFor(ada, adaType.id, '2026-01-06T10:00:00Z');
    const bobHold = await holdFor(bob, bobType.id, '2026-01-06T09:00:00Z');
    await holdFor(gus, gusType.id, '2026-01-06T09:30:00Z');
    const adaLater = await book(h, ada, adaType.id, '2026-01-05T11:00:00Z');

    const types = await everyPage<OwnedEventType>('/api/v1/event-types', acme, 1);
    expect(types.map((t) => [t.id, t.holderId])).toEqual([
      [adaType.id, adaId],
      [bobType.id, bobId],
    ]);
    expect(types[0]).toEqual(adaType);

    const bookings = await everyPage<OwnedBooking>(allBookings, acme, 1);
    expect(bookings.map((b) => b.id)).toEqual([adaBooking.id, bobBooking.id, adaLater.id]);
    expect(bookings[1]).toEqual(bobBooking);

    const holds = await everyPage<OwnedHold>('/api/v1/holds', acme, 1);
    expect(holds.map((x) => [x.id, x.holderId])).toEqual([
      [bobHold.id, bobId],
      [adaHold.id, adaId],
    ]);
  });

  it('when an account key filters a list by holderId, then only that holder’s items appear', async () => {
    const bobHold = await holdFor(bob, bobType.id, '2026-01-06T09:00:00Z');
    await holdFor(ada, adaType.id, '2026-01-06T10:00:00Z');
    const types = await ok<ListBody<OwnedEventType>>('GET', `/api/v1/event-types?holderId=${bobId}`, acme);
    expect(types.data.map((t) => t.id)).toEqual([bobType.id]);
    const bookings = await ok<ListBody<OwnedBooking>>('GET', `${allBookings}&holderId=${adaId}`, acme);
    expect(bookings.data.map((b) => b.id)).toEqual([adaBooking.id]);
    const holds = await ok<ListBody<OwnedHold>>('GET', `/api/v1/holds?holderId=${bobId}`, acme);
    expect(holds.data.map((x) => x.id)).toEqual([bobHold.id]);
  });

  it('when holderId names another account’s holder or none, then 400 on holderId, the same for both', async () => {
    for (const url of ['/api/v1/event-types?', `${allBookings}&`, '/api/v1/holds?']) {
      const foreign = expectInvalid(await call('GET', `${url}holderId=${gusId}`, acme), ['holderId']);
      const none = expectInvalid(await call('GET', `${url}holderId=hdr_00000000000000000000`, acme), ['holderId']);
      expect(foreign.errors).toEqual(none.errors);
      expect(foreign.detail).toBe(none.detail);
    }
  });

  it('when a holder key lists, then the lists are its own as before; holderId may name only its holder', async () => {
    const own = await ok<ListBody<OwnedBooking>>('GET', allBookings, ada);
    expect(own.data.map((b) => b.id)).toEqual([adaBooking.id]);
    expect(await ok('GET', `${allBookings}&holderId=${adaId}`, ada)).toEqual(own);
    expectInvalid(await call('GET', `/api/v1/event-types?holderId=${bobId}`, ada), ['holderId']);
    const viaHeader = await call('GET', '/api/v1/event-types', acme, undefined, bobId);
    expect(viaHeader.json<ListBody<OwnedEventType>>().data.map((t) => t.id)).toEqual([bobType.id]);
    expectInvalid(await call('GET', `/api/v1/holds?holderId=${adaId}`, acme, undefined, bobId), ['holderId']);
  });
});

describe('account scope: a deleted holder', () => {
  it('when a holder is deleted, then its bookings stay readable by the account, unchanged, and its event types are gone', async () => {
    h.clock.set('2026-01-06T00:00:00Z');
    await markDeleted(bobId);

    expect(await ok<OwnedBooking>('GET', `/api/v1/bookings/${bobBooking.id}`, acme)).toEqual(bobBooking);
    const bookings = await ok<ListBody<OwnedBooking>>('GET', '/api/v1/bookings?from=2026-01-01T00:00:00Z', acme);
    expect(bookings.data.map((b) => b.id)).toEqual([adaBooking.id, bobBooking.id]);
    const filtered = await ok<ListBody<OwnedBooking>>(
      'GET',
      `/api/v1/bookings?from=2026-01-01T00:00:00Z&holderId=${bobId}`,
      acme,
    );
    expect(filtered.data.map((b) => b.id)).toEqual([bobBooking.id]);

    expect((await ok<ListBody<OwnedEventType>>('GET', '/api/v1/event-types', acme)).data.map((t) => t.id)).toEqual([
      adaType.id,
    ]);
    expect((await ok<ListBody<OwnedEventType>>('GET', `/api/v1/event-types?holderId=${bobId}`, acme)).data).toEqual([]);
    expectProblem(await call('GET', `/api/v1/event-types/${bobType.id}`, acme), 404, 'not-found');
    expectInvalid(await call('POST', '/api/v1/bookings', acme, bookingInput(bobType.id, '2026-01-07T09:00:00Z')), [
      'eventTypeId',
    ]);

    for (const [method, url, json] of [
      ['POST', `/api/v1/bookings/${bobBooking.id}/cancel`, {}],
      ['POST', `/api/v1/bookings/${bobBooking.id}/reschedule`, { start: '2026-01-07T09:00:00Z' }],
      ['PATCH', `/api/v1/bookings/${bobBooking.id}`, { metadata: { a: 'b' } }],
    ] as const) {
      expectProblem(await call(method, url, acme, json), 409, 'invalid-state');
    }
    expect(await ok<OwnedBooking>('GET', `/api/v1/bookings/${bobBooking.id}`, acme)).toEqual(bobBooking);
  });
});

describe('account scope: what exists once per holder', () => {
  it('when an account key without the header uses a per-holder route, then 400 names Slotwise-Holder', async () => {
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/availability'],
      ['PUT', '/api/v1/availability', { timeZone: 'UTC', weekly: {} }],
      ['GET', '/api/v1/calendar-sources'],
      ['POST', '/api/v1/calendar-sources', { type: 'ics', url: 'https://calendar.example.com/a.ics' }],
      ['GET', '/api/v1/calendar-sources/cal_00000000000000000000'],
      ['PATCH', '/api/v1/calendar-sources/cal_00000000000000000000', { name: 'Work' }],
      ['DELETE', '/api/v1/calendar-sources/cal_00000000000000000000'],
      ['POST', '/api/v1/calendar-sources/cal_00000000000000000000/sync', {}],
      ['GET', '/api/v1/busy?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z'],
      ['POST', '/api/v1/me/calendar-feed/rotate', {}],
    ];
    for (const [method, url, json] of attempts) {
      const res = await call(method, url, acme, json);
      expectInvalid(res, ['Slotwise-Holder']);
    }
    // An event type made in account scope is the account's team event type (contract §14).
    expectInvalid(await call('POST', '/api/v1/event-types', acme, { title: 'Team call', durationMinutes: 30 }), [
      'assignment',
      'hosts',
    ]);
    // Nothing was made.
    expect((await ok<ListBody<unknown>>('GET', '/api/v1/event-types', acme)).data).toHaveLength(2);
    expect((await ok<ListBody<unknown>>('GET', '/api/v1/calendar-sources', ada)).data).toHaveLength(0);
  });
});
