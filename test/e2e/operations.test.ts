// Issue 5 on the built binary: one JSON log line per request (request id = `x-request-id`, route,
// status, key id; never the key or a guest's e-mail), RATE_LIMIT_PER_MINUTE, graceful shutdown on
// SIGTERM/SIGINT, `--help` everywhere, exit codes 0/1/2, a clear error for an unreachable store;
// the HTTP_* connection limits reach the served process.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, startServer, tempStore, type Server, type TempStore } from './support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const stores: TempStore[] = [];
const servers: Server[] = [];
let store: TempStore;
let token: string;
let keyId: string;

function newStore(): TempStore {
  const created = tempStore();
  stores.push(created);
  return created;
}

async function serve(databaseUrl: string, env: Record<string, string> = {}): Promise<Server> {
  const server = await startServer(databaseUrl, { LOG_LEVEL: 'info', ...env });
  servers.push(server);
  return server;
}

/** `keys create` → the key (stdout) and its id (stderr). */
async function createKeyWithId(databaseUrl: string, holder: string): Promise<{ token: string; id: string }> {
  const result = await runCli(['keys', 'create', '--holder', holder, '--scopes', 'read,write'], {
    DATABASE_URL: databaseUrl,
  });
  expect(result.code, result.stderr).toBe(0);
  const id = /\b(key_[A-Za-z0-9]+)\b/.exec(result.stderr)?.[1];
  expect(id, result.stderr).toBeDefined();
  return { token: result.stdout.trim(), id: id! };
}

interface Sent {
  status: number;
  headers: Headers;
  body: any;
}

async function send(
  server: Server,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body };
}

/** The JSON log lines the server wrote so far. */
function logLines(server: Server): Array<Record<string, unknown>> {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits until a log line with this request id was written (logging may trail the response a little). */
async function linesOf(server: Server, reqId: string): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const found = logLines(server).filter((line) => line.reqId === reqId);
    if (found.length > 0) return found;
    await sleep(25);
  }
  throw new Error(`no log line with reqId ${reqId} in:\n${server.output()}`);
}

/** A weekday at 10:00 UTC at least two days ahead (bookable under the default Mon–Fri 09–17 UTC). */
function bookableStart(): string {
  const day = new Date();
  day.setUTCHours(10, 0, 0, 0);
  day.setUTCDate(day.getUTCDate() + 2);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString();
}

/** Waits for the next wall-clock minute when fewer than `needSeconds` remain in this one. */
async function roomInThisMinute(needSeconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needSeconds * 1000) await sleep(left + 250);
}

/** Resolves with the exit code and signal of a server's process. */
function exitOf(server: Server): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = server.process;
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

beforeAll(async () => {
  ensureBuilt();
  store = newStore();
  ({ token, id: keyId } = await createKeyWithId(store.databaseUrl, 'owner'));
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const s of stores) s.remove();
}, 60_000);

describe('request logs (LOG_LEVEL=info)', () => {
  let server: Server;

  beforeAll(async () => {
    server = await serve(store.databaseUrl);
  }, 60_000);

  it('when requests are answered, then each has exactly one JSON line with reqId = x-request-id, route, status and the key id, never the key or a guest e-mail', async () => {
    const email = 'zelda.private+e2e@example.org';
    const et = await send(server, 'POST', '/api/v1/event-types', {
      token,
      json: { title: 'Log call', durationMinutes: 30 },
    });
    expect(et.status, JSON.stringify(et.body)).toBe(201);
    const booking = { eventTypeId: et.body.id, start: bookableStart(), guestName: 'Zelda', guestEmail: email };
    const created = await send(server, 'POST', '/api/v1/bookings', { token, json: booking });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent: Array<[Sent, { route: string | null; status: number; keyed: boolean }]> = [
      [et, { route: '/api/v1/event-types', status: 201, keyed: true }],
      [created, { route: '/api/v1/bookings', status: 201, keyed: true }],
      [
        await send(server, 'POST', '/api/v1/bookings', { token, json: booking }),
        { route: '/api/v1/bookings', status: 409, keyed: true },
      ],
      [
        await send(server, 'POST', '/api/v1/bookings', {
          token,
          json: { ...booking, guestEmail: `not-an-address-${email}`, start: 'soon' },
        }),
        { route: '/api/v1/bookings', status: 400, keyed: true },
      ],
      [
        await send(server, 'GET', `/api/v1/bookings/${created.body.id}`, { token }),
        { route: '/api/v1/bookings/:id', status: 200, keyed: true },
      ],
      [
        await send(server, 'GET', '/api/v1/bookings', { token }),
        { route: '/api/v1/bookings', status: 200, keyed: true },
      ],
      [
        await send(server, 'GET', '/api/v1/bookings/bkg_unknown', { token }),
        { route: '/api/v1/bookings/:id', status: 404, keyed: true },
      ],
      [await send(server, 'GET', '/api/v1/bookings'), { route: '/api/v1/bookings', status: 401, keyed: false }],
      [await send(server, 'GET', '/healthz'), { route: '/healthz', status: 200, keyed: false }],
    ];
    // The list and the booking itself carry the e-mail: it is in the answers, only not in the log.
    expect(JSON.stringify(sent[5]![0].body)).toContain(email);

    const ids = new Set<string>();
    for (const [response, expected] of sent) {
      expect(response.status).toBe(expected.status);
      const reqId = response.headers.get('x-request-id');
      expect(reqId, 'x-request-id header').toBeTruthy();
      ids.add(reqId!);
      const [line] = await linesOf(server, reqId!);
      expect(line).toMatchObject({ reqId, route: expected.route, status: expected.status });
      expect(typeof line!.level).toBe('number');
      if (expected.keyed) expect(line!.key).toBe(keyId);
      else expect(line!.key).toBeUndefined();
    }
    expect(ids.size, 'request ids are unique').toBe(sent.length);
    await sleep(300);
    for (const reqId of ids)
      expect(
        logLines(server).filter((line) => line.reqId === reqId),
        reqId,
      ).toHaveLength(1);
    const output = server.output();
    expect(output).not.toContain(email);
    expect(output).not.toContain('zelda.private');
    expect(output).not.toContain(token);
    expect(output).not.toContain(token.slice(3));
  });

  it('when the client sends an x-request-id, then it is echoed and used in the log line', async () => {
    const res = await send(server, 'GET', '/api/v1/event-types', {
      token,
      headers: { 'x-request-id': 'trace-4f2a-e2e' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-4f2a-e2e');
    const lines = await linesOf(server, 'trace-4f2a-e2e');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ route: '/api/v1/event-types', status: 200, key: keyId });
  });

  it('when /readyz is called on the running server, then 200 without a key', async () => {
    const res = await send(server, 'GET', '/readyz');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const metrics = await send(server, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(String(metrics.body)).toContain('slotwise_http_requests_total');
  });
});

describe('RATE_LIMIT_PER_MINUTE', () => {
  it('when RATE_LIMIT_PER_MINUTE=3, then the 4th request of a key in a minute is 429 with Retry-After', async () => {
    const limited = newStore();
    const key = await createKeyWithId(limited.databaseUrl, 'busy');
    const server = await serve(limited.databaseUrl, { RATE_LIMIT_PER_MINUTE: '3' });
    await roomInThisMinute(10);
    const statuses: number[] = [];
    let last: Sent | undefined;
    for (let i = 0; i < 4; i++) {
      last = await send(server, 'GET', '/api/v1/event-types', { token: key.token });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.body).toMatchObject({ type: 'urn:service:problem:rate-limited', status: 429 });
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(last!.headers.get('ratelimit-policy')).toBe('"per-key";q=3;w=60');
    expect(last!.headers.get('ratelimit')).toMatch(/^"per-key";r=0;t=\d+$/);
    // Without a key nothing is counted or limited: 401, not 429.
    expect((await send(server, 'GET', '/api/v1/event-types')).status).toBe(401);
  });
});

describe('HTTP_* connection limits', () => {
  it('when HTTP_HEADERS_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS and HTTP_MAX_CONNECTIONS_PER_ADDRESS are set, then the served process keeps to them', async () => {
    const server = await serve(store.databaseUrl, {
      HTTP_HEADERS_TIMEOUT_MS: '500',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '2',
    });
    const open = () =>
      new Promise<{ closed: Promise<{ ms: number; text: string }> }>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: '127.0.0.2' });
        let text = '';
        socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
        socket.on('error', () => {});
        socket.once('connect', () => {
          const opened = Date.now();
          resolve({
            closed: new Promise((done) => socket.once('close', () => done({ ms: Date.now() - opened, text }))),
          });
        });
      });
    // Two silent connections from one address are held until the headers timeout; a third is refused at once.
    const [first, second, third] = [await open(), await open(), await open()];
    const refused = await third!.closed;
    expect(refused).toMatchObject({ text: '' });
    expect(refused.ms).toBeLessThan(400);
    for (const held of [await first!.closed, await second!.closed]) {
      expect(held.text).toMatch(/^HTTP\/1\.1 408 /);
      expect(held.ms).toBeGreaterThanOrEqual(450);
      // Without the setting, Node's own headers timeout (a minute) would hold them.
      expect(held.ms).toBeLessThan(4_000);
    }
    const health = await fetch(`${server.url}/healthz`);
    expect(health.headers.get('keep-alive')).toBe('timeout=2');
    await server.stop();
  });
});

describe('graceful shutdown', () => {
  it('when SIGTERM arrives while a request is in flight, then the request completes normally, new requests are refused and the process exits 0', async () => {
    const shut = newStore();
    const key = await createKeyWithId(shut.databaseUrl, 'slow');
    const server = await serve(shut.databaseUrl);
    const body = JSON.stringify({ title: 'Held open', durationMinutes: 30 });
    const socket = connect(server.port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    // Headers and part of the body: the request has arrived and waits for the rest.
    socket.write(
      'POST /api/v1/event-types HTTP/1.1\r\n' +
        `Host: 127.0.0.1:${server.port}\r\n` +
        `Authorization: Bearer ${key.token}\r\n` +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 10),
    );
    await sleep(300);
    const exit = exitOf(server);
    server.process.kill('SIGTERM');
    // The signal is handled (it says so in its log, written at least every quarter second), however
    // long that takes on a loaded machine; a fixed wait could end before it.
    const deadline = Date.now() + 5_000;
    while (!server.output().includes('shutting down')) {
      if (Date.now() > deadline) throw new Error(`SIGTERM not handled within 5 s:\n${server.output()}`);
      await sleep(20);
    }
    expect(server.process.exitCode, 'the process waits for the request in flight').toBeNull();
    // No new work is taken on meanwhile: the connection is refused or answered 503.
    const fresh = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(3_000) }).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(['refused', 503]).toContain(fresh);
    socket.write(body.slice(10));
    const answeredAt = Date.now();
    await Promise.race([closed, sleep(10_000)]);
    expect(answer, answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(answer).toContain('"title":"Held open"');
    // The answer closes its connection, so a keep-alive client cannot hold the process for the grace period.
    expect(answer.split('\r\n\r\n')[0]).toMatch(/\r\nconnection: close\r\n/i);
    const { code, signal } = await exit;
    expect({ code, signal }, server.output()).toEqual({ code: 0, signal: null });
    // Held for the grace period it would take 10 s; a loaded run exits within a second or two.
    expect(Date.now() - answeredAt, 'exit follows the last answer promptly').toBeLessThan(7_000);
    // Log lines are written in batches: the last ones are written on the way out.
    expect(server.output()).toMatch(/"route":"\/api\/v1\/event-types","status":201/);
    // It really completed: the event type is stored.
    const db = new Database(shut.databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      expect(db.prepare('select title from event_types').all()).toEqual([{ title: 'Held open' }]);
    } finally {
      db.close();
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'when an idle server gets %s, then it exits with code 0 promptly',
    async (signalName) => {
      const idle = newStore();
      const server = await serve(idle.databaseUrl);
      const exit = exitOf(server);
      const sentAt = Date.now();
      server.process.kill(signalName);
      const { code, signal } = await exit;
      expect({ code, signal }, server.output()).toEqual({ code: 0, signal: null });
      // Below the 10 s grace period a wait for nothing would take; a loaded run's takes a second or two.
      expect(Date.now() - sentAt).toBeLessThan(8_000);
    },
  );
});

describe('CLI: help, usage errors, unreachable stores', () => {
  const helpCalls: string[][] = [
    ['--help'],
    ['-h'],
    ['serve', '--help'],
    ['keys', '--help'],
    ['keys', 'create', '--help'],
    ['keys', 'list', '--help'],
    ['keys', 'revoke', '--help'],
    ['migrate', '--help'],
  ];

  it.each(helpCalls.map((args) => [args.join(' '), args]))(
    'when `slotwise %s` runs, then it exits 0 with usage on stdout and nothing on stderr, even with a broken DATABASE_URL',
    async (_name, args) => {
      const result = await runCli(args as string[], {
        DATABASE_URL: 'mysql://nowhere/x',
        RATE_LIMIT_PER_MINUTE: 'lots',
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^Usage: slotwise/);
      expect(result.stderr).toBe('');
    },
  );

  it('when help is asked for a command, then the usage is that command’s', async () => {
    const env = { DATABASE_URL: 'sqlite::memory:' };
    expect((await runCli(['keys', 'create', '--help'], env)).stdout).toContain('--holder');
    expect((await runCli(['keys', 'revoke', '--help'], env)).stdout).toContain('KEY_ID');
    expect((await runCli(['keys', 'list', '--help'], env)).stdout).toContain('--json');
    expect((await runCli(['migrate', '--help'], env)).stdout).toMatch(/migrat/i);
    expect((await runCli(['serve', '--help'], env)).stdout).toMatch(/SIGTERM/);
  });

  const badCalls: Array<[string, string[]]> = [
    ['no command', []],
    ['an unknown command', ['frobnicate']],
    ['serve with an unknown flag', ['serve', '--port', '8080']],
    ['migrate with a stray argument', ['migrate', 'now']],
    ['keys without a subcommand', ['keys']],
    ['an unknown keys subcommand', ['keys', 'rotate']],
    ['keys create with --holder but no value', ['keys', 'create', '--holder']],
    ['keys create with an unknown scope', ['keys', 'create', '--holder', 'x', '--scopes', 'admin']],
    ['keys list with an unknown flag', ['keys', 'list', '--verbose']],
    ['keys revoke without an id', ['keys', 'revoke']],
    ['keys revoke with two ids', ['keys', 'revoke', 'key_a', 'key_b']],
  ];

  it.each(badCalls)(
    'when the CLI gets %s, then it exits 2 with a message on stderr and touches no database',
    async (_name, args) => {
      const fresh = newStore();
      const result = await runCli(args, { DATABASE_URL: fresh.databaseUrl });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^slotwise: \S/);
      expect(result.stderr).toContain('Usage:');
      expect(result.stdout).toBe('');
      expect(existsSync(fresh.databaseUrl.slice('sqlite:'.length))).toBe(false);
    },
  );

  it.each([
    ['keys list', ['keys', 'list']],
    ['migrate', ['migrate']],
    ['serve', ['serve']],
  ])(
    'when PostgreSQL is unreachable for `%s`, then it exits 1 naming the database without its password',
    async (_name, args) => {
      const result = await runCli(args, { DATABASE_URL: 'postgres://u:secret@127.0.0.1:1/x', PORT: '0' });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain('127.0.0.1:1');
      expect(result.stderr).toContain('***');
      expect(result.stderr).not.toContain('secret');
      expect(result.stderr).not.toMatch(/\n\s+at\s/);
      expect(result.stdout).toBe('');
    },
  );

  it('when migrate runs on a fresh SQLite file, then it exits 0, creates the schema, and a second run is a no-op', async () => {
    const fresh = newStore();
    const env = { DATABASE_URL: fresh.databaseUrl };
    const first = await runCli(['migrate'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('');
    const file = fresh.databaseUrl.slice('sqlite:'.length);
    expect(existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    try {
      const tables = (
        db.prepare(`select name from sqlite_master where type = 'table'`).all() as Array<{ name: string }>
      ).map((r) => r.name);
      expect(tables).toEqual(
        expect.arrayContaining(['bookings', 'api_keys', 'idempotency_keys', 'rate_limit_windows']),
      );
    } finally {
      db.close();
    }
    const second = await runCli(['migrate'], env);
    expect(second.code, second.stderr).toBe(0);
    const listed = await runCli(['keys', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });
});
