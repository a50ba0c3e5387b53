// Contract §12: an account's holders through the API, in account scope (an account key without
// Slotwise-Holder), on both stores: create (with its default availability), list, read, change,
// and delete, which is refused while the holder has a booking that has not ended and otherwise
// takes its keys, pages, holds, webhooks, calendar sources, feed and event types with it at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import type { Scope } from '../../src/domain/api-key.js';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  createEventType,
  expectInvalid,
  expectProblem,
  type BookingBody,
  type ListBody,
} from './helpers.js';

interface HolderBody {
  id: string;
  name: string;
  handle: string;
  displayName: string | null;
  email: string | null;
  createdAt: string;
  updatedAt: string;
}

let h: Harness;
/** An account key of account `acme`. */
let acme: string;

/** An account key (no holder) of the account `account`, made on first use of its name. */
async function accountKey(harness: Harness, account: string, scopes: Scope[] = ['read', 'write']): Promise<string> {
  const { token } = await createApiKey(harness.context, {
    accountName: account,
    holderName: null,
    scopes,
    expiresAt: null,
  });
  return token;
}

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  acme = await accountKey(h, 'acme');
});

afterEach(async () => {
  await h.close();
});

const create = (json: unknown, token = acme) => h.request({ method: 'POST', url: '/api/v1/holders', token, json });
const get = (id: string, token = acme) => h.request({ method: 'GET', url: `/api/v1/holders/${id}`, token });
const list = (query = '', token = acme) => h.request({ method: 'GET', url: `/api/v1/holders${query}`, token });
const patch = (id: string, json: unknown, token = acme) =>
  h.request({ method: 'PATCH', url: `/api/v1/holders/${id}`, token, json });
const remove = (id: string, token = acme) => h.request({ method: 'DELETE', url: `/api/v1/holders/${id}`, token });
/** A request of the account key acting for `holderId`. */
const asHolder = (
  holderId: string,
  options: { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; json?: unknown },
) => h.request({ ...options, token: acme, headers: { 'slotwise-holder': holderId } });

async function created(json: Record<string, unknown>, token = acme): Promise<HolderBody> {
  const res = await create(json, token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<HolderBody>();
}

/** A key of the holder, made through the API. */
async function holderKey(holderId: string): Promise<string> {
  const res = await h.request({
    method: 'POST',
    url: `/api/v1/holders/${holderId}/keys`,
    token: acme,
    json: { scopes: ['read', 'write'] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ key: string }>().key;
}

describe('POST /api/v1/holders', () => {
  it('when only a name is sent, then 201 with Location, a handle derived from the name and nothing else set', async () => {
    const res = await create({ name: 'Ada Lovelace' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<HolderBody>();
    expect(res.headers.location).toBe(`/api/v1/holders/${body.id}`);
    expect(body).toEqual({
      id: expect.stringMatching(/^hdr_[0-9a-z]{20}$/),
      name: 'Ada Lovelace',
      handle: 'ada-lovelace',
      displayName: null,
      email: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect((await get(body.id)).json()).toEqual(body);
  });

  it('when every field is sent, then each is stored, and the default availability is Mon–Fri 09:00–17:00 in the zone sent', async () => {
    const holder = await created({
      name: 'Grace Hopper',
      handle: 'grace',
      displayName: 'Rear Admiral Hopper',
      email: 'grace@example.com',
      timeZone: 'Europe/Berlin',
    });
    expect(holder).toMatchObject({
      name: 'Grace Hopper',
      handle: 'grace',
      displayName: 'Rear Admiral Hopper',
      email: 'grace@example.com',
    });
    const availability = await asHolder(holder.id, { method: 'GET', url: '/api/v1/availability' });
    expect(availability.statusCode, availability.body).toBe(200);
    const workday = [{ start: '09:00', end: '17:00' }];
    expect(availability.json()).toMatchObject({
      timeZone: 'Europe/Berlin',
      weekly: {
        monday: workday,
        tuesday: workday,
        wednesday: workday,
        thursday: workday,
        friday: workday,
        saturday: [],
        sunday: [],
      },
      overrides: [],
    });
    // Stored with the holder, as its default schedule, not derived on reading.
    expect(
      (await h.database.rows('schedules')).map((row) => [row.holder_id, row.name, Number(row.is_default)]),
    ).toEqual([[holder.id, 'Default', 1]]);
  });

  it('when no zone is sent, then the default availability is in UTC', async () => {
    const holder = await created({ name: 'Ada' });
    const availability = await asHolder(holder.id, { method: 'GET', url: '/api/v1/availability' });
    expect(availability.json<{ timeZone: string }>().timeZone).toBe('UTC');
  });

  it('when the derived handle is taken by a holder of another account, then the next free one is used', async () => {
    const other = await accountKey(h, 'globex');
    expect((await created({ name: 'Ada Lovelace' }, other)).handle).toBe('ada-lovelace');
    expect((await created({ name: 'Ada Lovelace' })).handle).toBe('ada-lovelace-2');
    expect((await created({ name: 'Ada  Lovelace!' })).handle).toBe('ada-lovelace-3');
  });

  it('when every field is wrong, then 400 with one errors entry per field and nothing stored', async () => {
    const res = await create({
      name: 'Ada\nLovelace',
      handle: 'Not A Handle',
      displayName: 'x'.repeat(201),
      email: 'not-an-email',
      timeZone: 'Mars/Olympus_Mons',
      role: 'admin',
    });
    expectInvalid(res, ['name', 'handle', 'displayName', 'email', 'timeZone', 'role']);
    expect(await h.database.rows('holders')).toHaveLength(0);
  });

  it.each([
    ['no name', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name of 201 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a name with a tab', { name: 'Ada\tLovelace' }, 'name'],
    ['a handle of 65 characters', { name: 'Ada', handle: 'a'.repeat(65) }, 'handle'],
    ['an empty handle', { name: 'Ada', handle: '' }, 'handle'],
    ['an e-mail of 321 characters', { name: 'Ada', email: `${'a'.repeat(309)}@example.com` }, 'email'],
    ['a zone that is a number', { name: 'Ada', timeZone: 1 }, 'timeZone'],
  ])('when the body has %s, then 400 on that field', async (_what, json, field) => {
    expectInvalid(await create(json), [field]);
  });

  it('when a name of 200 characters and a handle of 64 are sent, then they are accepted', async () => {
    const holder = await created({ name: 'n'.repeat(200), handle: 'h'.repeat(64) });
    expect(holder.name).toHaveLength(200);
    expect(holder.handle).toHaveLength(64);
  });

  it('when the name is taken among the account’s live holders, then 409 conflict on name and nothing stored; another account may use it', async () => {
    await created({ name: 'Ada' });
    const res = await create({ name: 'Ada', handle: 'another-ada' });
    const problem = expectProblem(res, 409, 'conflict');
    expect(problem.errors).toEqual([{ field: 'name', message: 'is taken' }]);
    expect(await h.database.rows('holders')).toHaveLength(1);
    expect((await create({ name: 'Ada' }, await accountKey(h, 'globex'))).statusCode).toBe(201);
  });

  it('when the handle sent is taken by a live holder of any account, then 409 conflict on handle and nothing stored', async () => {
    await created({ name: 'Ada', handle: 'ada' }, await accountKey(h, 'globex'));
    const res = await create({ name: 'Someone else', handle: 'ada' });
    const problem = expectProblem(res, 409, 'conflict');
    expect(problem.errors).toEqual([{ field: 'handle', message: 'is taken' }]);
    expect(problem.detail).toContain('"ada"');
    expect(await h.database.rows('holders')).toHaveLength(1);
    expect(await h.database.rows('schedules')).toHaveLength(1);
  });

  it('when the key may only read, then 403', async () => {
    expectProblem(await create({ name: 'Ada' }, await accountKey(h, 'acme', ['read'])), 403, 'forbidden');
  });
});

describe('holders per account', () => {
  it('when the account has HOLDERS_PER_ACCOUNT live holders, then another is 409 limit-reached and not stored; a deletion makes room; other accounts are not affected', async () => {
    const limited = await createHarness({ now: BEFORE_MONDAY, holdersPerAccount: 2 });
    try {
      const key = await accountKey(limited, 'acme');
      const make = (name: string, token = key) =>
        limited.request({ method: 'POST', url: '/api/v1/holders', token, json: { name } });
      const first = (await make('one')).json<HolderBody>();
      expect((await make('two')).statusCode).toBe(201);
      const refused = await make('three');
      expectProblem(refused, 409, 'limit-reached');
      expect(refused.json<{ detail: string }>().detail).toContain('2 holders');
      expect(await limited.database.rows('holders')).toHaveLength(2);
      expect((await make('three', await accountKey(limited, 'globex'))).statusCode).toBe(201);

      const deleted = await limited.request({ method: 'DELETE', url: `/api/v1/holders/${first.id}`, token: key });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect((await make('three')).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('when eight creations race for the last three places, then exactly three get one', async () => {
    const limited = await createHarness({ now: BEFORE_MONDAY, holdersPerAccount: 3 });
    try {
      const key = await accountKey(limited, 'acme');
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          limited.request({ method: 'POST', url: '/api/v1/holders', token: key, json: { name: `holder ${i}` } }),
        ),
      );
      expect(results.filter((res) => res.statusCode === 201)).toHaveLength(3);
      expect(results.filter((res) => res.statusCode === 409)).toHaveLength(5);
      expect(await limited.database.rows('holders')).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /api/v1/holders', () => {
  it('when the account has holders, then they are listed oldest first, a page at a time, without other accounts’ or deleted ones', async () => {
    const names = ['first', 'second', 'third'];
    const holders: HolderBody[] = [];
    for (const name of names) {
      holders.push(await created({ name }));
      h.clock.set(h.clock.current + 1_000);
    }
    await created({ name: 'elsewhere' }, await accountKey(h, 'globex'));
    const gone = await created({ name: 'gone' });
    expect((await remove(gone.id)).statusCode).toBe(204);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<ListBody<HolderBody>>();
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((holder) => holder.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(names);
    expect((await list()).json<ListBody<HolderBody>>().data[0]).toEqual(holders[0]);
  });

  it('when filtered by handle or e-mail, then only the holders with exactly that value are listed', async () => {
    const ada = await created({ name: 'Ada', email: 'ada@example.com' });
    await created({ name: 'Grace', email: 'grace@example.com' });
    // Listed by creation: a later one after.
    h.clock.set(h.clock.current + 1_000);
    await created({ name: 'Ada again', email: 'ada@example.com' });
    const byHandle = (await list('?handle=ada')).json<ListBody<HolderBody>>();
    expect(byHandle.data.map((holder) => holder.id)).toEqual([ada.id]);
    const byEmail = (await list('?email=ada%40example.com')).json<ListBody<HolderBody>>();
    expect(byEmail.data.map((holder) => holder.name)).toEqual(['Ada', 'Ada again']);
    expect((await list('?email=ADA%40example.com')).json<ListBody<HolderBody>>().data).toEqual([]);
    // Another account's holder with that handle is not listed either.
    await created({ name: 'Linus', handle: 'linus' }, await accountKey(h, 'globex'));
    expect((await list('?handle=linus')).json<ListBody<HolderBody>>().data).toEqual([]);
  });

  it('when the query is malformed, then 400 on each bad parameter', async () => {
    expectInvalid(await list('?limit=0&cursor=nonsense'), ['limit']);
    expectInvalid(await list('?cursor=nonsense'), ['cursor']);
    expectInvalid(await list('?limit=101&handle=&colour=red'), ['limit', 'handle', 'colour']);
  });
});

describe('GET and PATCH /api/v1/holders/{id}', () => {
  it('when the id is another account’s holder, then 404 exactly as for an unknown id, and nothing changes', async () => {
    const foreign = await created({ name: 'Linus' }, await accountKey(h, 'globex'));
    const unknown = 'hdr_00000000000000000000';
    for (const [id, res] of [
      [foreign.id, await get(foreign.id)],
      [unknown, await get(unknown)],
      [foreign.id, await patch(foreign.id, { name: 'Mine now' })],
      [unknown, await patch(unknown, { name: 'Mine now' })],
      [foreign.id, await remove(foreign.id)],
      [unknown, await remove(unknown)],
    ] as const) {
      const problem = expectProblem(res, 404, 'not-found');
      expect(problem.detail).toBe(`Holder ${id} was not found.`);
    }
    const still = await h.request({
      method: 'GET',
      url: `/api/v1/holders/${foreign.id}`,
      token: await accountKey(h, 'globex'),
    });
    expect(still.json()).toEqual(foreign);
  });

  it('when fields are patched, then only those change and updatedAt moves; null clears the display name and e-mail', async () => {
    const holder = await created({ name: 'Ada', displayName: 'Countess', email: 'ada@example.com' });
    h.clock.set('2026-01-02T00:00:00Z');
    const res = await patch(holder.id, { name: 'Ada Lovelace', displayName: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...holder,
      name: 'Ada Lovelace',
      displayName: null,
      updatedAt: '2026-01-02T00:00:00.000Z',
    });
    const cleared = await patch(holder.id, { email: null, handle: 'countess' });
    expect(cleared.json()).toMatchObject({ email: null, handle: 'countess', name: 'Ada Lovelace' });
    expect((await get(holder.id)).json()).toEqual(cleared.json());
  });

  it('when the handle changes, then the booking pages move with it and the old address is 404', async () => {
    const holder = await created({ name: 'Ada', handle: 'ada' });
    await createEventType(h, await holderKey(holder.id), { title: 'Intro', public: true });
    expect((await h.request({ method: 'GET', url: '/book/ada' })).statusCode).toBe(200);
    expect((await patch(holder.id, { handle: 'lovelace' })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/book/ada' })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: '/book/lovelace' })).statusCode).toBe(200);
  });

  it('when the new name or handle is another live holder’s, then 409 conflict naming the field, and nothing changes', async () => {
    const ada = await created({ name: 'Ada', handle: 'ada' });
    await created({ name: 'Grace', handle: 'grace' });
    await created({ name: 'Linus', handle: 'linus' }, await accountKey(h, 'globex'));
    const byName = expectProblem(await patch(ada.id, { name: 'Grace' }), 409, 'conflict');
    expect(byName.errors).toEqual([{ field: 'name', message: 'is taken' }]);
    const byHandle = expectProblem(await patch(ada.id, { handle: 'linus' }), 409, 'conflict');
    expect(byHandle.errors).toEqual([{ field: 'handle', message: 'is taken' }]);
    expect((await get(ada.id)).json()).toEqual(ada);
    // Its own name and handle are not taken.
    expect((await patch(ada.id, { name: 'Ada', handle: 'ada' })).statusCode).toBe(200);
  });

  it('when the body is wrong, then 400 with one entry per field', async () => {
    const holder = await created({ name: 'Ada' });
    expectInvalid(
      await patch(holder.id, { name: '', handle: 'A B', email: 'x', displayName: 'a\nb', timeZone: 'UTC' }),
      ['name', 'handle', 'email', 'displayName', 'timeZone'],
    );
    expectInvalid(await patch(holder.id, { name: null }), ['name']);
  });
});

describe('DELETE /api/v1/holders/{id}', () => {
  /** A holder with a key, a public event type, a webhook with a delivery, a calendar source with busy time and a live hold. */
  async function equippedHolder() {
    const holder = await created({ name: 'Ada', handle: 'ada' });
    const key = await holderKey(holder.id);
    const eventType = await createEventType(h, key, { title: 'Intro', durationMinutes: 30, public: true });
    const webhook = await h.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: key,
      json: { url: 'https://hooks.example.com/ada' },
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const source = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token: key,
      json: { type: 'ics', url: 'http://127.0.0.1:9/ada.ics' },
    });
    expect(source.statusCode, source.body).toBe(201);
    const sourceId = source.json<{ id: string }>().id;
    await h.store.transaction((tx) =>
      tx.busyTime.replace(holder.id, sourceId, [
        { start: Date.parse('2026-01-07T09:00:00Z'), end: Date.parse('2026-01-07T10:00:00Z') },
      ]),
    );
    const hold = await h.request({
      method: 'POST',
      url: '/api/v1/holds',
      token: key,
      json: { eventTypeId: eventType.id, start: '2026-01-06T09:00:00Z' },
    });
    expect(hold.statusCode, hold.body).toBe(201);
    const me = await h.request({ method: 'GET', url: '/api/v1/me', token: key });
    const feedUrl = me.json<{ holder: { calendarFeedUrl: string } }>().holder.calendarFeedUrl;
    return { holder, key, eventType, feedPath: new URL(feedUrl).pathname };
  }

  it('when the holder has a confirmed booking that has not ended, then 409 invalid-state and nothing at all changes', async () => {
    const { holder, key, eventType, feedPath } = await equippedHolder();
    const booking = await book(h, key, eventType.id, '2026-01-05T10:00:00Z');
    const tables = [
      'holders',
      'api_keys',
      'event_types',
      'bookings',
      'webhooks',
      'webhook_deliveries',
      'calendar_sources',
      'busy_intervals',
    ];
    const before = await Promise.all(tables.map((table) => h.database.rows(table)));

    // Started but not over is still in use.
    h.clock.set('2026-01-05T10:15:00Z');
    const refused = await remove(holder.id);
    expectProblem(refused, 409, 'invalid-state');
    expect(await Promise.all(tables.map((table) => h.database.rows(table)))).toEqual(before);
    expect((await h.request({ method: 'GET', url: '/api/v1/me', token: key })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/book/ada' })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: feedPath })).statusCode).toBe(200);
    expect((await get(holder.id)).statusCode).toBe(200);

    // Once it has ended, the holder may go, and the booking stays.
    h.clock.set('2026-01-05T10:30:00Z');
    expect((await remove(holder.id)).statusCode).toBe(204);
    const kept = await h.database.rows('bookings');
    expect(kept.map((row) => [row.id, row.status])).toEqual([[booking.id, 'confirmed']]);
  });

  it('when a cancelled booking is all the holder has ahead, then it may be deleted', async () => {
    const { holder, key, eventType } = await equippedHolder();
    const booking = await book(h, key, eventType.id, '2026-01-05T10:00:00Z');
    await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token: key });
    expect((await remove(holder.id)).statusCode).toBe(204);
  });

  it('when deleted, then its keys answer 401, its pages, feed, id and Slotwise-Holder 404, and its holds, webhooks, sources and event types are gone', async () => {
    const { holder, key, eventType, feedPath } = await equippedHolder();
    const past = await book(h, key, eventType.id, '2026-01-05T10:00:00Z');
    h.clock.set('2026-01-06T00:00:00Z');
    // Warm: the key and the header's holder are cached in this process.
    expect((await h.request({ method: 'GET', url: '/api/v1/event-types', token: key })).statusCode).toBe(200);
    expect((await asHolder(holder.id, { method: 'GET', url: '/api/v1/event-types' })).statusCode).toBe(200);
    expect(await h.database.rows('webhook_deliveries')).not.toHaveLength(0);

    const res = await remove(holder.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    expectProblem(await h.request({ method: 'GET', url: '/api/v1/event-types', token: key }), 401, 'unauthorized');
    expectProblem(await asHolder(holder.id, { method: 'GET', url: '/api/v1/event-types' }), 404, 'not-found');
    expectProblem(await get(holder.id), 404, 'not-found');
    expectProblem(await remove(holder.id), 404, 'not-found');
    expect((await list()).json<ListBody<HolderBody>>().data).toEqual([]);
    expect((await h.request({ method: 'GET', url: '/book/ada' })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: '/book/ada/intro' })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: feedPath })).statusCode).toBe(404);

    expect(await h.database.rows('webhooks')).toEqual([]);
    expect(await h.database.rows('webhook_deliveries')).toEqual([]);
    expect(await h.database.rows('calendar_sources')).toEqual([]);
    expect(await h.database.rows('busy_intervals')).toEqual([]);
    expect((await h.database.rows('event_types')).map((row) => Number(row.deleted_at))).toEqual([
      Date.parse('2026-01-06T00:00:00Z'),
    ]);
    expect(
      (await h.database.rows('api_keys')).filter((row) => row.holder_id === holder.id && row.revoked_at === null),
    ).toEqual([]);
    // The hold is released; the past booking stays.
    const bookings = await h.database.rows('bookings');
    expect(bookings.map((row) => [row.id, row.status])).toEqual([[past.id, 'confirmed']]);
  });

  it('when deleted, then its name and handle are free for a new holder, which starts afresh', async () => {
    const { holder } = await equippedHolder();
    expect((await remove(holder.id)).statusCode).toBe(204);
    const again = await created({ name: 'Ada' });
    expect(again.id).not.toBe(holder.id);
    expect(again.handle).toBe('ada');
    // The new holder has nothing of the old one's.
    const eventTypes = await asHolder(again.id, { method: 'GET', url: '/api/v1/event-types' });
    expect(eventTypes.json<ListBody<unknown>>().data).toEqual([]);
    expect((await h.request({ method: 'GET', url: '/book/ada' })).statusCode).toBe(404);
  });

  it('when a holder of the account is deleted, then the account’s other holders and keys keep working', async () => {
    const { holder } = await equippedHolder();
    const grace = await created({ name: 'Grace' });
    const graceKey = await holderKey(grace.id);
    expect((await remove(holder.id)).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: '/api/v1/me', token: graceKey })).statusCode).toBe(200);
    expect((await asHolder(grace.id, { method: 'GET', url: '/api/v1/me' })).statusCode).toBe(200);
    expect((await list()).json<ListBody<HolderBody>>().data.map((item) => item.id)).toEqual([grace.id]);
  });
});

describe('/api/v1/holders acting for a holder', () => {
  it('when a holder key, or an account key with Slotwise-Holder, calls any holders route, then 404 as for an unknown route, before the body is read', async () => {
    const holder = await created({ name: 'Ada' });
    const own = await holderKey(holder.id);
    const cliKey = await h.key('solo');
    const routes = [
      { method: 'GET', url: '/api/v1/holders' },
      { method: 'POST', url: '/api/v1/holders', json: { name: 'x', bogus: true } },
      { method: 'GET', url: `/api/v1/holders/${holder.id}` },
      { method: 'PATCH', url: `/api/v1/holders/${holder.id}`, json: { name: '' } },
      { method: 'DELETE', url: `/api/v1/holders/${holder.id}` },
      { method: 'POST', url: `/api/v1/holders/${holder.id}/keys`, json: { scopes: [] } },
      { method: 'GET', url: `/api/v1/holders/${holder.id}/keys` },
      { method: 'DELETE', url: `/api/v1/holders/${holder.id}/keys/key_x` },
    ] as const;
    for (const route of routes) {
      for (const headers of [
        { authorization: `Bearer ${own}` },
        { authorization: `Bearer ${cliKey}` },
        { authorization: `Bearer ${acme}`, 'slotwise-holder': holder.id },
      ]) {
        const res = await h.request({ ...route, headers });
        const problem = expectProblem(res, 404, 'not-found');
        expect(problem.detail).toBe(`No route ${route.method} ${route.url}.`);
      }
    }
    expect((await get(holder.id)).json()).toEqual(holder);
  });
});

describe('a booking of a deleted holder', () => {
  it('when the holder was deleted, then its past booking stays stored with its event type', async () => {
    const holder = await created({ name: 'Ada' });
    const key = await holderKey(holder.id);
    const eventType = await createEventType(h, key, { durationMinutes: 30 });
    const booking: BookingBody = await book(h, key, eventType.id, '2026-01-05T10:00:00Z');
    h.clock.set('2026-01-06T00:00:00Z');
    expect((await remove(holder.id)).statusCode).toBe(204);
    const [row] = await h.database.rows('bookings');
    expect(row).toMatchObject({
      id: booking.id,
      holder_id: holder.id,
      event_type_id: eventType.id,
      status: 'confirmed',
    });
  });
});
