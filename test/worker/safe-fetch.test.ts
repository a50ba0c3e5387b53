// The guarded pipeline every user-given URL goes through (src/worker/safe-fetch.ts), over real
// HTTP on loopback: the guard sits in the connection itself, so no caller has to remember a check;
// the redirect policy (none, or a bounded number, credentials within the first origin only).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isForbiddenAddress } from '../../src/domain/address-guard.js';
import { guardedAgent } from '../../src/worker/guarded-http.js';
import { Deadline, failureKind, SafeFetch, type SafeFetchOptions } from '../../src/worker/safe-fetch.js';
import { request } from 'undici';
import { CalendarServer } from '../support/calendar-server.js';

let server: CalendarServer;
let closers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  server = await CalendarServer.start();
});

afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
  await server.close();
});

function pipeline(options: Partial<SafeFetchOptions> = {}): SafeFetch {
  const made = new SafeFetch({ allowPrivateTargets: true, userAgent: 'test', decompress: true, ...options });
  closers.push(() => made.close());
  return made;
}

const GET = { method: 'GET', headers: {} };
const BASIC = `Basic ${Buffer.from('bob:hunter2').toString('base64')}`;

describe('guardedAgent: the guard inside the connection', () => {
  it.each([['127.0.0.1'], ['[::ffff:127.0.0.1]'], ['2130706433']])(
    'when a request names the literal %s and no caller checked it, then the connection refuses it and nothing is sent',
    async (host) => {
      server.serve('/x', { kind: 'status', status: 200, body: 'reached' });
      const agent = guardedAgent(false);
      closers.push(() => agent.close());
      const sent = request(`http://${host}:${server.port}/x`, { dispatcher: agent });
      await expect(sent).rejects.toThrow('refused to connect to a loopback address');
      expect(server.requests).toHaveLength(0);
    },
  );
});

describe('SafeFetch: redirects', () => {
  it('when no redirect policy is given, then a 3xx answer is returned as it is and its Location is not followed', async () => {
    server.serve('/old', { kind: 'redirect', to: '/new', status: 307 }).serve('/new', { kind: 'status', status: 200 });
    const answer = await pipeline().request(new URL(server.url('/old')), GET, new Deadline(5_000));
    expect(answer.status).toBe(307);
    expect(server.requests.map((seen) => seen.path)).toEqual(['/old']);
  });

  it('when a redirect stays within the origin, then the credentials go along; when it leaves it, they stay behind', async () => {
    server
      .serve('/a', { kind: 'redirect', to: '/b' })
      .serve('/b', { kind: 'redirect', to: server.localhostUrl('/c') })
      .serve('/c', { kind: 'status', status: 200, body: 'here' });
    const outgoing = { method: 'GET', headers: { authorization: BASIC } };
    const answer = await pipeline().request(new URL(server.url('/a')), outgoing, new Deadline(5_000), { max: 5 });
    expect(answer.status).toBe(200);
    expect(server.requests.map((seen) => [seen.path, seen.authorization])).toEqual([
      ['/a', BASIC],
      ['/b', BASIC],
      ['/c', null],
    ]);
  });

  it('when a redirect hop leads to a refused literal address, then it is refused at connect time and never reached', async () => {
    const inner = await CalendarServer.startOn('127.0.0.2');
    closers.push(() => inner.close());
    inner.serve('/x', { kind: 'status', status: 200 });
    server.serve('/a', { kind: 'redirect', to: `http://127.0.0.2:${inner.port}/x` });
    // 127.0.0.1 plays a public host; 127.0.0.2 is loopback as usual.
    const guarded = pipeline({
      allowPrivateTargets: false,
      forbiddenAddress: (address) => address !== '127.0.0.1' && isForbiddenAddress(address),
    });
    const deadline = new Deadline(5_000);
    const failed = await guarded.request(new URL(server.url('/a')), GET, deadline, { max: 5 }).catch((e) => e);
    expect(failureKind(failed, deadline)).toBe('forbidden');
    expect(String(failed)).not.toContain('127.0.0.2');
    expect(inner.requests).toHaveLength(0);
  });
});
