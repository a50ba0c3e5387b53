// Generated junk against every write endpoint and the list/slot query strings. Whatever arrives,
// the API must answer without a 5xx, every non-2xx answer must be an RFC 9457 problem document
// whose `status` is the HTTP status, and a rejected request must leave the store exactly as it was
// (checked by dumping every table through a second connection, on SQLite and PostgreSQL alike).
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/http/build-app.js';
import { testStoreKind } from '../support/databases.js';
import { createHarness, type Harness } from '../support/harness.js';

// FUZZ_RUNS=<n> searches harder (the default keeps the file to a few seconds).
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
// FUZZ_SEED=<seed> replays a reported failure.
if (process.env.FUZZ_SEED) fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED) });
const NOW = '2026-01-01T00:00:00Z';
/** Tables that must exist; any table added later is compared too (see `tablesOf`). */
const REQUIRED_TABLES = [
  'holders',
  'event_types',
  'schedules',
  'bookings',
  'webhooks',
  'webhook_events',
  'webhook_deliveries',
];
let tables: string[] = [];
/**
 * Reads every row of a table through a connection of its own, as an operator would. On SQLite
 * that is `h.database.rows` (a read-only file handle per call, cheap). On PostgreSQL a new
 * connection per table per snapshot costs ~16 ms, ~40 s per property here: one client, held for
 * the file, reads the same committed rows the same way (`select *`, int8 as strings).
 */
let readRows: (table: string) => Promise<Array<Record<string, unknown>>>;
let pgReader: pg.Client | undefined;

let h: Harness;
let token: string;
let eventTypeId: string;
let webhookId: string;
let scheduleId: string;
let cancelTargetId: string;
let rescheduleTargetId: string;

// ---- the store, table by table

/**
 * Every application table: the migrations' bookkeeping and the API keys (no write endpoint touches
 * them) aside. Read from the engine's catalogue through the same second connection as the rows, so
 * a table added later is compared without editing this file.
 */
async function tablesOf(): Promise<string[]> {
  const names =
    testStoreKind() === 'postgres'
      ? (await h.database.rows('pg_tables')).filter((r) => r.schemaname === 'public').map((r) => String(r.tablename))
      : (await h.database.rows('sqlite_master')).filter((r) => r.type === 'table').map((r) => String(r.name));
  return names
    .filter((name) => !name.startsWith('sqlite_') && !name.startsWith('kysely_') && name !== 'api_keys')
    .sort();
}

/** Per table, every row as JSON, sorted: comparing two snapshots ignores row order only. */
type Snapshot = Record<string, string[]>;

/**
 * A row as JSON. better-sqlite3 gives integers as numbers; a raw pg client gives int8 (the instant
 * columns) as decimal strings, and a driver set to BigInt would make JSON.stringify throw: bigints
 * become their decimal string. Both snapshots of a comparison come through the same driver, so any
 * changed value still changes the JSON.
 */
function rowJson(row: Record<string, unknown>): string {
  return JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

async function snapshot(): Promise<Snapshot> {
  const result: Snapshot = {};
  for (const table of tables) {
    result[table] = (await readRows(table)).map(rowJson).sort();
  }
  return result;
}

async function expectUnchanged(before: Snapshot, context: string): Promise<void> {
  const after = await snapshot();
  for (const table of tables) {
    const was = before[table]!;
    const is = after[table]!;
    if (was.length === is.length && was.every((row, i) => row === is[i])) continue;
    const gone = was.filter((row) => !is.includes(row));
    const added = is.filter((row) => !was.includes(row));
    expect.fail(
      `${context}: table ${table} changed.\nrows gone:\n${gone.join('\n')}\nrows added:\n${added.join('\n')}`,
    );
  }
}

// ---- building requests

/** Stands for a raw JSON fragment (possibly not JSON at all) inside a JSON.stringify'd body. */
const MARK = '\u0002MARK\u0002';
/** Stands for invalid UTF-8 bytes in the final payload. */
const BAD_BYTES_MARK = '\u0003BYTES\u0003';
const BAD_BYTES = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xc0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80]);

function toPayload(text: string): Buffer {
  const parts = text.split(BAD_BYTES_MARK).map((part) => Buffer.from(part, 'utf8'));
  const pieces: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) pieces.push(BAD_BYTES);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

interface Body {
  /** Raw payload; undefined sends no body at all. */
  payload: Buffer | undefined;
  /** Content-Type header; undefined sends none. */
  contentType: string | undefined;
  label: string;
}

/** Counterexamples print as a short description, not as a 200 KB buffer. */
function makeBody(payload: Buffer | undefined, contentType: string | undefined, label: string): Body {
  const text = () =>
    `${label} [${contentType ?? 'no content-type'}, ${payload?.length ?? 'no'} bytes${
      payload && payload.length <= 400 ? `: ${JSON.stringify(payload.toString('utf8'))}` : ''
    }]`;
  return { payload, contentType, label, [fc.toStringMethod]: text } as Body;
}

const BAD_DATES = [
  '2026-02-30T10:00:00Z',
  '2026-13-01T10:00:00Z',
  '2026-01-05T25:00:00Z',
  '2026-01-05T10:60:00Z',
  '2026-01-05T10:00:00',
  '2026-01-05 10:00:00Z',
  '2026-01-05',
  '20260105T100000Z',
  '2026-01-05T10:00:00+25:00',
  '2026-01-05T10:00:00+01:00[Europe/Berlin]',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '10000-01-01T00:00:00Z',
  '2026-01-05T10:00:00.1234567890Z',
  'now',
  'tomorrow',
  'Mon, 05 Jan 2026 10:00:00 GMT',
  '0',
  '-1',
  '1.5',
  '1e3',
  '9999999999999999',
  '99999999999999999999',
  '',
  ' ',
];

/** Raw JSON fragments: junk of every kind, some of it not JSON at all. */
const fragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'NaN',
      'Infinity',
      '-Infinity',
      '1e400',
      '-1e400',
      '1e-400',
      '-0',
      '0x1F',
      '01',
      '+1',
      '.5',
      '5.',
      'undefined',
      "'single'",
      '"NaN"',
      '"Infinity"',
      '"30"',
      '30.0',
      '30.5',
      '-30',
      '1441',
      '9007199254740993',
      '1e2',
      '[]',
      '{}',
      '[null]',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '"__proto__"',
      '"constructor"',
      '"\\u0000"',
      '"\\ud800"',
      '"\\udfff\\ud800"',
      '"\\x41"',
      `"${BAD_BYTES_MARK}"`,
      BAD_BYTES_MARK,
      '',
      ',',
      '}',
      '"unterminated',
      'true false',
      '<xml/>',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom(...BAD_DATES).map((d) => JSON.stringify(d)) },
  {
    weight: 1,
    // Huge strings, around and above the 128 KiB body limit.
    arbitrary: fc
      .tuple(
        fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 60_000, max: 200_000 })),
        fc.constantFrom('x', 'é', '😀', '\\n', '\\u0000', '\\"', '<', '%'),
      )
      .map(([n, c]) => `"${c.repeat(Math.max(1, Math.floor(n / c.length)))}"`),
  },
  {
    weight: 1,
    // Deep nesting, balanced or not.
    arbitrary: fc
      .tuple(
        fc.integer({ min: 1, max: 20_000 }),
        fc.constantFrom('array', 'object', 'open-array', 'open-object', 'mixed'),
      )
      .map(([n, kind]) => {
        switch (kind) {
          case 'array':
            return '['.repeat(n) + ']'.repeat(n);
          case 'object':
            return '{"a":'.repeat(n) + '1' + '}'.repeat(n);
          case 'open-array':
            return '['.repeat(n);
          case 'open-object':
            return '{"a":'.repeat(n);
          default:
            return '[{"a":'.repeat(n) + 'null' + '}]'.repeat(n);
        }
      }),
  },
);

const unknownKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'id',
    'holderId',
    'status',
    '',
    ' ',
    'Title',
    'title ',
  ),
  fc.string({ maxLength: 20 }),
);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = Array<string | number>;

/** Every path inside a value (objects and arrays included, the root excluded). */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  const paths: Path[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => paths.push([...prefix, i], ...pathsOf(item, [...prefix, i])));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) paths.push([...prefix, key], ...pathsOf(item, [...prefix, key]));
  }
  return paths;
}

function containerPaths(value: Json): Path[] {
  return [[], ...pathsOf(value)].filter((p) => {
    const v = at(value, p);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });
}

function at(value: Json, path: Path): Json {
  let current: Json = value;
  for (const segment of path) current = (current as Record<string | number, Json>)[segment]!;
  return current;
}

type Mutation =
  | { kind: 'replace'; path: Path; fragment: string }
  | { kind: 'delete'; path: Path }
  | { kind: 'add'; path: Path; key: string; fragment: string }
  | { kind: 'duplicate'; path: Path; fragment: string };

/** One field of a valid body changed, removed, duplicated, or one unknown field added, at any depth. */
function mutation(base: Json): fc.Arbitrary<Mutation> {
  const leaves = pathsOf(base);
  const objects = containerPaths(base);
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({ kind: fc.constant('replace' as const), path: fc.constantFrom(...leaves), fragment }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...leaves) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        path: fc.constantFrom(...objects),
        key: unknownKey,
        fragment,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('duplicate' as const),
        path: fc.constantFrom(...leaves.filter((p) => typeof p[p.length - 1] === 'string')),
        fragment,
      }),
    },
  );
}

function applyMutation(base: Json, m: Mutation): string {
  const copy = structuredClone(base) as Json;
  let replacement = '';
  if (m.kind === 'duplicate') {
    // A JSON text with the same key twice, the junk one last (JSON.parse keeps the last).
    const parent = at(copy, m.path.slice(0, -1)) as Record<string, Json>;
    const key = m.path[m.path.length - 1] as string;
    parent[key] = MARK;
    const text = JSON.stringify(copy);
    return text.replace(
      JSON.stringify(MARK),
      `${JSON.stringify(at(base, m.path))},${JSON.stringify(key)}:${m.fragment}`,
    );
  }
  if (m.kind === 'replace') {
    const parent = at(copy, m.path.slice(0, -1)) as Record<string | number, Json>;
    parent[m.path[m.path.length - 1]!] = MARK;
    replacement = m.fragment;
  } else if (m.kind === 'delete') {
    const parent = at(copy, m.path.slice(0, -1));
    const last = m.path[m.path.length - 1]!;
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete (parent as Record<string, Json>)[last as string];
  } else {
    const parent = at(copy, m.path) as Record<string, Json>;
    // defineProperty, so that `__proto__` becomes an own key JSON.stringify writes out.
    Object.defineProperty(parent, m.key, { value: MARK, enumerable: true, configurable: true, writable: true });
    replacement = m.fragment;
  }
  // A function replacement: fragments may contain `$` patterns.
  return JSON.stringify(copy).replace(JSON.stringify(MARK), () => replacement);
}

const jsonContentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'application/json, text/plain',
      'application/jsonx',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/problem+json',
      '*/*',
      ';;;',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** A junk body for an endpoint whose valid body is `base`. */
function bodyFor(base: Json): fc.Arbitrary<Body> {
  const text: fc.Arbitrary<{ text: string; label: string }> = fc.oneof(
    {
      weight: 8,
      arbitrary: mutation(base).map((m) => ({
        text: applyMutation(base, m),
        label: `mutation ${JSON.stringify(m).slice(0, 160)}`,
      })),
    },
    { weight: 2, arbitrary: fragment.map((f) => ({ text: f, label: `whole body ${f.slice(0, 200)}` })) },
    {
      weight: 1,
      // The valid body padded with an unknown field of any size: the limit, not the schema, decides.
      arbitrary: fc.integer({ min: 120_000, max: 140_000 }).map((n) => ({
        text: applyMutation(base, { kind: 'add', path: [], key: 'padding', fragment: `"${'p'.repeat(n)}"` }),
        label: `padded to ${n}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', ' ', '\n\t', 'null', '0', '""', '[]', '{}', '{"":""}', '\uFEFF{}')
        .map((t) => ({ text: t, label: `tiny ${JSON.stringify(t)}` })),
    },
  );
  const raw: fc.Arbitrary<Body> = fc
    .tuple(fc.uint8Array({ minLength: 1, maxLength: 4096 }), jsonContentType)
    .map(([bytes, contentType]) => makeBody(Buffer.from(bytes), contentType, 'raw bytes'));
  return fc.oneof(
    {
      weight: 9,
      arbitrary: fc
        .tuple(text, jsonContentType)
        .map(([t, contentType]) => makeBody(toPayload(t.text), contentType, t.label)),
    },
    { weight: 1, arbitrary: raw },
  );
}

// ---- checking answers

function describeRequest(method: string, url: string, body?: Body): string {
  return `${method} ${url.slice(0, 300)}${body ? ` [${body.contentType ?? 'no content-type'}] ${body.label}` : ''}`;
}

function expectWellFormed(response: LightMyRequestResponse, context: string): void {
  expect(response.statusCode, `${context} → ${response.statusCode} ${response.body.slice(0, 500)}`).toBeLessThan(500);
  if (response.statusCode >= 200 && response.statusCode < 300) return;
  expect(response.headers['content-type'], context).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(response.body) as Record<string, unknown>;
  expect(typeof problem.type, context).toBe('string');
  expect(problem.type, context).toMatch(/^urn:service:problem:[a-z-]+$/);
  expect(typeof problem.title, context).toBe('string');
  expect(typeof problem.detail, context).toBe('string');
  expect(problem.status, context).toBe(response.statusCode);
  if (problem.errors !== undefined) {
    expect(Array.isArray(problem.errors), context).toBe(true);
    for (const error of problem.errors as Array<Record<string, unknown>>) {
      expect(typeof error.field, context).toBe('string');
      expect(typeof error.message, context).toBe('string');
    }
  }
  // No stack traces or SQL in what a client sees.
  expect(response.body, context).not.toMatch(/\bat .+\.(?:js|ts):\d+|SQLITE_|select .* from /i);
}

/** Whether the router accepts the path: %-escapes decode and no parameter exceeds Fastify's 100 characters. */
function routable(url: string): boolean {
  try {
    return url.split('/').every((segment) => decodeURIComponent(segment).length <= 100);
  } catch {
    return false;
  }
}

/** Sends one write request and checks the answer, and for a rejection that the store did not move. */
async function sendWrite(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body: Body | undefined,
): Promise<LightMyRequestResponse> {
  const context = describeRequest(method, url, body);
  const before = await snapshot();
  const response = await h.request({
    method,
    url,
    token,
    ...(body?.payload !== undefined ? { payload: body.payload } : {}),
    headers: body?.contentType !== undefined ? { 'content-type': body.contentType } : {},
  });
  expectWellFormed(response, context);
  const jsonBody = body?.contentType !== undefined && /^application\/json\s*(?:;|$)/i.test(body.contentType);
  // Over the limit is a 413, once the router has found the route (a malformed path fails first).
  if (jsonBody && routable(url) && body?.payload !== undefined && body.payload.length > BODY_LIMIT_BYTES) {
    expect(response.statusCode, context).toBe(413);
  }
  if (response.statusCode >= 300) await expectUnchanged(before, context);
  return response;
}

// ---- fixtures

const FUTURE = '2026-01-12T10:00:00.000Z';
const ALL_DAY = [{ start: '00:00', end: '24:00' }];

const availabilityBase: Json = {
  timeZone: 'UTC',
  weekly: {
    monday: ALL_DAY,
    tuesday: ALL_DAY,
    wednesday: ALL_DAY,
    thursday: ALL_DAY,
    friday: ALL_DAY,
    saturday: [
      { start: '00:00', end: '12:00' },
      { start: '12:00', end: '24:00' },
    ],
    sunday: ALL_DAY,
  },
  overrides: [{ date: '2026-12-24', intervals: [{ start: '09:00', end: '10:00' }] }],
};

const scheduleBase: Json = { name: 'Evenings', ...availabilityBase };

const eventTypeBase: Json = {
  title: 'Intro call',
  durationMinutes: 30,
  description: 'A first talk',
  slotIntervalMinutes: 30,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minimumNoticeMinutes: 0,
  bookingWindowDays: null,
  maxBookingsPerDay: null,
};

const bookingBase = (): Json => ({
  eventTypeId,
  start: FUTURE,
  guestName: 'Guest',
  guestEmail: 'guest@example.com',
  guestTimeZone: 'Europe/Berlin',
  notes: 'Hello',
});

const webhookBase: Json = {
  url: 'https://example.com/hooks/slotwise',
  events: ['booking.created', 'booking.cancelled'],
  description: 'CRM sync',
  active: true,
};

async function created(response: Promise<LightMyRequestResponse>): Promise<Record<string, unknown>> {
  const r = await response;
  expect(r.statusCode, r.body).toBeGreaterThanOrEqual(200);
  expect(r.statusCode, r.body).toBeLessThan(300);
  return r.json() as Record<string, unknown>;
}

beforeAll(async () => {
  h = await createHarness({ now: NOW });
  token = await h.key('alice');
  await created(h.request({ method: 'PUT', url: '/api/v1/availability', token, json: availabilityBase }));
  eventTypeId = (await created(h.request({ method: 'POST', url: '/api/v1/event-types', token, json: eventTypeBase })))
    .id as string;
  webhookId = (await created(h.request({ method: 'POST', url: '/api/v1/webhooks', token, json: webhookBase })))
    .id as string;
  scheduleId = (await created(h.request({ method: 'POST', url: '/api/v1/schedules', token, json: scheduleBase })))
    .id as string;
  const book = (start: string) =>
    created(
      h.request({
        method: 'POST',
        url: '/api/v1/bookings',
        token,
        json: { eventTypeId, start, guestName: 'Fixture', guestEmail: 'fixture@example.com' },
      }),
    );
  cancelTargetId = (await book('2026-01-13T10:00:00Z')).id as string;
  rescheduleTargetId = (await book('2026-01-14T10:00:00Z')).id as string;
  if (testStoreKind() === 'postgres') {
    const client = new pg.Client({ connectionString: h.database.databaseUrl });
    await client.connect();
    pgReader = client;
    readRows = async (table) => (await client.query<Record<string, unknown>>(`select * from "${table}"`)).rows;
  } else {
    readRows = (table) => h.database.rows(table);
  }
  tables = await tablesOf();
  expect(tables).toEqual(expect.arrayContaining(REQUIRED_TABLES));
});

afterAll(async () => {
  await pgReader?.end();
  await h?.close();
});

const junkId = fc.oneof(
  fc.constantFrom(
    'evt_doesnotexist',
    'bkg_doesnotexist',
    'whk_nope',
    '__proto__',
    'constructor',
    '%00',
    '%ff',
    '..%2f..',
    'x'.repeat(65),
    '%20',
    "'; drop table bookings; --",
  ),
  fc.string({ minLength: 1, maxLength: 80 }).map(percentEncode),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 150 }).map(percentEncode),
);

// ---- write endpoints

describe('fuzzing write endpoints with generated junk', () => {
  it('when junk is POSTed to /event-types, then the answer is a problem (never 5xx) and a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(bodyFor(eventTypeBase), async (body) => {
        await sendWrite('POST', '/api/v1/event-types', body);
      }),
      { numRuns: RUNS },
    );
  });

  it('when junk is PATCHed to /event-types/:id, then the answer is a problem (never 5xx) and a rejection changes nothing', async () => {
    const patchBase: Json = {
      title: 'Renamed call',
      durationMinutes: 30,
      bufferAfterMinutes: 5,
      bookingWindowDays: 365,
    };
    await fc.assert(
      fc.asyncProperty(bodyFor(patchBase), fc.option(junkId, { freq: 4 }), async (body, id) => {
        await sendWrite('PATCH', `/api/v1/event-types/${id ?? eventTypeId}`, body);
      }),
      { numRuns: RUNS },
    );
  });

  it('when junk is PUT to /availability, then the answer is a problem (never 5xx) and a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(bodyFor(availabilityBase), async (body) => {
        await sendWrite('PUT', '/api/v1/availability', body);
      }),
      { numRuns: RUNS },
    );
  });

  it('when junk is POSTed to /schedules, then the answer is a problem (never 5xx) and a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(bodyFor(scheduleBase), async (body) => {
        await sendWrite('POST', '/api/v1/schedules', body);
      }),
      { numRuns: RUNS },
    );
  });

  it('when junk is PUT to /schedules/:id, then the answer is a problem (never 5xx) and a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(bodyFor(scheduleBase), fc.option(junkId, { freq: 4 }), async (body, id) => {
        await sendWrite('PUT', `/api/v1/schedules/${id ?? scheduleId}`, body);
      }),
      { numRuns: RUNS },
    );
  });

  it('when junk is POSTed to /bookings, then the answer is a problem (never 5xx) and a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(bodyFor(bookingBase()), async (body) => {
        await sendWrite('POST', '/api/v1/bookings', body);
      }),
      { numRuns: RUNS },
    );
  });

  it('when junk is POSTed to /bookings/:id/cancel, then the answer is a problem (never 5xx) and a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(bodyFor({ reason: 'Changed plans' }), fc.option(junkId, { freq: 4 }), async (body, id) => {
        await sendWrite('POST', `/api/v1/bookings/${id ?? cancelTargetId}/cancel`, body);
      }),
      { numRuns: RUNS },
    );
  });

  it('when junk is POSTed to /bookings/:id/reschedule, then the answer is a problem (never 5xx) and a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyFor({ start: '2026-01-15T10:00:00+01:00', reason: 'Clash' }),
        fc.option(junkId, { freq: 4 }),
        async (body, id) => {
          await sendWrite('POST', `/api/v1/bookings/${id ?? rescheduleTargetId}/reschedule`, body);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('when junk is POSTed to /webhooks, then the answer is a problem (never 5xx) and a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(bodyFor(webhookBase), async (body) => {
        await sendWrite('POST', '/api/v1/webhooks', body);
      }),
      { numRuns: RUNS },
    );
  });

  it('when DELETE names junk ids, then the answer is a problem (never 5xx) and nothing is deleted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('event-types', 'webhooks', 'bookings', 'availability', 'schedules'),
        junkId,
        fc.option(bodyFor({ reason: 'cleanup' }), { freq: 3 }),
        async (collection, id, body) => {
          const response = await sendWrite('DELETE', `/api/v1/${collection}/${id}`, body ?? undefined);
          expect(response.statusCode).toBeGreaterThanOrEqual(400);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('when DELETE of a real resource carries a body that is not JSON, then it is rejected and nothing is deleted', async () => {
    // Every payload starts with `}`, so it can never parse as JSON, whatever it claims to be.
    const notJson = fc
      .tuple(
        fc.oneof(fragment, fc.string()),
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'text/plain; charset=utf-8',
          'application/octet-stream',
          'application/x-www-form-urlencoded',
        ),
      )
      .map(([text, contentType]) => makeBody(toPayload(`}${text}`), contentType, `not json ${text.slice(0, 100)}`));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('event-types', 'webhooks'), notJson, async (collection, body) => {
        const id = collection === 'event-types' ? eventTypeId : webhookId;
        const response = await sendWrite('DELETE', `/api/v1/${collection}/${id}`, body);
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 60 },
    );
    // The resources survived.
    expect((await h.request({ method: 'GET', url: `/api/v1/event-types/${eventTypeId}`, token })).statusCode).toBe(200);
    expect((await h.database.rows('webhooks')).map((r) => r.id)).toContain(webhookId);
  });
});

describe('bodies and paths the router or parser rejects before any route runs', () => {
  const writes = (): Array<['POST' | 'PUT' | 'PATCH' | 'DELETE', string]> => [
    ['POST', '/api/v1/event-types'],
    ['PATCH', `/api/v1/event-types/${eventTypeId}`],
    ['PUT', '/api/v1/availability'],
    ['POST', '/api/v1/schedules'],
    ['PUT', `/api/v1/schedules/${scheduleId}`],
    ['POST', '/api/v1/bookings'],
    ['POST', `/api/v1/bookings/${cancelTargetId}/cancel`],
    ['POST', `/api/v1/bookings/${rescheduleTargetId}/reschedule`],
    ['POST', '/api/v1/webhooks'],
    ['DELETE', `/api/v1/event-types/${eventTypeId}`],
    ['DELETE', `/api/v1/webhooks/${webhookId}`],
  ];

  it('when a write sends its body as text/plain, then the answer is a 415 problem and nothing changes', async () => {
    for (const [method, url] of writes()) {
      for (const payload of ['{}', '{"title":"x","durationMinutes":30}', 'hello']) {
        const response = await sendWrite(method, url, makeBody(Buffer.from(payload), 'text/plain', 'text/plain'));
        expect(response.statusCode, `${method} ${url} ${payload}`).toBe(415);
        expect(response.json().type).toBe('urn:service:problem:unsupported-media-type');
      }
    }
  });

  it('when a path holds a malformed %-escape or an id longer than the router allows, then the answer is a 400 problem', async () => {
    const bad = ['%ff', '%E0%A4%A', '%', 'x'.repeat(101), '%41'.repeat(70), '%41'.repeat(120)];
    for (const [method, url] of writes()) {
      const parts = url.split('/');
      if (parts.length < 5) continue; // no id in this path
      for (const id of bad) {
        parts[4] = id;
        const response = await sendWrite(
          method,
          parts.join('/'),
          makeBody(Buffer.from('{}'), 'application/json', '{}'),
        );
        expect(response.statusCode, parts.join('/')).toBe(400);
        expect(response.json().type).toBe('urn:service:problem:invalid-request');
      }
    }
  });
});

// ---- query strings

/** Percent-encoding that survives lone surrogates (encodeURIComponent throws on them). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

const encodeJunk = (text: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    percentEncode(text),
    // Form encoding, where `+` is a space.
    percentEncode(text).replace(/%20/g, '+'),
    // Only what would break the URL itself escaped: `+`, `=`, `%` sequences stay raw.
    text.replace(/[^\x21-\x7e]|#|&/g, (c) => percentEncode(c)),
  );

const queryValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.constantFrom(...BAD_DATES),
        fc.constantFrom(
          '2026-01-12T09:00:00 01:00',
          '2026-01-12T09:00:00+01:00',
          '2026-01-12T09:00:00Z',
          '1768208400000',
          'NaN',
          'Infinity',
          '-0',
          '1e2',
          '0x10',
          '50',
          '0',
          '101',
          '-1',
          '1.5',
          'true',
          'null',
          'undefined',
          '[]',
          '{}',
          '__proto__',
          'Europe/Berlin',
          'Mars/Olympus_Mons',
          '+01:00',
          'UTC',
          'eyJhIjoxfQ',
          'WzEsImJrZ18xIl0',
          'WzEuNSwiYSJd',
          'W251bGwsbnVsbF0',
          '!!!',
        ),
        fc.string({ maxLength: 70 }),
        fc.string({ unit: 'binary', maxLength: 70 }),
      )
      .chain(encodeJunk),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%zz',
      '%ff',
      '%E0%A4%A',
      '%C0%80',
      '%ED%A0%80',
      '%00',
      '%u0041',
      '%%',
      '%2',
      '%F0%9F%98',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 200_000 }).map((n) => 'q'.repeat(n)) },
);

const queryKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'from[]',
    'from[a]',
    'FROM',
    '',
    'a.b',
    '%00',
    '%zz',
  ),
  fc.string({ maxLength: 15 }).map(percentEncode),
);

type Pair = [string, string];

/** A valid query with one pair changed, dropped, duplicated or added; or pairs of pure junk. */
function queryFor(base: Pair[]): fc.Arbitrary<string> {
  const keys = base.map(([k]) => k);
  const mutated = fc
    .tuple(
      fc.constantFrom('replace', 'drop', 'duplicate', 'add', 'bare'),
      fc.nat({ max: Math.max(0, base.length - 1) }),
      fc.oneof(fc.constantFrom(...keys), queryKey),
      queryValue,
    )
    .map(([kind, i, key, value]) => {
      const pairs = base.map(([k, v]): string => `${k}=${encodeURIComponent(v)}`);
      const name = base[i]?.[0] ?? key;
      if (kind === 'replace') pairs[i] = `${name}=${value}`;
      else if (kind === 'drop') pairs.splice(i, 1);
      else if (kind === 'duplicate') pairs.splice(i + 1, 0, `${name}=${value}`);
      else if (kind === 'add') pairs.push(`${key}=${value}`);
      else pairs[i] = name; // a key without `=`
      return pairs.join('&');
    });
  const junk = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...keys), queryKey), queryValue), { maxLength: 6 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
  const weird = fc.constantFrom('', '&', '&&&', '=', '==', '?', '&=&', ';', 'a=1;b=2', '#frag');
  return fc.oneof({ weight: 6, arbitrary: mutated }, { weight: 3, arbitrary: junk }, { weight: 1, arbitrary: weird });
}

function printable(text: string): { text: string } {
  const short = text.length > 400 ? `${text.slice(0, 200)}… (${text.length} chars)` : text;
  return { text, [fc.toStringMethod]: () => JSON.stringify(short) } as { text: string };
}

describe('fuzzing query strings with generated junk', () => {
  const cases: Array<{ path: string; base: () => Pair[] }> = [
    {
      path: '/api/v1/slots',
      base: () => [
        ['eventTypeId', eventTypeId],
        ['from', '2026-01-12T00:00:00Z'],
        ['to', '2026-01-13T00:00:00+01:00'],
        ['timeZone', 'Europe/Berlin'],
      ],
    },
    {
      path: '/api/v1/bookings',
      base: () => [
        ['from', '2026-01-01T00:00:00Z'],
        ['to', '2026-02-01T00:00:00Z'],
        ['eventTypeId', eventTypeId],
        ['limit', '10'],
      ],
    },
    {
      path: '/api/v1/event-types',
      base: () => [
        ['limit', '10'],
        ['cursor', Buffer.from(JSON.stringify([0, 'evt_x'])).toString('base64url')],
      ],
    },
  ];

  for (const { path, base } of cases) {
    it(`when GET ${path} gets a junk query string, then the answer is 200 or a problem (never 5xx) and the store does not change`, async () => {
      await fc.assert(
        fc.asyncProperty(queryFor(base()).map(printable), async ({ text: query }) => {
          const url = `${path}?${query}`;
          const context = describeRequest('GET', url);
          const before = await snapshot();
          const response = await h.request({ method: 'GET', url, token });
          expectWellFormed(response, context);
          if (response.statusCode === 200) expect(Array.isArray(response.json().data), context).toBe(true);
          await expectUnchanged(before, context);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
