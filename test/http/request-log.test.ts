// The request line is built by hand; it must read as the pino line it replaces.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { requestLogLine } from '../../src/http/request-log.js';

describe('requestLogLine', () => {
  it('when a keyed request is logged, then the line is one JSON object with pino’s level, time, pid and hostname and the request’s fields', () => {
    const before = Date.now();
    const line = requestLogLine({
      reqId: 'req-1',
      method: 'GET',
      route: '/api/v1/slots',
      status: 200,
      ms: 0.52,
      keyId: 'key_abc',
    });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd()).not.toContain('\n');
    const parsed = JSON.parse(line);
    expect(parsed).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: hostname(),
      reqId: 'req-1',
      method: 'GET',
      route: '/api/v1/slots',
      status: 200,
      ms: 0.52,
      key: 'key_abc',
      msg: 'request',
    });
    expect(parsed.time).toBeGreaterThanOrEqual(before);
    expect(parsed.time).toBeLessThanOrEqual(Date.now());
  });

  it('when the request id (sent by the client) holds quotes, backslashes or line breaks, then the line is still one JSON object carrying it exactly', () => {
    const reqId = 'a"b\\c\nd\u2028e';
    const line = requestLogLine({ reqId, method: 'POST', route: null, status: 404, ms: 1, keyId: undefined });
    expect(line.trimEnd()).not.toContain('\n');
    const parsed = JSON.parse(line);
    expect(parsed.reqId).toBe(reqId);
    expect(parsed.route).toBeNull();
    expect('key' in parsed).toBe(false);
  });
});
