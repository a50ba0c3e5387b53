// Contract §8 / issue 5: a per-key limit per minute with the IETF draft's headers
// (`RateLimit-Policy: "per-key";q=N;w=60`, `RateLimit: "per-key";r=…;t=…`) on every keyed response
// and a 429 rate-limited problem with `Retry-After` past it. Both counters run on both stores:
// the memory counter (one process) and the store counter (shared by instances over PostgreSQL).
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestCounter } from '../../src/app/ports/request-counter.js';
import { MemoryRequestCounter } from '../../src/http/rate-limit.js';
import { LeasedRequestCounter } from '../../src/app/leased-request-counter.js';
import { composeServer, type Server } from '../../src/server.js';
import { createHarness, type Harness } from '../support/harness.js';
import { expectProblem } from './helpers.js';

const LIMIT = 5;
const POLICY = `"per-key";q=${LIMIT};w=60`;
/** 15 s into a minute: 45 s of the window are left. */
const T0 = '2026-01-05T10:00:15.000Z';

let h: Harness;
let server: Server | undefined;
let app: FastifyInstance | undefined;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: T0 });
  token = await h.key('alice');
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  app = undefined;
  await h.close();
});

function request(
  options: { method?: 'GET' | 'POST'; url?: string; token?: string | null; json?: unknown } = {},
): Promise<LightMyRequestResponse> {
  const bearer = options.token === undefined ? token : options.token;
  return app!.inject({
    method: options.method ?? 'GET',
    url: options.url ?? '/api/v1/event-types',
    headers: {
      ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.json === undefined ? {} : { payload: JSON.stringify(options.json) }),
  });
}

/** The `RateLimit` header's remaining (r) and reset (t) values. */
function rateLimit(res: LightMyRequestResponse): { r: number; t: number } {
  const header = res.headers.ratelimit;
  expect(typeof header, JSON.stringify(res.headers)).toBe('string');
  const match = /^"per-key";r=(\d+);t=(\d+)$/.exec(header as string);
  expect(match, String(header)).not.toBeNull();
  return { r: Number(match![1]), t: Number(match![2]) };
}

const COUNTERS: Array<[string, (h: Harness) => RequestCounter]> = [
  ['memory counter', () => new MemoryRequestCounter()],
  ['store counter, leased', (harness) => new LeasedRequestCounter(harness.storage.requestCounts, LIMIT)],
];

describe.each(COUNTERS)('rate limit with the %s', (_name, makeCounter) => {
  beforeEach(async () => {
    server = await composeServer(h.storage, {
      ...h.settings,
      rateLimitPerMinute: LIMIT,
      requestCounter: makeCounter(h),
    });
    app = server.app;
  });

  it('when a keyed request succeeds, then it carries RateLimit-Policy and RateLimit with one request used and the seconds left', async () => {
    const res = await request();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['ratelimit-policy']).toBe(POLICY);
    expect(rateLimit(res)).toEqual({ r: LIMIT - 1, t: 45 });
  });

  it('when a slot list is answered (written straight to the socket), then it carries the headers too', async () => {
    const created = await request({ method: 'POST', json: { title: 'Intro', durationMinutes: 30 } });
    expect(created.statusCode, created.body).toBe(201);
    const query = new URLSearchParams({
      eventTypeId: created.json().id,
      from: '2026-01-06T00:00:00Z',
      to: '2026-01-07T00:00:00Z',
    });
    const slots = await request({ url: `/api/v1/slots?${query}` });
    expect(slots.statusCode, slots.body).toBe(200);
    expect(slots.headers['ratelimit-policy']).toBe(POLICY);
    expect(rateLimit(slots)).toEqual({ r: LIMIT - 2, t: 45 });
  });

  it('when a keyed request answers 404 or 400, then it carries the headers too and counts', async () => {
    const notFound = await request({ url: '/api/v1/bookings/bkg_doesnotexist' });
    expectProblem(notFound, 404, 'not-found');
    expect(notFound.headers['ratelimit-policy']).toBe(POLICY);
    expect(rateLimit(notFound).r).toBe(LIMIT - 1);
    const invalid = await request({ method: 'POST', url: '/api/v1/event-types', json: { title: '' } });
    expectProblem(invalid, 400, 'invalid-request');
    expect(invalid.headers['ratelimit-policy']).toBe(POLICY);
    expect(rateLimit(invalid).r).toBe(LIMIT - 2);
  });

  it('when a read-only key makes POSTs (403), then each counts against it and past the limit they are 429', async () => {
    const readOnly = await h.key('alice', ['read']);
    const post = () =>
      request({
        method: 'POST',
        url: '/api/v1/event-types',
        token: readOnly,
        json: { title: 'x', durationMinutes: 30 },
      });
    for (let i = 1; i <= LIMIT; i++) {
      const refused = await post();
      expectProblem(refused, 403, 'forbidden');
      expect(rateLimit(refused).r).toBe(LIMIT - i);
    }
    const limited = await post();
    expectProblem(limited, 429, 'rate-limited');
    expect(limited.headers['retry-after']).toBeDefined();
    expect(await h.database.rows('event_types')).toEqual([]);
  });

  it('when the request has no key or a wrong key (401), then no rate-limit headers are sent and nothing is counted', async () => {
    for (const bearer of [null, 'sw_unknown']) {
      const res = await request({ token: bearer });
      expectProblem(res, 401, 'unauthorized');
      expect(res.headers['ratelimit-policy']).toBeUndefined();
      expect(res.headers.ratelimit).toBeUndefined();
    }
    expect(rateLimit(await request()).r).toBe(LIMIT - 1);
  });

  it('when the operational endpoints are called, then they carry no rate-limit headers', async () => {
    for (const url of ['/healthz', '/readyz', '/metrics']) {
      const res = await request({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['ratelimit-policy'], url).toBeUndefined();
    }
  });

  it('when the limit is used up, then the next request is 429 rate-limited with Retry-After = seconds left in the window and r=0', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await request();
      expect(res.statusCode, res.body).toBe(200);
      remaining.push(rateLimit(res).r);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    h.clock.set('2026-01-05T10:00:50.200Z');
    const limited = await request();
    const body = expectProblem(limited, 429, 'rate-limited');
    expect(body.title.length).toBeGreaterThan(0);
    expect(limited.headers['retry-after']).toBe('10');
    expect(limited.headers['ratelimit-policy']).toBe(POLICY);
    expect(rateLimit(limited)).toEqual({ r: 0, t: 10 });
  });

  it('when a POST is rate-limited, then it has no effect', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await request()).statusCode).toBe(200);
    const res = await request({
      method: 'POST',
      url: '/api/v1/event-types',
      json: { title: 'Late', durationMinutes: 30 },
    });
    expectProblem(res, 429, 'rate-limited');
    expect(await h.database.rows('event_types')).toEqual([]);
  });

  it('when a new minute starts, then the budget is full again', async () => {
    for (let i = 0; i < LIMIT; i++) await request();
    expect((await request()).statusCode).toBe(429);
    h.clock.set('2026-01-05T10:00:59.999Z');
    expect((await request()).statusCode).toBe(429);
    h.clock.set('2026-01-05T10:01:00.000Z');
    const fresh = await request();
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(rateLimit(fresh)).toEqual({ r: LIMIT - 1, t: 60 });
  });

  it('when one key is limited, then another key (even of the same holder) has its own budget', async () => {
    const other = await h.key('alice');
    const bob = await h.key('bob');
    for (let i = 0; i < LIMIT; i++) await request();
    expect((await request()).statusCode).toBe(429);
    const a = await request({ token: other });
    expect(a.statusCode, a.body).toBe(200);
    expect(rateLimit(a).r).toBe(LIMIT - 1);
    const b = await request({ token: bob });
    expect(b.statusCode, b.body).toBe(200);
    expect(rateLimit(b).r).toBe(LIMIT - 1);
    expect((await request()).statusCode).toBe(429);
  });
});

describe('rate limit turned off', () => {
  it('when perMinute is 0, then no headers are sent and no request is refused', async () => {
    server = await composeServer(h.storage, {
      ...h.settings,
      rateLimitPerMinute: 0,
      requestCounter: new LeasedRequestCounter(h.storage.requestCounts, 0),
    });
    app = server.app;
    for (let i = 0; i < 3 * LIMIT; i++) {
      const res = await request();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['ratelimit-policy']).toBeUndefined();
      expect(res.headers.ratelimit).toBeUndefined();
    }
    expect(await h.database.rows('rate_limit_windows')).toEqual([]);
  });

  it('when the server is composed without a rate limit (the harness), then no headers are sent', async () => {
    for (let i = 0; i < 2 * LIMIT; i++) {
      const res = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBeUndefined();
    }
  });
});
