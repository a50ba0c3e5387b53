import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, PROBLEM_CONTENT_TYPE, expectProblem } from './helpers.js';

let h: Harness;
let token: string;

/** `POST /event-types` with a body sent as the given text. */
const postEventTypeText = (payload: string) =>
  h.request({
    method: 'POST',
    url: '/api/v1/event-types',
    token,
    headers: { 'content-type': 'application/json' },
    payload,
  });

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
});

afterEach(async () => {
  await h.close();
});

const validEventType = JSON.stringify({ title: 'Intro', durationMinutes: 30 });

function expectCleanProblem(res: LightMyRequestResponse): void {
  expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
  const body = res.json<Record<string, unknown>>();
  for (const key of Object.keys(body)) expect(['type', 'title', 'status', 'detail', 'errors']).toContain(key);
  expect(body.type).toMatch(/^urn:service:problem:[a-z-]+$/);
  expect(typeof body.title).toBe('string');
  expect(body.status).toBe(res.statusCode);
  expect(typeof body.detail).toBe('string');
  expect(res.body).not.toMatch(/\bat .+\(.*:\d+:\d+\)|node_modules|\/src\/|\.ts:\d+|stack/i);
}

describe('unknown routes and methods', () => {
  it.each(['/api/v1/nope', '/api/v2/event-types', '/', '/api/v1/event-types/x/y'])(
    'when %s is requested, then 404 not-found problem',
    async (url) => {
      expectProblem(await h.request({ method: 'GET', url, token }), 404, 'not-found');
    },
  );

  it('when an unknown route is requested without a key, then it is still 404 (route before auth)', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/nope' });
    expectProblem(res, 404, 'not-found');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it.each([
    ['PUT', '/api/v1/event-types', ['GET', 'HEAD', 'POST']],
    ['POST', '/api/v1/event-types/evt_x', ['DELETE', 'GET', 'HEAD', 'PATCH']],
    ['DELETE', '/api/v1/availability', ['GET', 'HEAD', 'PUT']],
    ['POST', '/api/v1/slots', ['GET', 'HEAD']],
    ['PATCH', '/api/v1/bookings', ['GET', 'HEAD', 'POST']],
    ['DELETE', '/api/v1/bookings/bkg_x', ['GET', 'HEAD']],
    ['GET', '/api/v1/bookings/bkg_x/cancel', ['POST']],
    ['PUT', '/api/v1/bookings/bkg_x/reschedule', ['POST']],
    ['PATCH', '/api/v1/webhooks', ['GET', 'HEAD', 'POST']],
  ] as const)(
    'when %s %s is requested, then 405 with Allow listing the supported methods',
    async (method, url, allowed) => {
      const res = await h.request({ method, url, token });
      expectProblem(res, 405, 'method-not-allowed');
      const allow = String(res.headers.allow ?? '')
        .split(',')
        .map((m) => m.trim())
        .sort();
      for (const m of allowed) expect(allow).toContain(m);
      expect(allow).not.toContain(method);
    },
  );

  it('when a wrong method is sent without a key, then 405 (route before auth)', async () => {
    const res = await h.request({ method: 'PUT', url: '/api/v1/event-types' });
    expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.allow).toBeDefined();
  });
});

describe('request bodies', () => {
  it('when the JSON is malformed, then 400 invalid-request problem', async () => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      headers: { 'content-type': 'application/json' },
      payload: '{"title": "x", ',
    });
    const problem = expectProblem(res, 400, 'invalid-request');
    expect(problem.title).toBe('Invalid request');
    expectCleanProblem(res);
  });

  it.each([
    ['text/plain', validEventType],
    ['application/x-www-form-urlencoded', 'title=Intro&durationMinutes=30'],
    ['application/xml', '<eventType/>'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('when the body is sent as %s, then 415 unsupported-media-type problem', async (contentType, payload) => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      headers: { 'content-type': contentType },
      payload,
    });
    expectProblem(res, 415, 'unsupported-media-type');
    expectCleanProblem(res);
    const list = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    expect(list.json<{ data: unknown[] }>().data).toEqual([]);
  });

  it('when the JSON content type carries a charset, then it is accepted', async () => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: validEventType,
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('when the body is over 128 KiB, then 413 payload-too-large problem', async () => {
    const payload = JSON.stringify({ title: 'x', durationMinutes: 30, description: 'y'.repeat(129 * 1024) });
    const res = await postEventTypeText(payload);
    expectProblem(res, 413, 'payload-too-large');
    expectCleanProblem(res);
  });

  it('when the body is just under 128 KiB, then it is read (and judged by the schema, not the size)', async () => {
    const payload = JSON.stringify({ title: 'x', durationMinutes: 30, description: 'y'.repeat(127 * 1024) });
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Array<{ field: string }> }>().errors.map((e) => e.field)).toEqual(['description']);
  });

  it('when the body is valid JSON but not an object, then 400 invalid-request', async () => {
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const res = await h.request({
        method: 'POST',
        url: '/api/v1/event-types',
        token,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectProblem(res, 400, 'invalid-request');
    }
  });

  it('when the body carries __proto__, then it is rejected as an unknown field', async () => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      headers: { 'content-type': 'application/json' },
      payload: '{"title":"x","durationMinutes":30,"__proto__":{"polluted":true}}',
    });
    expectProblem(res, 400, 'invalid-request');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the NUL character (U+0000), which PostgreSQL cannot store', () => {
  it('when a body string holds it, then 400 on that field and nothing is written', async () => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      json: { title: 'a\u0000b', durationMinutes: 30 },
    });
    expectProblem(res, 400, 'invalid-request');
    expect(res.json<{ errors: Array<{ field: string }> }>().errors).toEqual([
      { field: 'title', message: 'must not contain the NUL character (U+0000)' },
    ]);
    expect(await h.database.rows('event_types')).toEqual([]);
  });

  it('when a nested body string holds it, then the error names its path', async () => {
    const res = await h.request({
      method: 'PUT',
      url: '/api/v1/availability',
      token,
      json: { timeZone: 'UTC', weekly: { monday: [{ start: '09:00', end: '10:00\u0000' }] } },
    });
    expectProblem(res, 400, 'invalid-request');
    expect(res.json<{ errors: Array<{ field: string }> }>().errors[0]!.field).toBe('weekly.monday[0].end');
  });

  it('when a key holds it after a string value that does not, then the key is named, in document order', async () => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      json: { title: 'fine', 'dura\u0000tion': 30, description: 'a\u0000' },
    });
    expectProblem(res, 400, 'invalid-request');
    expect(res.json<{ errors: Array<{ field: string }> }>().errors[0]!.field).toBe('dura\u0000tion');
  });

  it('when it sits at the bottom of a body nested tens of thousands of levels deep, then 400 (not a 500 from a stack overflow)', async () => {
    const depth = 50_000;
    const payload = `{"title":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)},"durationMinutes":30}`;
    expect(payload.length).toBeLessThan(128 * 1024);
    const res = await postEventTypeText(payload);
    expectProblem(res, 400, 'invalid-request');
    expect(res.json<{ errors: Array<{ field: string }> }>().errors[0]!.field).toBe(`title${'[0]'.repeat(depth)}`);
    expect(await h.database.rows('event_types')).toEqual([]);
  });

  it('when a path id or a query value holds it, then 400 on that parameter', async () => {
    for (const [url, field] of [
      ['/api/v1/event-types/evt_%00', 'id'],
      ['/api/v1/bookings/bkg_%00', 'id'],
      ['/api/v1/bookings?eventTypeId=%00', 'eventTypeId'],
    ] as const) {
      const res = await h.request({ method: 'GET', url, token });
      expectProblem(res, 400, 'invalid-request');
      expect(res.json<{ errors: Array<{ field: string }> }>().errors[0]!.field, url).toBe(field);
    }
  });
});

describe('every error response', () => {
  const cases: Array<[string, InjectOptions & { json?: unknown; noToken?: boolean }]> = [
    ['401 missing key', { method: 'GET', url: '/api/v1/event-types', noToken: true }],
    ['404 unknown route', { method: 'GET', url: '/api/v1/unknown' }],
    ['404 unknown id', { method: 'GET', url: '/api/v1/event-types/evt_unknown' }],
    ['405 wrong method', { method: 'DELETE', url: '/api/v1/event-types' }],
    ['400 validation', { method: 'POST', url: '/api/v1/event-types', json: { durationMinutes: 3 } }],
    ['400 query', { method: 'GET', url: '/api/v1/slots?from=x' }],
    ['400 bad path encoding', { method: 'GET', url: '/api/v1/event-types/%E0%A4%A' }],
    [
      '400 malformed JSON',
      { method: 'POST', url: '/api/v1/webhooks', headers: { 'content-type': 'application/json' }, payload: '{' },
    ],
    [
      '415 text/plain',
      { method: 'POST', url: '/api/v1/webhooks', headers: { 'content-type': 'text/plain' }, payload: 'x' },
    ],
    ['404 unknown booking on cancel', { method: 'POST', url: '/api/v1/bookings/bkg_unknown/cancel' }],
  ];

  it.each(cases)(
    'when the error is %s, then it is a problem document with type/title/status/detail and no stack trace',
    async (_label, options) => {
      const { noToken, ...rest } = options;
      const res = await h.request({ ...rest, ...(noToken ? {} : { token }) });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expectCleanProblem(res);
    },
  );

  it('when a store failure happens, then 500 internal problem without the error message, SQL or stack', async () => {
    const secret = 'SqliteError: no such column: holder_idx in select * from event_types where holder_idx = ?';
    h.store.eventTypes.list = async () => {
      throw new Error(secret);
    };
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
    expectProblem(res, 500, 'internal');
    expectCleanProblem(res);
    expect(res.body).not.toContain('SqliteError');
    expect(res.body).not.toContain('select');
    expect(res.body).not.toContain('holder_idx');
  });

  it('when an error response is sent, then it carries an x-request-id to quote to support', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/event-types/evt_unknown', token });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });
});
