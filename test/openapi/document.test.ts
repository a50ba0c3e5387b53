// GET /api/v1/openapi.json: generated from the routes, complete, and true to what the API does.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_TYPES } from '../../src/http/problems.js';
import { createHarness, type Harness } from '../support/harness.js';

const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

type Json = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Json;
}

const API = '/api/v1';
const BODY_METHODS = new Set(['post', 'put', 'patch']);
const ALWAYS = ['400', '401', '403', '429', '500', '503'];

/** Every `METHOD /path` the app routes, from Fastify's own route tree (`:id` written `{id}`), HEAD left out. */
function routesOf(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^(.*?)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const segment = match[2]!;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + segment;
    stack[depth] = path;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes;
}

function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      if (['get', 'put', 'post', 'patch', 'delete'].includes(method)) operations.push({ method, path, op: op as Json });
    }
  }
  return operations;
}

const fill = (path: string) => path.replace(/\{[^}]+\}/g, 'x_unknown');

let h: Harness;
let document: Json;
let operations: Operation[];

beforeAll(async () => {
  h = await createHarness({ now: '2026-01-01T00:00:00Z' });
  // A route added to the API the way any later one would be, knowing nothing about OpenAPI: it must
  // get its security, scope, problem responses, tag and operationId all the same.
  h.app.get(
    `${API}/probe-widgets/:id`,
    { schema: { params: Type.Object({ id: Type.String() }), response: { 200: Type.Object({ id: Type.String() }) } } },
    async (request) => ({ id: (request.params as { id: string }).id }),
  );
  const res = await h.request({ method: 'GET', url: `${API}/openapi.json` });
  expect(res.statusCode, res.body).toBe(200);
  document = res.json();
  operations = operationsOf(document);
});

afterAll(async () => {
  await h?.close();
});

describe('GET /api/v1/openapi.json', () => {
  it('is served without a key as OpenAPI 3.1 JSON with title, version, contact, license and the bearer scheme', async () => {
    const res = await h.request({ method: 'GET', url: `${API}/openapi.json` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Slotwise API');
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(document.info.contact).toBeDefined();
    expect(document.info.license.name).toBe('MIT');
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes exactly the API routes of the app (none outside /api/v1, not itself)', () => {
    const routed = routesOf(h.app);
    expect(routed).toContain('POST /api/v1/bookings'); // the route tree was read
    expect(routed).toContain('GET /docs');
    const api = routed.filter((r) => r.split(' ')[1]!.startsWith(`${API}/`) && !r.endsWith('/openapi.json'));
    const documented = operations.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect([...documented].sort()).toEqual([...new Set(api)].sort());
  });

  it('gives every operation a unique operationId, a tag, a summary and a description', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tagNames = (document.tags as Json[]).map((t) => t.name);
    for (const { method, path, op } of operations) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.tags?.length, where).toBeGreaterThan(0);
      for (const tag of op.tags) expect(tagNames, where).toContain(tag);
      expect(op.summary, where).toBeTruthy();
      expect(op.description, where).toBeTruthy();
    }
    expect(operations.find((o) => o.path === `${API}/bookings` && o.method === 'post')?.op.operationId).toBe(
      'createBooking',
    );
  });

  it('gives every operation the bearer requirement and its scope, matching the method rule', () => {
    for (const { method, path, op } of operations) {
      const scope = method === 'get' ? 'read' : 'write';
      expect(op.security, `${method} ${path}`).toEqual([{ bearer: [] }]);
      expect(op['x-scope'], `${method} ${path}`).toBe(scope);
      expect(op.description, `${method} ${path}`).toContain(`\`${scope}\` scope`);
    }
  });

  it('documents Slotwise-Holder once, as a reusable header parameter with the holder id pattern', () => {
    const parameter = document.components.parameters.SlotwiseHolder;
    expect(parameter).toMatchObject({ name: 'Slotwise-Holder', in: 'header', required: false });
    expect(new RegExp(parameter.schema.pattern).test('hdr_0k3m9x2q7v5t1w8r4y6z')).toBe(true);
    expect(new RegExp(parameter.schema.pattern).test('evt_0k3m9x2q7v5t1w8r4y6z')).toBe(false);
  });

  it('documents the problem responses each operation can give, as application/problem+json', () => {
    for (const { method, path, op } of operations) {
      const where = `${method} ${path}`;
      // 404 everywhere: Slotwise-Holder can name no holder the key may act for.
      const expected = [...ALWAYS, '404'];
      if (BODY_METHODS.has(method)) expected.push('413', '415');
      if (method === 'post') expected.push('409', '422');
      for (const status of expected) {
        const response = op.responses[status];
        expect(response, `${where} ${status}`).toBeDefined();
        expect(response.content['application/problem+json'].schema, `${where} ${status}`).toEqual({
          $ref: '#/components/schemas/Problem',
        });
        expect(response.description.length, `${where} ${status}`).toBeGreaterThan(10);
      }
      expect(op.parameters, where).toContainEqual({ $ref: '#/components/parameters/SlotwiseHolder' });
      expect(op.responses['401'].headers['WWW-Authenticate'], where).toBeDefined();
      expect(op.responses['429'].headers['Retry-After'], where).toBeDefined();
      if (method === 'post') {
        expect(
          op.parameters.map((p: Json) => p.name),
          where,
        ).toContain('Idempotency-Key');
      }
    }
  });

  it("lists each route's own 409 problem types", () => {
    const conflicts = (method: string, path: string) =>
      Object.keys(
        operations.find((o) => o.method === method && o.path === `${API}${path}`)!.op.responses['409'].content[
          'application/problem+json'
        ].examples,
      );
    expect(conflicts('post', '/bookings')).toContain('slot-unavailable');
    expect(conflicts('post', '/bookings/{id}/cancel')).toContain('invalid-state');
    expect(conflicts('post', '/bookings/{id}/reschedule')).toEqual(
      expect.arrayContaining(['slot-unavailable', 'invalid-state']),
    );
    expect(conflicts('post', '/event-types')).toContain('conflict');
    expect(conflicts('patch', '/event-types/{id}')).toEqual(['conflict']);
    for (const { method, op } of operations)
      if (method === 'post')
        expect(Object.keys(op.responses['409'].content['application/problem+json'].examples)).toContain(
          'idempotency-conflict',
        );
  });

  it('names every problem type of the API, with its status', () => {
    const examples = new Set<string>();
    for (const { op } of operations) {
      for (const response of Object.values(op.responses as Record<string, Json>)) {
        for (const name of Object.keys(response.content?.['application/problem+json']?.examples ?? {}))
          examples.add(name);
      }
    }
    for (const [kind, { status }] of Object.entries(PROBLEM_TYPES)) {
      expect(document.info.description).toContain(`| ${status} | \`urn:service:problem:${kind}\``);
      // Not answers of an API operation: 405 is a method the path does not have, 503 is /readyz's.
      if (kind !== 'method-not-allowed' && kind !== 'unavailable') expect(examples, kind).toContain(kind);
    }
  });

  it('names the shared schemas after their $id, refers to them by $ref, and leaves out the validator hints', () => {
    const names = Object.keys(document.components.schemas);
    expect(names).toEqual([
      'Problem',
      'Location',
      'EventType',
      'CreateEventType',
      'UpdateEventType',
      'Availability',
      'AvailabilityInput',
      'Schedule',
      'ScheduleInput',
      'Booking',
      'CreateBooking',
      'UpdateBooking',
      'CancelBooking',
      'RescheduleBooking',
      'Notification',
      'Hold',
      'CreateHold',
      'UpdateMe',
      'HolderMe',
      'AccountMe',
      'Me',
      'Holder',
      'CreateHolder',
      'UpdateHolder',
      'HolderKey',
      'HolderKeyWithSecret',
      'CreateHolderKey',
      'Instant',
      'Webhook',
      'WebhookWithSecret',
      'CreateWebhook',
      'UpdateWebhook',
      'WebhookDelivery',
      'CalendarSource',
      'CreateCalendarSource',
      'UpdateCalendarSource',
      'BusyInterval',
    ]);
    const text = JSON.stringify(document);
    for (const [, target] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g))
      expect(names).toContain(target);
    expect(document.components.schemas.CreateBooking.properties.start).toEqual({
      $ref: '#/components/schemas/Instant',
    });
    const booking = operations.find((o) => o.method === 'get' && o.path === `${API}/bookings/{id}`)!.op;
    expect(booking.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Booking',
    });
    expect(text).not.toContain('x-message');
  });

  it('derives all of it for a route added without any OpenAPI metadata', () => {
    const probe = operations.find((o) => o.path === `${API}/probe-widgets/{id}`);
    expect(probe).toBeDefined();
    expect(probe!.op).toMatchObject({
      operationId: 'getProbeWidgetsById',
      tags: ['Probe widgets'],
      security: [{ bearer: [] }],
      'x-scope': 'read',
    });
    expect(Object.keys(probe!.op.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '500', '503']);
  });
});

describe('the scopes in the document', () => {
  it('are the ones the server enforces: the other scope gets 403 naming it, no key 401', async () => {
    const readOnly = await h.key('scope-reader', ['read']);
    const writeOnly = await h.key('scope-writer', ['write']);
    // The probe route of beforeAll sits outside the API's authenticated scope: it is only there for the document.
    for (const { method, path, op } of operations.filter((o) => !o.path.includes('probe-widgets'))) {
      const url = fill(path);
      const json = BODY_METHODS.has(method) ? {} : undefined;
      const m = method.toUpperCase() as 'GET';
      const wrong = op['x-scope'] === 'read' ? writeOnly : readOnly;
      const denied = await h.request({ method: m, url, token: wrong, json });
      expect(denied.statusCode, `${method} ${path} with the other scope`).toBe(403);
      expect(denied.headers['www-authenticate']).toContain(`scope="${op['x-scope']}"`);
      const right = op['x-scope'] === 'read' ? readOnly : writeOnly;
      const allowed = await h.request({ method: m, url, token: right, json });
      expect([401, 403], `${method} ${path} with its scope`).not.toContain(allowed.statusCode);
      const anonymous = await h.request({ method: m, url, json });
      expect(anonymous.statusCode, `${method} ${path} without a key`).toBe(401);
    }
  });
});

describe('the schemas in the document', () => {
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();

  beforeAll(() => {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const format of ['instant-with-offset', 'instant-with-offset-or-epoch-ms', 'iana-time-zone'])
      ajv.addFormat(format, true);
  });

  /** Checks a real answer against the document: its status is documented for the operation, with this media type and schema. */
  function conforms(method: string, path: string, res: LightMyRequestResponse): void {
    const where = `${method} ${path} → ${res.statusCode}: ${res.body}`;
    const op = operations.find((o) => o.method === method && o.path === path)?.op;
    expect(op, where).toBeDefined();
    const response = op!.responses[String(res.statusCode)];
    expect(response, `undocumented status: ${where}`).toBeDefined();
    if (!response.content) {
      expect(res.body, where).toBe('');
      return;
    }
    const mediaType = String(res.headers['content-type']).split(';')[0]!;
    const media = response.content[mediaType];
    expect(media, `undocumented media type ${mediaType}: ${where}`).toBeDefined();
    const key = `${method} ${path} ${res.statusCode} ${mediaType}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ ...media.schema, components: document.components });
      validators.set(key, validate);
    }
    expect(validate(res.json()), `${where}\n${JSON.stringify(validate.errors)}`).toBe(true);
  }

  it('match what the API answers, success and problems alike', async () => {
    const token = await h.key('schemas');
    const seen = new Set<number>();
    const call = async (method: string, path: string, url: string, json?: unknown, extra: Json = {}) => {
      const res = await h.request({ method: method.toUpperCase() as 'GET', url, token, json, ...extra });
      conforms(method, path, res);
      seen.add(res.statusCode);
      return res;
    };

    const eventType = (
      await call('post', `${API}/event-types`, `${API}/event-types`, { title: 'Intro', durationMinutes: 30 })
    ).json();
    await call('post', `${API}/event-types`, `${API}/event-types`, {
      title: 'Again',
      durationMinutes: 30,
      slug: eventType.slug,
    });
    await call('get', `${API}/event-types`, `${API}/event-types`);
    await call('get', `${API}/event-types/{id}`, `${API}/event-types/${eventType.id}`);
    await call('patch', `${API}/event-types/{id}`, `${API}/event-types/${eventType.id}`, { bufferAfterMinutes: 10 });
    await call('patch', `${API}/event-types/{id}`, `${API}/event-types/${eventType.id}`, { durationMinutes: 7 });
    await call('get', `${API}/availability`, `${API}/availability`);
    await call('put', `${API}/availability`, `${API}/availability`, {
      timeZone: 'Europe/Berlin',
      weekly: { monday: [{ start: '09:00', end: '12:00' }] },
      overrides: [{ date: '2026-01-12', intervals: [] }],
    });
    await call(
      'get',
      `${API}/slots`,
      `${API}/slots?eventTypeId=${eventType.id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z&timeZone=Europe/Berlin`,
    );
    await call(
      'get',
      `${API}/slots`,
      `${API}/slots?eventTypeId=${eventType.id}&from=2026-01-05T00:00:00&to=2026-01-06T00:00:00Z`,
    );

    const guest = { eventTypeId: eventType.id, guestName: 'Ada', guestEmail: 'ada@example.com' };
    const booking = (
      await call('post', `${API}/bookings`, `${API}/bookings`, { ...guest, start: '2026-01-05T09:00:00+01:00' })
    ).json();
    await call('post', `${API}/bookings`, `${API}/bookings`, { ...guest, start: '2026-01-05T09:00:00+01:00' });
    await call('get', `${API}/bookings`, `${API}/bookings?from=2026-01-05T00:00:00Z`);
    await call('get', `${API}/bookings/{id}`, `${API}/bookings/${booking.id}`);
    await call('get', `${API}/bookings/{id}`, `${API}/bookings/bkg_nope`);
    const moved = (
      await call('post', `${API}/bookings/{id}/reschedule`, `${API}/bookings/${booking.id}/reschedule`, {
        start: '2026-01-05T10:00:00+01:00',
      })
    ).json();
    await call('post', `${API}/bookings/{id}/cancel`, `${API}/bookings/${booking.id}/cancel`);
    await call('post', `${API}/bookings/{id}/cancel`, `${API}/bookings/${moved.id}/cancel`, { reason: 'ill' });

    const webhook = (
      await call('post', `${API}/webhooks`, `${API}/webhooks`, { url: 'https://hooks.example.com/slotwise' })
    ).json();
    await call('get', `${API}/webhooks`, `${API}/webhooks`);
    await call('get', `${API}/webhooks/{id}`, `${API}/webhooks/${webhook.id}`);
    await call('patch', `${API}/webhooks/{id}`, `${API}/webhooks/${webhook.id}`, { description: 'CRM' });
    const delivery = (await call('post', `${API}/webhooks/{id}/test`, `${API}/webhooks/${webhook.id}/test`)).json();
    await call('get', `${API}/webhooks/{id}/deliveries`, `${API}/webhooks/${webhook.id}/deliveries`);
    await call(
      'post',
      `${API}/webhooks/{id}/deliveries/{deliveryId}/retry`,
      `${API}/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`,
    );
    await call('delete', `${API}/webhooks/{id}`, `${API}/webhooks/${webhook.id}`);
    await call('delete', `${API}/event-types/{id}`, `${API}/event-types/${eventType.id}`);

    // Transport-level problems.
    await call('post', `${API}/event-types`, `${API}/event-types`, undefined, {
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    await call('post', `${API}/event-types`, `${API}/event-types`, {
      title: 'x'.repeat(200 * 1024),
      durationMinutes: 30,
    });
    conforms('get', `${API}/bookings`, await h.request({ method: 'GET', url: `${API}/bookings` }));
    conforms('get', `${API}/slots`, await h.request({ method: 'GET', url: `${API}/slots`, token: 'sw_not_a_key' }));
    expect([...seen].sort()).toEqual([200, 201, 202, 204, 400, 404, 409, 413, 415]);
  });
});
