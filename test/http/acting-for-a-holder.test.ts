// Contract §12, acting for a holder: an account key with `Slotwise-Holder` is treated exactly as
// a key of that holder carrying the account key's scopes; the header is judged before anything
// else (400 for no holder id, 404 for a holder the key may not act for, one answer for each);
// rate limits and Idempotency-Keys count per acting holder.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/app/api-keys.js';
import { composeServer, type Server } from '../../src/server.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, createEventType, expectInvalid, expectProblem } from './helpers.js';

let h: Harness;
let accountKey: string;
let readOnlyAccountKey: string;
let ada: { id: string; token: string };
let bea: { id: string; token: string };
let stranger: { id: string; token: string };

async function holderOf(accountName: string, holderName: string) {
  const { key, token } = await createApiKey(h.context, {
    accountName,
    holderName,
    scopes: ['read', 'write'],
    expiresAt: null,
  });
  return { id: key.holderId!, token };
}

async function accountKeyOf(accountName: string, scopes: Array<'read' | 'write'>) {
  return (await createApiKey(h.context, { accountName, holderName: null, scopes, expiresAt: null })).token;
}

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  ada = await holderOf('acme', 'ada');
  bea = await holderOf('acme', 'bea');
  stranger = await holderOf('globex', 'cy');
  accountKey = await accountKeyOf('acme', ['read', 'write']);
  readOnlyAccountKey = await accountKeyOf('acme', ['read']);
});

afterEach(async () => {
  await h.close();
});

function as(token: string, holder?: string) {
  return (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    json?: unknown,
    headers: Record<string, string> = {},
  ) =>
    h.request({
      method,
      url,
      token,
      headers: { ...(holder === undefined ? {} : { 'slotwise-holder': holder }), ...headers },
      ...(json === undefined ? {} : { json }),
    });
}

describe('Slotwise-Holder', () => {
  it('when an account key names a holder of its account, then it sees and changes exactly what that holder’s own key does', async () => {
    const acting = as(accountKey, ada.id);
    const created = await acting('POST', '/api/v1/event-types', { title: 'Consultation', durationMinutes: 20 });
    expect(created.statusCode, created.body).toBe(201);
    const own = await as(ada.token)('GET', '/api/v1/event-types');
    expect(own.json<{ data: Array<{ id: string }> }>().data.map((t) => t.id)).toEqual([
      created.json<{ id: string }>().id,
    ]);
    const me = (answer: LightMyRequestResponse) => answer.json<{ holder: unknown }>().holder;
    expect(me(await acting('GET', '/api/v1/me'))).toEqual(me(await as(ada.token)('GET', '/api/v1/me')));
    // Her sibling sees none of it.
    expect((await as(bea.token)('GET', '/api/v1/event-types')).json<{ data: unknown[] }>().data).toEqual([]);
  });

  it('when it names a holder of another account, a deleted-looking unknown one, or one of its own with a holder key of another, then 404 not-found, the same answer for each', async () => {
    const answers: LightMyRequestResponse[] = [
      await as(accountKey, stranger.id)('GET', '/api/v1/event-types'),
      await as(accountKey, 'hdr_00000000000000000000')('GET', '/api/v1/event-types'),
      await as(ada.token, bea.id)('GET', '/api/v1/event-types'),
      await as(ada.token, stranger.id)('GET', '/api/v1/event-types'),
    ];
    const bodies = answers.map((answer) => {
      expectProblem(answer, 404, 'not-found');
      return answer.body;
    });
    expect(new Set(bodies).size).toBe(1);
  });

  it('when a holder key names its own holder, then the header changes nothing', async () => {
    const plain = await as(ada.token)('GET', '/api/v1/me');
    const named = await as(ada.token, ada.id)('GET', '/api/v1/me');
    expect(named.statusCode).toBe(200);
    expect(named.json()).toEqual(plain.json());
  });

  it('when the header holds no holder id at all, then 400 with an errors entry on Slotwise-Holder, for every kind of key', async () => {
    for (const value of [
      'ada',
      'evt_00000000000000000000',
      'hdr_0000',
      'HDR_00000000000000000000',
      `${ada.id}, ${bea.id}`,
    ]) {
      for (const token of [accountKey, ada.token]) {
        expectInvalid(await as(token, value)('GET', '/api/v1/event-types'), ['Slotwise-Holder']);
      }
    }
  });

  it('when an unknown or revoked key sends the header, then 401 comes first and says nothing about the holder', async () => {
    const answer = await as('sw_not-a-key', ada.id)('GET', '/api/v1/event-types');
    expectProblem(answer, 401, 'unauthorized');
  });

  it('when a read-only account key acts for a holder, then it may read but not write: the account key’s scopes apply', async () => {
    const acting = as(readOnlyAccountKey, ada.id);
    expect((await acting('GET', '/api/v1/availability')).statusCode).toBe(200);
    expectProblem(
      await acting('POST', '/api/v1/event-types', { title: 'Nope', durationMinutes: 20 }),
      403,
      'forbidden',
    );
  });

  it('when an account key calls what exists once per holder without the header, then 400 on Slotwise-Holder', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/availability'],
      ['PUT', '/api/v1/availability'],
      ['GET', '/api/v1/calendar-sources'],
      ['GET', '/api/v1/busy?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z'],
      ['POST', '/api/v1/me/calendar-feed/rotate'],
    ] as const) {
      const body = method === 'PUT' ? { timeZone: 'UTC', weekly: {}, overrides: [] } : undefined;
      const answer = await as(accountKey)(method, url, body);
      expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBe(400);
      expect(answer.json<{ errors: Array<{ field: string }> }>().errors.map((e) => e.field)).toContain(
        'Slotwise-Holder',
      );
    }
  });
});

describe('Idempotency-Key, per acting holder', () => {
  it('when an account key sends the same Idempotency-Key for two holders, then each gets its own answer; for the same holder again, the replay', async () => {
    const key = { 'idempotency-key': 'onboarding-call-1' };
    const body = { title: 'Onboarding', durationMinutes: 30 };
    const forAda = await as(accountKey, ada.id)('POST', '/api/v1/event-types', body, key);
    const forBea = await as(accountKey, bea.id)('POST', '/api/v1/event-types', body, key);
    expect([forAda.statusCode, forBea.statusCode]).toEqual([201, 201]);
    expect(forBea.headers['idempotent-replayed']).toBeUndefined();
    expect(forBea.json<{ id: string }>().id).not.toBe(forAda.json<{ id: string }>().id);
    const again = await as(accountKey, ada.id)('POST', '/api/v1/event-types', body, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<{ id: string }>().id).toBe(forAda.json<{ id: string }>().id);
    // Bea has exactly one.
    expect((await as(bea.token)('GET', '/api/v1/event-types')).json<{ data: unknown[] }>().data).toHaveLength(1);
  });
});

describe('the rate limit of an account key', () => {
  const LIMIT = 3;
  let limited: Server;

  beforeEach(async () => {
    limited = await composeServer(h.storage, { ...h.settings, rateLimitPerMinute: LIMIT });
  });

  afterEach(async () => {
    await limited.close();
  });

  function call(token: string, holder?: string) {
    return limited.app.inject({
      method: 'GET',
      url: '/api/v1/event-types',
      headers: { authorization: `Bearer ${token}`, ...(holder ? { 'slotwise-holder': holder } : {}) },
    });
  }

  it('when it used up its limit acting for one holder, then it still has its whole limit for another and for account scope', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await call(accountKey, ada.id)).statusCode).toBe(200);
    expectProblem(await call(accountKey, ada.id), 429, 'rate-limited');
    for (let i = 0; i < LIMIT; i++) expect((await call(accountKey, bea.id)).statusCode).toBe(200);
    expectProblem(await call(accountKey, bea.id), 429, 'rate-limited');
    // Account scope (GET /event-types lists the account) counts once more, on its own.
    const accountScope = await call(accountKey);
    expect(accountScope.statusCode).not.toBe(429);
    expect(accountScope.headers['ratelimit']).toMatch(new RegExp(`^"per-key";r=${LIMIT - 1};`));
    // A holder's own key is another key, with its own limit.
    expect((await call(ada.token)).statusCode).toBe(200);
  });
});

describe('a revoked or deleted acting path', () => {
  it('when the account key is revoked, then the next request acting for a holder is 401 at once', async () => {
    const { key, token } = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: null,
      scopes: ['read'],
      expiresAt: null,
    });
    expect((await as(token, ada.id)('GET', '/api/v1/event-types')).statusCode).toBe(200);
    await h.store.transaction((tx) => tx.apiKeys.revoke(key.id, h.clock.current));
    expectProblem(await as(token, ada.id)('GET', '/api/v1/event-types'), 401, 'unauthorized');
  });

  it('when a created event type is made with the header, then the account sees it too (same holder, same data)', async () => {
    const type = await createEventType(h, ada.token, { title: 'Made by Ada' });
    const viaAccount = await as(accountKey, ada.id)('GET', `/api/v1/event-types/${type.id}`);
    expect(viaAccount.statusCode).toBe(200);
    expect(viaAccount.json()).toEqual((await as(ada.token)('GET', `/api/v1/event-types/${type.id}`)).json());
  });
});
