// Contract §8: requests that fail authentication (401) are limited per client address
// (`AUTH_FAILURE_RATE_LIMIT_PER_MINUTE`); past the limit, 429 with `Retry-After`, before any key
// is looked up. Keyed requests and the keyless routes are not affected.
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PerMinuteLimit } from '../../src/http/per-minute-limit.js';
import { composeServer, type Server } from '../../src/server.js';
import { createHarness, type Harness } from '../support/harness.js';
import { expectProblem } from './helpers.js';

const LIMIT = 3;
/** 15 s into a minute: 45 s of the window are left. */
const T0 = '2026-01-05T10:00:15.000Z';

let h: Harness;
let server: Server;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: T0 });
  token = await h.key('alice');
  server = await composeServer(h.storage, { ...h.settings, authFailuresPerMinute: LIMIT, trustProxy: true });
});

afterEach(async () => {
  await server.close();
  await h.close();
});

function from(address: string, bearer: string | null, url = '/api/v1/event-types'): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method: 'GET',
    url,
    headers: { 'x-forwarded-for': address, ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }) },
  });
}

describe('failed authentication per client address', () => {
  it('when an address has failed the limit of times this minute, then its next request is 429 with Retry-After, whatever key it sends, and the key is not looked up', async () => {
    for (const bearer of [null, 'sw_wrong', 'sw_also-wrong'])
      expectProblem(await from('203.0.113.7', bearer), 401, 'unauthorized');
    let lookups = 0;
    const findByDigest = h.store.apiKeys.findByDigest.bind(h.store.apiKeys);
    h.store.apiKeys.findByDigest = async (digest) => {
      lookups++;
      return findByDigest(digest);
    };
    const limited = await from('203.0.113.7', 'sw_fourth-guess');
    expectProblem(limited, 429, 'rate-limited');
    expect(limited.headers['retry-after']).toBe('45');
    expect((await from('203.0.113.7', token)).statusCode).toBe(429);
    expect(lookups).toBe(0);
  });

  it('when one address is limited, then other addresses and the keyless routes are not', async () => {
    for (let i = 0; i < LIMIT; i++) await from('203.0.113.7', 'sw_wrong');
    expect((await from('203.0.113.7', 'sw_wrong')).statusCode).toBe(429);
    expect((await from('198.51.100.1', token)).statusCode).toBe(200);
    expectProblem(await from('198.51.100.1', 'sw_wrong'), 401, 'unauthorized');
    for (const url of ['/healthz', '/readyz', '/api/v1/openapi.json']) {
      expect((await from('203.0.113.7', null, url)).statusCode, url).toBe(200);
    }
  });

  it('when a request with a valid key succeeds, then it does not count; a new minute starts the count afresh', async () => {
    for (let i = 0; i < 10; i++) expect((await from('203.0.113.7', token)).statusCode).toBe(200);
    for (let i = 0; i < LIMIT; i++) await from('203.0.113.7', 'sw_wrong');
    expect((await from('203.0.113.7', token)).statusCode).toBe(429);
    h.clock.set('2026-01-05T10:01:00.000Z');
    expect((await from('203.0.113.7', token)).statusCode).toBe(200);
  });
});

describe('PerMinuteLimit, per address', () => {
  it('when more addresses fail than it counts separately, then the rest share one count and the map stays within its bound', () => {
    const limit = new PerMinuteLimit(2, () => Date.parse(T0), 'share', 3);
    for (let i = 0; i < 1000; i++) limit.record(`192.0.2.${i % 250}.${i}`);
    expect(limit.trackedKeys).toBeLessThanOrEqual(4);
    // An address first seen now is judged by the shared count, long past the limit.
    expect(limit.retryAfterSeconds('198.51.100.9')).toBe(45);
  });
});
