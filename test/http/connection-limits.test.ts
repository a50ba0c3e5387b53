// Connection limits (src/http/connection-limits.ts, docs/api.md "Limits") on a real listening
// server, through the real wiring (composeServer), with raw sockets: slow headers and slow bodies
// are cut at their timeouts with a 408, an idle keep-alive connection is closed, and slowloris
// clients (connections that dribble their headers) cannot keep a normal client from its answer.
// Timeouts are small here (hundreds of ms) so the suite stays fast; bounds are generous for a
// busy machine, but each one would fail by seconds without its limit (Node's own defaults are
// 60 s, 300 s and, through Fastify, 72 s; no connection cap).
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionLimits } from '../../src/http/connection-limits.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, createEventType, putAvailability } from './helpers.js';

let h: Harness | undefined;
const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];

afterEach(async () => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const socket of sockets.splice(0)) socket.destroy();
  await h?.close();
  h = undefined;
});

/** A harness whose app listens on 127.0.0.1 with these limits; its port. */
async function listening(limits: Partial<ConnectionLimits>): Promise<{ harness: Harness; port: number }> {
  h = await createHarness({ now: BEFORE_MONDAY, http: limits });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const address = h.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  return { harness: h, port: address.port };
}

interface Client {
  socket: Socket;
  /** Milliseconds from the connection's opening to now. */
  elapsed(): number;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves when the server (or the client) closed the connection: ms after opening, and what was received. */
  closed: Promise<{ ms: number; text: string }>;
  /** Resolves once the server has sent `count` complete answers (with a Content-Length each). */
  answers(count: number): Promise<string[]>;
}

/** A raw TCP client of the server, optionally from another loopback address (127.0.0.2 …: another client). */
function client(port: number, from?: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ...(from ? { localAddress: from } : {}) });
    sockets.push(socket);
    let opened = 0;
    let text = '';
    const waiting: Array<() => void> = [];
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      for (const wake of waiting.splice(0)) wake();
    });
    socket.on('error', () => {}); // a reset is a close too; `closed` reports it
    const closed = new Promise<{ ms: number; text: string }>((done) =>
      socket.once('close', () => {
        for (const wake of waiting.splice(0)) wake();
        done({ ms: Date.now() - opened, text });
      }),
    );
    socket.once('connect', () => {
      opened = Date.now();
      resolve({
        socket,
        elapsed: () => Date.now() - opened,
        received: () => text,
        closed,
        answers(count) {
          return new Promise((done, fail) => {
            const check = () => {
              const found = splitAnswers(text);
              if (found.length >= count) return done(found);
              if (socket.destroyed)
                return fail(new Error(`closed after ${found.length} answers: ${text.slice(0, 200)}`));
              waiting.push(check);
            };
            check();
          });
        },
      });
    });
    socket.once('error', reject);
  });
}

/** The complete HTTP answers in `text`, each with its body (by Content-Length). */
function splitAnswers(text: string): string[] {
  const answers: string[] = [];
  let at = 0;
  for (;;) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end === -1) return answers;
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(at, end))?.[1] ?? 0);
    if (text.length < end + 4 + length) return answers;
    answers.push(text.slice(at, end + 4 + length));
    at = end + 4 + length;
  }
}

/** Writes `bytes` one character every `everyMs` until the socket closes (a slowloris client). */
function dribble(socket: Socket, bytes: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= bytes.length) return clearInterval(timer);
    socket.write(bytes[at++]!);
  }, everyMs);
  timers.push(timer);
}

/** Long enough never to end within a test: a header line that keeps growing. */
const ENDLESS_HEADER = `X-Slow: ${'a'.repeat(10_000)}`;

/** A plain GET over its own connection: the status line and body, or the error it ended with. */
async function get(port: number, path: string, headers: Record<string, string> = {}, from?: string) {
  const c = await client(port, from);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  c.socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n${lines.join('')}\r\n`);
  const { ms, text } = await c.closed;
  return { ms, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text };
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

describe('headers timeout', () => {
  it('when a client sends its headers a byte at a time, then it is answered 408 and closed at the headers timeout', async () => {
    const { port } = await listening({ headersTimeoutMs: 500, requestTimeoutMs: 5_000 });
    const slow = await client(port);
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\n');
    dribble(slow.socket, ENDLESS_HEADER, 20);
    const { ms, text } = await slow.closed;
    expect(statusOf(text), text).toBe(408);
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(2_000);
  });

  it('when a client connects and sends nothing, then it is closed at the headers timeout too', async () => {
    const { port } = await listening({ headersTimeoutMs: 500, requestTimeoutMs: 5_000 });
    const silent = await client(port);
    const { ms, text } = await silent.closed;
    expect(statusOf(text), text).toBe(408);
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(2_000);
  });
});

describe('request timeout', () => {
  it('when a client sends its headers at once and its body a byte at a time, then it is answered 408 and closed at the request timeout', async () => {
    const { harness, port } = await listening({ headersTimeoutMs: 300, requestTimeoutMs: 1_000 });
    const token = await harness.key('alice');
    const slow = await client(port);
    const body = JSON.stringify({ title: 'Intro call', durationMinutes: 30 });
    slow.socket.write(
      `POST /api/v1/event-types HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    dribble(slow.socket, body, 50); // ~2 s for the whole body
    const { ms, text } = await slow.closed;
    expect(statusOf(text), text).toBe(408);
    // The headers were in long before their timeout: it is the request timeout that cut it. Without
    // it the body would be in after some 2 s and answered 201 (checked above), so the bound only
    // needs to leave a loaded machine room.
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5_000);
    const list = await harness.request({ method: 'GET', url: '/api/v1/event-types', token });
    expect(list.json<{ data: unknown[] }>().data).toEqual([]);
  });

  it('when a body arrives within the request timeout, then it is answered normally', async () => {
    const { harness, port } = await listening({ headersTimeoutMs: 300, requestTimeoutMs: 3_000 });
    const token = await harness.key('alice');
    const c = await client(port);
    const body = JSON.stringify({ title: 'Intro call', durationMinutes: 30 });
    c.socket.write(
      `POST /api/v1/event-types HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    dribble(c.socket, body, 10); // ~0.5 s: slower than the headers timeout, within the request timeout
    const [answer] = await c.answers(1);
    expect(statusOf(answer!), answer).toBe(201);
  });
});

describe('keep-alive timeout', () => {
  it('when a keep-alive connection has had its answers (slot answers too), then it is closed once idle for the keep-alive timeout', async () => {
    const { harness, port } = await listening({ keepAliveTimeoutMs: 1_000 });
    const token = await harness.key('alice');
    const always = [{ start: '09:00', end: '17:00' }];
    expect((await putAvailability(harness, token, { timeZone: 'UTC', weekly: { monday: always } })).statusCode).toBe(
      200,
    );
    const eventType = await createEventType(harness, token);
    const c = await client(port);
    const slots = `GET /api/v1/slots?eventTypeId=${eventType.id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\n\r\n`;
    // Two slot answers (written by hand to the socket) and a health check on one connection.
    c.socket.write(slots);
    await c.answers(1);
    c.socket.write(slots);
    await c.answers(2);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
    const answers = await c.answers(3);
    const idleSince = Date.now();
    expect(answers.map(statusOf)).toEqual([200, 200, 200]);
    expect(JSON.parse(answers[0]!.split('\r\n\r\n')[1]!).data).toHaveLength(16);
    for (const answer of answers) expect(answer).toMatch(/\r\nkeep-alive: timeout=1\r\n/i);
    await c.closed;
    const idleMs = Date.now() - idleSince;
    // Node closes a second after the advertised timeout, so that a client never reuses a closing
    // connection: some 2 s, more on a loaded machine, against Fastify's default of 72 s.
    expect(idleMs).toBeGreaterThanOrEqual(900);
    expect(idleMs).toBeLessThan(10_000);
  });
});

describe('slowloris', () => {
  it('when one client holds connections with headers that never end, then it gets only its share, and other clients are answered at once', async () => {
    // The headers timeout is long here: what protects the others is the cap per address.
    const { harness, port } = await listening({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 20_000,
      maxConnections: 16,
      maxConnectionsPerAddress: 4,
    });
    const token = await harness.key('alice');
    // 20 slow connections from one address: more than the whole server takes.
    const slow = await Promise.all(Array.from({ length: 20 }, () => client(port, '127.0.0.2')));
    for (const c of slow) {
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\n');
      dribble(c.socket, ENDLESS_HEADER, 100);
    }
    // Cut as they arrive, however long that takes on a loaded machine; without the cap per address
    // 16 would stay (the server's whole share).
    await expect.poll(() => slow.filter((c) => !c.socket.destroyed).length).toBe(4);

    for (const from of ['127.0.0.1', '127.0.0.3']) {
      const health = await get(port, '/healthz', {}, from);
      expect(health.status, health.text).toBe(200);
      // Waiting for a connection to be freed would take the 20 s headers timeout.
      expect(health.ms).toBeLessThan(5_000);
      const me = await get(port, '/api/v1/me', { authorization: `Bearer ${token}` }, from);
      expect(me.status, me.text).toBe(200);
      expect(me.ms).toBeLessThan(5_000);
    }
    // The four it kept are still held (until the headers timeout), and nothing was answered to them.
    expect(slow.filter((c) => !c.socket.destroyed)).toHaveLength(4);
    expect(slow.every((c) => c.received() === '')).toBe(true);

    const metrics = await get(port, '/metrics');
    expect(metrics.text).toMatch(/slotwise_http_connections_cut_total\{reason="per-address"\} 16\n/);
  });

  it('when slow clients from many addresses fill every connection, then new ones are refused until the headers timeout cuts the slow ones, then answered', async () => {
    // The request timeout far beyond the bounds below: were the headers timeout not to cut the slow
    // ones (reset by each byte, say), they would be held 30 s, not cut by the request timeout in time.
    const { port } = await listening({
      headersTimeoutMs: 500,
      requestTimeoutMs: 30_000,
      maxConnections: 8,
      maxConnectionsPerAddress: 2,
    });
    const slow = await Promise.all(
      ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].flatMap((from) => [client(port, from), client(port, from)]),
    );
    const started = Date.now();
    for (const c of slow) {
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\n');
      dribble(c.socket, ENDLESS_HEADER, 50);
    }
    // Every connection is taken: a ninth is closed as it arrives, unanswered.
    const refused = await get(port, '/healthz');
    expect(refused.status).toBe(0);
    expect(refused.text).toBe('');
    // Retried, it is answered once the slow ones are cut (at the headers timeout, 408 each).
    let answered: Awaited<ReturnType<typeof get>> | undefined;
    while (Date.now() - started < 15_000) {
      const attempt = await get(port, '/healthz');
      if (attempt.status !== 0) {
        answered = attempt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(answered?.status, answered?.text).toBe(200);
    const waited = Date.now() - started;
    // Some 0.5 s idle, more on a loaded machine; the slow ones held to the request timeout would be 30 s.
    expect(waited).toBeGreaterThanOrEqual(400);
    expect(waited).toBeLessThan(10_000);
    for (const c of slow) expect(statusOf((await c.closed).text)).toBe(408);

    const metrics = await get(port, '/metrics');
    expect(metrics.text).toMatch(/slotwise_http_connections_cut_total\{reason="request-timeout"\} 8\n/);
    expect(metrics.text).toMatch(/slotwise_http_connections_cut_total\{reason="max-connections"\} [1-9]\d*\n/);
  });
});

describe('defaults', () => {
  it('when nothing is configured, then the server the harness builds has the documented limits', async () => {
    await listening({});
    const server = h!.app.server;
    expect({
      headersTimeout: server.headersTimeout,
      requestTimeout: server.requestTimeout,
      keepAliveTimeout: server.keepAliveTimeout,
      timeout: server.timeout,
      maxConnections: server.maxConnections,
    }).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      timeout: 60_000,
      maxConnections: 1024,
    });
  });
});

describe('socket timeout', () => {
  it('when a client asks for answers and stops reading them, then its connection is closed once nothing has moved for the socket timeout', async () => {
    const { harness, port } = await listening({ socketTimeoutMs: 500, keepAliveTimeoutMs: 60_000 });
    const server = harness.app.server;
    const openConnections = () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    const reader = await client(port);
    reader.socket.pause();
    // More answers than the loopback socket's buffers hold (~16 MB against a few MB): the server
    // has to wait for the reader. Not many more: making them is CPU work, and on a busy machine
    // 400 of them (55 MB) took longer than the bound below by themselves.
    reader.socket.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: test\r\n\r\n'.repeat(120));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await openConnections()).toBe(1);
    // Writing stalls once the buffers are full, then 500 ms without progress close it: about a
    // second here, 3 s on a loaded CI run. Without the socket timeout the connection would stay
    // for the 60 s keep-alive, so any close well before that is the timeout's.
    while ((await openConnections()) > 0 && reader.elapsed() < 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await openConnections()).toBe(0);
  });
});
