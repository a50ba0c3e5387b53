// One log line per answered request, written by the app's pino logger: what operators search by
// (request id, route pattern, status, duration, key id) and never the key or a body.
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeServer, type Server } from '../../src/server.js';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;
let server: Server;
let lines: string[];

beforeEach(async () => {
  h = await createHarness();
  lines = [];
  const destination = { write: (text: string) => lines.push(...text.split('\n').filter(Boolean)) };
  server = await composeServer(h.storage, { ...h.settings, log: { level: 'info', destination } });
});

afterEach(async () => {
  await server.close();
  await h.close();
});

const requestLines = () =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');

describe('the request log', () => {
  it('when a keyed request is answered, then one JSON line carries pino’s level, time, pid and hostname, the request id, route pattern, status, duration and key id, and not the key', async () => {
    const token = await h.key('alice');
    const before = Date.now();
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/event-types?limit=5',
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'req-1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const me = await h.request({ method: 'GET', url: '/api/v1/me', token });
    const [line, ...more] = requestLines();
    expect(more).toEqual([]);
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: hostname(),
      reqId: 'req-1',
      method: 'GET',
      route: '/api/v1/event-types',
      status: 200,
      ms: expect.any(Number),
      key: me.json<{ key: { id: string } }>().key.id,
      msg: 'request',
    });
    expect(line!.time).toBeGreaterThanOrEqual(before);
    expect(lines.join('\n')).not.toContain(token);
  });

  it('when the request id (sent by the client) holds quotes, backslashes and non-ASCII and no route matches, then the line is still one JSON object carrying it exactly, with a null route and no key', async () => {
    const reqId = 'a"b\\c}{é';
    const res = await server.app.inject({ method: 'POST', url: '/nowhere', headers: { 'x-request-id': reqId } });
    expect(res.statusCode).toBe(404);
    expect(lines).toHaveLength(1);
    const [line] = requestLines();
    expect(line!.reqId).toBe(reqId);
    expect(line!.route).toBeNull();
    expect(line!.status).toBe(404);
    expect('key' in line!).toBe(false);
  });
});
