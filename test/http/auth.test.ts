import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../src/app/api-keys.js';
import type { Scope } from '../../src/domain/api-key.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, PROBLEM_CONTENT_TYPE, book, createEventType, expectInvalid, expectProblem } from './helpers.js';

type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Every route of spec §4, plus HEAD on each GET route. */
const SPEC_ROUTES: Array<[Method, string]> = [
  ['GET', '/api/v1/event-types'],
  ['POST', '/api/v1/event-types'],
  ['GET', '/api/v1/event-types/evt_x'],
  ['PATCH', '/api/v1/event-types/evt_x'],
  ['DELETE', '/api/v1/event-types/evt_x'],
  ['GET', '/api/v1/availability'],
  ['PUT', '/api/v1/availability'],
  ['GET', '/api/v1/slots'],
  ['GET', '/api/v1/bookings'],
  ['GET', '/api/v1/bookings/bkg_x'],
  ['POST', '/api/v1/bookings'],
  ['POST', '/api/v1/bookings/bkg_x/cancel'],
  ['POST', '/api/v1/bookings/bkg_x/reschedule'],
  ['GET', '/api/v1/webhooks'],
  ['POST', '/api/v1/webhooks'],
  ['DELETE', '/api/v1/webhooks/whk_x'],
];
const ROUTES: Array<[Method, string]> = [
  ...SPEC_ROUTES,
  ...SPEC_ROUTES.filter(([method]) => method === 'GET').map(([, url]): [Method, string] => ['HEAD', url]),
];

const needs = (method: Method): 'read' | 'write' => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');

function call(h: Harness, method: Method, url: string, authorization?: string): Promise<LightMyRequestResponse> {
  const hasBody = method === 'POST' || method === 'PATCH' || method === 'PUT';
  return h.request({
    method,
    url,
    headers: authorization === undefined ? {} : { authorization },
    ...(hasBody ? { json: {} } : {}),
  });
}

function expectAuthProblem(res: LightMyRequestResponse, method: Method, status: number, kind: string): void {
  expect(res.statusCode, res.body).toBe(status);
  if (method === 'HEAD') {
    expect(res.body).toBe('');
    return;
  }
  expectProblem(res, status, kind);
}

describe('scopes per route', () => {
  let h: Harness;
  const tokens = {} as Record<'read' | 'write' | 'star' | 'both', string>;

  beforeAll(async () => {
    h = await createHarness({ now: BEFORE_MONDAY });
    const make = (scopes: Scope[]) =>
      createApiKey(h.context, { accountName: 'alice', holderName: 'alice', scopes, expiresAt: null }).then(
        (k) => k.token,
      );
    tokens.read = await make(['read']);
    tokens.write = await make(['write']);
    tokens.star = await make(['*']);
    tokens.both = await make(['read', 'write']);
  });

  afterAll(async () => {
    await h.close();
  });

  describe.each(ROUTES)('%s %s', (method, url) => {
    const needed = needs(method);
    const lacking = needed === 'read' ? 'write' : 'read';

    it(`when the key has only ${lacking}, then 403 forbidden with an insufficient_scope challenge naming ${needed}`, async () => {
      const res = await call(h, method, url, `Bearer ${tokens[lacking]}`);
      expectAuthProblem(res, method, 403, 'forbidden');
      expect(res.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${needed}"`);
    });

    it.each(['star', 'both', needed] as const)(
      `when the key has %s scope, then it passes authentication and authorisation`,
      async (which) => {
        const res = await call(h, method, url, `Bearer ${tokens[which]}`);
        expect(res.statusCode, res.body).not.toBe(401);
        expect(res.statusCode, res.body).not.toBe(403);
        expect(res.statusCode, res.body).toBeLessThan(500);
        expect(res.headers['www-authenticate']).toBeUndefined();
      },
    );

    it('when no key is sent, then 401 unauthorized with a bare Bearer challenge', async () => {
      const res = await call(h, method, url);
      expectAuthProblem(res, method, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it('when an unknown key is sent, then 401 with error="invalid_token"', async () => {
      const res = await call(h, method, url, 'Bearer sw_notarealkey');
      expectAuthProblem(res, method, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    });
  });
});

describe('authentication', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await createHarness({ now: BEFORE_MONDAY });
  });

  afterEach(async () => {
    await h.close();
  });

  const challengeOf = (res: LightMyRequestResponse) => res.headers['www-authenticate'];

  it('when the key is valid, then requests succeed', async () => {
    const token = await h.key('alice', ['read']);
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    expect(res.statusCode).toBe(200);
  });

  it('when the Authorization header is empty, then 401 with a bare Bearer challenge', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types', headers: { authorization: '' } });
    expectProblem(res, 401, 'unauthorized');
    expect(challengeOf(res)).toBe('Bearer');
  });

  it.each([
    ['another scheme', (t: string) => `Basic ${t}`],
    ['no scheme', (t: string) => t],
    ['the scheme alone', () => 'Bearer'],
    ['two tokens', (t: string) => `Bearer ${t} ${t}`],
    ['a token with illegal characters', (t: string) => `Bearer ${t}!`],
  ])('when the header has %s, then 401 with error="invalid_token"', async (_label, header) => {
    const token = await h.key('alice');
    const res = await h.request({
      method: 'GET',
      url: '/api/v1/event-types',
      headers: { authorization: header(token) },
    });
    expectProblem(res, 401, 'unauthorized');
    expect(challengeOf(res)).toBe('Bearer error="invalid_token"');
  });

  it('when the key is unknown, then 401 with error="invalid_token"', async () => {
    const res = await h.request({
      method: 'GET',
      url: '/api/v1/event-types',
      token: 'sw_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expectProblem(res, 401, 'unauthorized');
    expect(challengeOf(res)).toBe('Bearer error="invalid_token"');
  });

  it('when the key is revoked, then 401 with error="invalid_token" (and it worked before)', async () => {
    const { key, token } = await createApiKey(h.context, {
      accountName: 'alice',
      holderName: 'alice',
      scopes: ['*'],
      expiresAt: null,
    });
    expect((await h.request({ method: 'GET', url: '/api/v1/event-types', token })).statusCode).toBe(200);
    expect(await revokeApiKey(h.context, key.id)).toBe(true);
    for (const method of ['GET', 'POST'] as const) {
      const res = await h.request({
        method,
        url: '/api/v1/event-types',
        token,
        ...(method === 'POST' ? { json: {} } : {}),
      });
      expectProblem(res, 401, 'unauthorized');
      expect(challengeOf(res)).toBe('Bearer error="invalid_token"');
    }
  });

  it('when the key expired before now, then 401 with error="invalid_token"', async () => {
    const { token } = await createApiKey(h.context, {
      accountName: 'alice',
      holderName: 'alice',
      scopes: ['*'],
      expiresAt: Date.parse(BEFORE_MONDAY) - 1,
    });
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    expectProblem(res, 401, 'unauthorized');
    expect(challengeOf(res)).toBe('Bearer error="invalid_token"');
  });

  it('when the clock passes the key’s expiry, then it stops working at exactly that moment', async () => {
    const expiresAt = Date.parse('2026-01-01T01:00:00Z');
    const { token } = await createApiKey(h.context, {
      accountName: 'alice',
      holderName: 'alice',
      scopes: ['*'],
      expiresAt,
    });
    h.clock.set(expiresAt - 1);
    expect((await h.request({ method: 'GET', url: '/api/v1/event-types', token })).statusCode).toBe(200);
    h.clock.set(expiresAt);
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    expectProblem(res, 401, 'unauthorized');
    expect(challengeOf(res)).toBe('Bearer error="invalid_token"');
  });

  it('when one of a holder’s keys is revoked, then the holder’s other keys keep working', async () => {
    const first = await createApiKey(h.context, {
      accountName: 'alice',
      holderName: 'alice',
      scopes: ['*'],
      expiresAt: null,
    });
    const second = await h.key('alice');
    await revokeApiKey(h.context, first.key.id);
    expect((await h.request({ method: 'GET', url: '/api/v1/event-types', token: second })).statusCode).toBe(200);
  });

  it('when two keys belong to the same holder, then they see the same data', async () => {
    const a = await h.key('alice');
    const b = await h.key('alice', ['read']);
    const created = await createEventType(h, a);
    const res = await h.request({ method: 'GET', url: `/api/v1/event-types/${created.id}`, token: b });
    expect(res.statusCode).toBe(200);
  });

  it('when a 401 or 403 is returned, then the body is a problem document', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types' });
    expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
    expect(Object.keys(res.json()).sort()).toEqual(['detail', 'status', 'title', 'type']);
  });
});

describe('check order: route → 401 → 403 → 400 → 404 → 409', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await createHarness({ now: BEFORE_MONDAY });
  });

  afterEach(async () => {
    await h.close();
  });

  it('when the route does not exist, then 404 comes before authentication', async () => {
    expectProblem(await h.request({ method: 'GET', url: '/api/v1/nope' }), 404, 'not-found');
  });

  it('when the key is missing and the body is invalid, then 401', async () => {
    const res = await h.request({ method: 'POST', url: '/api/v1/event-types', json: { durationMinutes: 7 } });
    expectProblem(res, 401, 'unauthorized');
  });

  it('when the key is unknown and the scope would not matter, then 401 not 403', async () => {
    const res = await h.request({ method: 'DELETE', url: '/api/v1/webhooks/whk_x', token: 'sw_unknown' });
    expectProblem(res, 401, 'unauthorized');
  });

  it('when the key lacks the scope and the body is invalid, then 403', async () => {
    const read = await h.key('alice', ['read']);
    expectProblem(
      await h.request({ method: 'POST', url: '/api/v1/event-types', token: read, json: { durationMinutes: 7 } }),
      403,
      'forbidden',
    );
  });

  it('when the key lacks the scope and the body is malformed, too large or not JSON, then 403', async () => {
    const read = await h.key('alice', ['read']);
    const url = '/api/v1/event-types';
    expectProblem(
      await h.request({
        method: 'POST',
        url,
        token: read,
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
      403,
      'forbidden',
    );
    expectProblem(
      await h.request({
        method: 'POST',
        url,
        token: read,
        headers: { 'content-type': 'text/plain' },
        payload: 'hello',
      }),
      403,
      'forbidden',
    );
    expectProblem(
      await h.request({
        method: 'POST',
        url,
        token: read,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ title: 'x'.repeat(200 * 1024) }),
      }),
      403,
      'forbidden',
    );
  });

  it('when the key lacks the scope and the id is unknown, then 403', async () => {
    const read = await h.key('alice', ['read']);
    expectProblem(
      await h.request({ method: 'DELETE', url: '/api/v1/event-types/evt_unknown', token: read }),
      403,
      'forbidden',
    );
    const write = await h.key('alice', ['write']);
    expectProblem(
      await h.request({ method: 'GET', url: '/api/v1/bookings/bkg_unknown', token: write }),
      403,
      'forbidden',
    );
  });

  it('when the body is invalid and the id is unknown, then 400', async () => {
    const token = await h.key('alice');
    expectInvalid(
      await h.request({ method: 'PATCH', url: '/api/v1/event-types/evt_unknown', token, json: { durationMinutes: 7 } }),
      ['durationMinutes'],
    );
    expectInvalid(
      await h.request({ method: 'POST', url: '/api/v1/bookings/bkg_unknown/cancel', token, json: { reason: 1 } }),
      ['reason'],
    );
    expectInvalid(
      await h.request({
        method: 'POST',
        url: '/api/v1/bookings/bkg_unknown/reschedule',
        token,
        json: { start: '2026-01-05T09:00:00' },
      }),
      ['start'],
    );
  });

  it('when the id is unknown and the new time would be unbookable, then 404', async () => {
    const token = await h.key('alice');
    expectProblem(
      await h.request({
        method: 'POST',
        url: '/api/v1/bookings/bkg_unknown/reschedule',
        token,
        json: { start: '2020-01-01T00:00:00Z' },
      }),
      404,
      'not-found',
    );
  });

  it('when the booking is not confirmed and the new time is unbookable, then 409 invalid-state (state before bookability)', async () => {
    const token = await h.key('alice');
    const et = await createEventType(h, token);
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token });
    expectProblem(
      await h.request({
        method: 'POST',
        url: `/api/v1/bookings/${booking.id}/reschedule`,
        token,
        json: { start: '2020-01-01T00:00:00Z' },
      }),
      409,
      'invalid-state',
    );
  });
});
