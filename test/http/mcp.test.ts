// `POST /mcp` (contract §17) driven by the MCP SDK's own client over Streamable HTTP, on both
// stores: an agent's whole flow, the tools a key sees, and every kind of bad call answered
// precisely with nothing written. The client's `fetch` goes into the apps with `inject`, taking
// turns between two apps over one store: stateless, so no request needs the instance of the last.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { composeServer, type Server } from '../../src/server.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, createEventType, putWeekdays } from './helpers.js';

const NINE_TO_FIVE = [{ start: '09:00', end: '17:00' }];
const READ_TOOLS = [
  'list_event_types',
  'get_event_type',
  'find_slots',
  'get_booking',
  'list_bookings',
  'get_availability',
];
const ALL_TOOLS = [
  'list_event_types',
  'get_event_type',
  'find_slots',
  'hold_slot',
  'release_hold',
  'book',
  'get_booking',
  'list_bookings',
  'cancel_booking',
  'reschedule_booking',
  'get_availability',
];

let h: Harness;
let second: Server;
let clients: Client[];

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  second = await composeServer(h.storage, h.settings);
  clients = [];
});

afterEach(async () => {
  for (const client of clients) await client.close();
  await second.close();
  await h.close();
});

/** `fetch` into the apps, one after the other, as a load balancer without sticky sessions would. */
function injectFetch(apps: FastifyInstance[]): typeof fetch {
  let turn = 0;
  return async (input, init) => {
    const app = apps[turn++ % apps.length]!;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(res.statusCode === 204 ? null : res.body, { status: res.statusCode, headers: responseHeaders });
  };
}

async function connect(
  token: string | null,
  headers: Record<string, string> = {},
  apps: FastifyInstance[] = [h.app, second.app],
): Promise<Client> {
  const client = new Client({ name: 'slotwise-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://slotwise.test/mcp'), {
    requestInit: { headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers } },
    fetch: injectFetch(apps),
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful result's JSON (its text, which `structuredContent` repeats for objects). */
function jsonOf<T = any>(result: CallToolResult): T {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const [content] = result.content;
  expect(content?.type).toBe('text');
  const json = JSON.parse((content as { text: string }).text) as T;
  expect(result.structuredContent).toEqual(json);
  return json;
}

/** An error result's problem document. */
function problemOf(result: CallToolResult): {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Array<{ field: string; message: string }>;
} {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text);
}

async function bookingRows(): Promise<number> {
  return (await h.database.rows('bookings')).length;
}

async function holderKey(scopes: Array<'read' | 'write'> = ['read', 'write']) {
  const { key, token } = await createApiKey(h.context, {
    accountName: 'acme',
    holderName: 'ada',
    scopes,
    expiresAt: null,
  });
  return { token, holderId: key.holderId! };
}

describe('MCP over Streamable HTTP at /mcp', () => {
  it('lets an agent find slots, hold one, book it, reschedule and cancel, with the API’s JSON as results', async () => {
    const { token } = await holderKey();
    await putWeekdays(h, token, 'UTC', NINE_TO_FIVE);
    const eventType = await createEventType(h, token, { title: 'Intro call' });
    const agent = await connect(token);
    expect(agent.getServerVersion()?.name).toBe('slotwise');

    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(ALL_TOOLS);
    const book = tools.find((tool) => tool.name === 'book')!;
    // The API's own CreateBooking schema, made self-contained, plus the Idempotency-Key.
    expect(Object.keys(book.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['holdId', 'eventTypeId', 'start', 'guestName', 'guestEmail', 'notes', 'idempotencyKey']),
    );
    expect(book.inputSchema.properties).not.toHaveProperty('holderId');
    expect(JSON.stringify(book.inputSchema)).not.toContain('$ref');

    const types = jsonOf(await call(agent, 'list_event_types', {}));
    expect(types.data.map((type: { id: string }) => type.id)).toEqual([eventType.id]);

    const slots = jsonOf(
      await call(agent, 'find_slots', {
        eventTypeId: eventType.id,
        from: '2026-01-05T00:00:00Z',
        to: '2026-01-06T00:00:00Z',
        timeZone: 'Europe/Berlin',
      }),
    );
    const [first, , third] = slots.data as Array<{ start: string }>;
    expect(first!.start).toBe('2026-01-05T10:00:00+01:00');

    const hold = jsonOf(await call(agent, 'hold_slot', { eventTypeId: eventType.id, start: first!.start }));
    expect(hold.id).toMatch(/^hld_/);

    const bookArgs = {
      holdId: hold.id,
      guestName: 'Ada Lovelace',
      guestEmail: 'ada@example.com',
      notes: 'Booked by an agent',
      idempotencyKey: 'agent-booking-1',
    };
    const booking = jsonOf(await call(agent, 'book', bookArgs));
    expect(booking).toMatchObject({
      status: 'confirmed',
      start: '2026-01-05T09:00:00.000Z',
      notes: 'Booked by an agent',
    });
    // The same idempotency key replays the booking instead of booking twice.
    expect(jsonOf(await call(agent, 'book', bookArgs)).id).toBe(booking.id);
    expect(await bookingRows()).toBe(1);

    const moved = jsonOf(
      await call(agent, 'reschedule_booking', { bookingId: booking.id, start: third!.start, reason: 'Later suits' }),
    );
    expect(moved).toMatchObject({ status: 'confirmed', rescheduledFromId: booking.id });
    expect(jsonOf(await call(agent, 'get_booking', { bookingId: booking.id }))).toMatchObject({
      status: 'rescheduled',
      rescheduledToId: moved.id,
    });

    // The list shows confirmed bookings: the moved one.
    const listed = jsonOf(
      await call(agent, 'list_bookings', { from: '2026-01-05T00:00:00Z', eventTypeId: eventType.id }),
    );
    expect(listed.data.map((b: { id: string }) => b.id)).toEqual([moved.id]);

    const cancelled = jsonOf(await call(agent, 'cancel_booking', { bookingId: moved.id, reason: 'Ada is ill' }));
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellationReason: 'Ada is ill' });
    // The API's problems come back as error results an agent can act on.
    const again = problemOf(await call(agent, 'cancel_booking', { bookingId: moved.id }));
    expect(again).toMatchObject({ type: 'urn:service:problem:invalid-state', status: 409 });
    expect(again.detail.length).toBeGreaterThan(0);

    expect(jsonOf(await call(agent, 'get_availability', {})).timeZone).toBe('UTC');
  });

  it('releases a hold, and says so without a body to repeat', async () => {
    const { token } = await holderKey();
    await putWeekdays(h, token, 'UTC', NINE_TO_FIVE);
    const eventType = await createEventType(h, token);
    const agent = await connect(token);
    const hold = jsonOf(await call(agent, 'hold_slot', { eventTypeId: eventType.id, start: '2026-01-05T09:00:00Z' }));
    const released = await call(agent, 'release_hold', { holdId: hold.id });
    expect(released.isError).toBeFalsy();
    expect(problemOf(await call(agent, 'release_hold', { holdId: hold.id }))).toMatchObject({ status: 404 });
  });

  it('refuses an unknown tool with a JSON-RPC error, and arguments that fail the schema with field errors', async () => {
    const { token } = await holderKey();
    await putWeekdays(h, token, 'UTC', NINE_TO_FIVE);
    const eventType = await createEventType(h, token);
    const agent = await connect(token);

    const unknown = await agent.callTool({ name: 'delete_everything', arguments: {} }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((unknown as McpError).message).toContain('Unknown tool: delete_everything');

    const invalid = problemOf(
      await call(agent, 'book', { eventTypeId: eventType.id, start: 'next monday', guestEmail: 'no', hostID: 'x' }),
    );
    expect(invalid).toMatchObject({ type: 'urn:service:problem:invalid-request', status: 400 });
    expect(invalid.errors!.map((error) => error.field).sort()).toEqual(['guestEmail', 'guestName', 'hostID', 'start']);
    expect(problemOf(await call(agent, 'get_booking', {})).errors).toEqual([
      { field: 'bookingId', message: 'is required' },
    ]);
    expect(await bookingRows()).toBe(0);
    // The session goes on.
    expect((await agent.listTools()).tools).toHaveLength(ALL_TOOLS.length);
  });

  it('lists only the read tools to a read key, and a write tool called anyway is refused with nothing written', async () => {
    const writer = await holderKey();
    await putWeekdays(h, writer.token, 'UTC', NINE_TO_FIVE);
    const eventType = await createEventType(h, writer.token);
    const reader = await holderKey(['read']);
    const agent = await connect(reader.token);
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toEqual(READ_TOOLS);

    const refused = problemOf(
      await call(agent, 'book', {
        eventTypeId: eventType.id,
        start: '2026-01-05T09:00:00Z',
        guestName: 'Ada',
        guestEmail: 'ada@example.com',
      }),
    );
    expect(refused).toMatchObject({ type: 'urn:service:problem:forbidden', status: 403 });
    expect(await bookingRows()).toBe(0);
    expect(jsonOf(await call(agent, 'get_event_type', { eventTypeId: eventType.id })).id).toBe(eventType.id);
  });

  it('answers a missing or wrong key with the API’s 401 before any MCP message is read', async () => {
    for (const token of [null, 'sw_not_a_key']) {
      const error = await connect(token).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).message)).toMatch(/401/);
    }
    const raw = await h.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.statusCode).toBe(401);
    expect(raw.json()).toMatchObject({ type: 'urn:service:problem:unauthorized' });
    expect((await h.app.inject({ method: 'GET', url: '/mcp' })).statusCode).toBe(405);
    // A Host header that makes no URL is no 500.
    const { token } = await holderKey();
    const oddHost = await h.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        host: 'a b',
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(oddHost.statusCode, oddHost.body).toBe(200);
  });

  it('gives an account key’s tools `holderId`, sent as Slotwise-Holder, and honours the header on /mcp', async () => {
    const ada = await holderKey();
    await putWeekdays(h, ada.token, 'UTC', NINE_TO_FIVE);
    const eventType = await createEventType(h, ada.token);
    const account = (
      await createApiKey(h.context, {
        accountName: 'acme',
        holderName: null,
        scopes: ['read', 'write'],
        expiresAt: null,
      })
    ).token;

    const agent = await connect(account);
    const { tools } = await agent.listTools();
    for (const tool of tools) expect(tool.inputSchema.properties, tool.name).toHaveProperty('holderId');
    expect(problemOf(await call(agent, 'get_availability', {}))).toMatchObject({ status: 400 });
    expect(jsonOf(await call(agent, 'get_availability', { holderId: ada.holderId })).timeZone).toBe('UTC');

    const acting = await connect(account, { 'slotwise-holder': ada.holderId });
    const booking = jsonOf(
      await call(acting, 'book', {
        eventTypeId: eventType.id,
        start: '2026-01-05T09:00:00Z',
        guestName: 'Grace',
        guestEmail: 'grace@example.com',
      }),
    );
    expect(booking.holderId).toBe(ada.holderId);
    expect(
      problemOf(await call(agent, 'get_booking', { bookingId: booking.id, holderId: 'hdr_00000000000000000000' })),
    ).toMatchObject({ status: 404 });
  });
});

describe('/mcp under the API’s limits and logging rules', () => {
  let logged: Server;
  let lines: string[];
  const LIMIT = 3;

  beforeEach(async () => {
    lines = [];
    const destination = { write: (text: string) => lines.push(...text.split('\n').filter(Boolean)) };
    logged = await composeServer(h.storage, {
      ...h.settings,
      rateLimitPerMinute: LIMIT,
      log: { level: 'info', destination },
    });
  });

  afterEach(async () => {
    await logged.close();
  });

  it('logs one line per MCP request and per tool’s API request, under one request id, without the key or a booking’s links', async () => {
    const { token } = await holderKey();
    await putWeekdays(h, token, 'UTC', NINE_TO_FIVE);
    const eventType = await createEventType(h, token);
    const agent = await connect(token, {}, [logged.app]);
    const booking = jsonOf(
      await call(agent, 'book', {
        eventTypeId: eventType.id,
        start: '2026-01-05T09:00:00Z',
        guestName: 'Ada',
        guestEmail: 'ada@example.com',
      }),
    );
    const requests = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((l) => l.msg === 'request');
    const bookLine = requests.find((line) => line.route === '/api/v1/bookings')!;
    expect(bookLine).toMatchObject({ method: 'POST', status: 201, key: expect.any(String) });
    expect(requests.filter((line) => line.route === '/mcp' && line.reqId === bookLine.reqId)).toHaveLength(1);
    const manageToken = new URL(booking.manageUrl).pathname.split('/').pop()!;
    expect(manageToken.length).toBeGreaterThan(10);
    const log = lines.join('\n');
    expect(log).not.toContain(token);
    expect(log).not.toContain(manageToken);
  });

  it('counts each tool call once against the key’s rate limit (429 as an error result); listing tools is not a call of the API', async () => {
    const { token } = await holderKey();
    await putWeekdays(h, token, 'UTC', NINE_TO_FIVE);
    const agent = await connect(token, {}, [logged.app]);
    for (let i = 0; i < LIMIT; i++) jsonOf(await call(agent, 'get_availability', {}));
    expect((await agent.listTools()).tools).toHaveLength(ALL_TOOLS.length);
    const limited = problemOf(await call(agent, 'get_availability', {}));
    expect(limited).toMatchObject({ type: 'urn:service:problem:rate-limited', status: 429 });
  });

  it('refuses a body over the API’s limit with its 413 before the MCP server sees it', async () => {
    const { token } = await holderKey();
    const res = await logged.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'book', arguments: { notes: 'x'.repeat(200 * 1024) } },
      }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ type: 'urn:service:problem:payload-too-large' });
  });
});
