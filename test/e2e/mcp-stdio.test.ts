// `npx slotwise mcp` (contract §17): the built CLI spawned as a local agent's MCP client would,
// driven by the SDK's own client over stdio, calling a real `slotwise serve` over HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  childEnv,
  CLI,
  createKey,
  ensureBuilt,
  runCli,
  startServer,
  tempStore,
  type Server,
  type TempStore,
} from './support.js';

let store: TempStore;
let server: Server;
let writeKey: string;
let readKey: string;
let eventTypeId: string;
const clients: Client[] = [];

beforeAll(async () => {
  ensureBuilt();
  store = tempStore();
  writeKey = await createKey(store.databaseUrl, 'ada');
  readKey = await createKey(store.databaseUrl, 'ada', 'read');
  server = await startServer(store.databaseUrl);
  const allDay = [{ start: '00:00', end: '24:00' }];
  const week = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, allDay]),
  );
  expect((await api(server, writeKey, 'PUT', '/api/v1/availability', { timeZone: 'UTC', weekly: week })).status).toBe(
    200,
  );
  const created = await api(server, writeKey, 'POST', '/api/v1/event-types', { title: 'Intro', durationMinutes: 30 });
  expect(created.status).toBe(201);
  eventTypeId = created.body.id;
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

afterAll(async () => {
  await server?.stop();
  store?.remove();
});

async function spawnAgent(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: childEnv(env) as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'slotwise-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function jsonOf(result: CallToolResult): any {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return JSON.parse((result.content[0] as { text: string }).text);
}

function problemOf(result: CallToolResult): any {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text);
}

describe('slotwise mcp (stdio)', () => {
  it('runs an agent’s flow against the API over HTTP: find slots, hold, book, reschedule, cancel', async () => {
    const { client } = await spawnAgent({ SLOTWISE_URL: server.url, SLOTWISE_API_KEY: writeKey });
    expect((await client.listTools()).tools).toHaveLength(11);

    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    tomorrow.setUTCHours(0, 0, 0, 0);
    const from = tomorrow.toISOString();
    const to = new Date(tomorrow.getTime() + 24 * 3600_000).toISOString();
    const slots = jsonOf(await call(client, 'find_slots', { eventTypeId, from, to })).data as Array<{ start: string }>;
    expect(slots.length).toBeGreaterThan(2);

    const hold = jsonOf(
      await call(client, 'hold_slot', { eventTypeId, start: slots[0]!.start, expiresInSeconds: 120 }),
    );
    const booking = jsonOf(
      await call(client, 'book', {
        holdId: hold.id,
        guestName: 'Ada Lovelace',
        guestEmail: 'ada@example.com',
        idempotencyKey: 'stdio-1',
      }),
    );
    expect(booking).toMatchObject({ status: 'confirmed', start: slots[0]!.start });
    const moved = jsonOf(await call(client, 'reschedule_booking', { bookingId: booking.id, start: slots[2]!.start }));
    expect(moved.rescheduledFromId).toBe(booking.id);
    expect(
      jsonOf(await call(client, 'cancel_booking', { bookingId: moved.id, reason: 'No longer needed' })),
    ).toMatchObject({ status: 'cancelled' });
    const stored = await api(server, writeKey, 'GET', `/api/v1/bookings/${booking.id}`);
    expect(stored.body).toMatchObject({ status: 'rescheduled', rescheduledToId: moved.id });
  });

  it('lists only read tools to a read key, and refuses a write tool called anyway with nothing written', async () => {
    const { client } = await spawnAgent({ SLOTWISE_URL: server.url, SLOTWISE_API_KEY: readKey });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'list_event_types',
      'get_event_type',
      'find_slots',
      'get_booking',
      'list_bookings',
      'get_availability',
    ]);
    const before = (await api(server, writeKey, 'GET', '/api/v1/bookings')).body.data.length;
    const refused = problemOf(
      await call(client, 'book', {
        eventTypeId,
        start: new Date(Date.now() + 48 * 3600_000).toISOString().slice(0, 11) + '12:00:00Z',
        guestName: 'Eve',
        guestEmail: 'eve@example.com',
      }),
    );
    expect(refused).toMatchObject({ type: 'urn:service:problem:forbidden', status: 403 });
    expect((await api(server, writeKey, 'GET', '/api/v1/bookings')).body.data.length).toBe(before);
    // Unknown tools and bad arguments, as over HTTP.
    await expect(call(client, 'no_such_tool', {})).rejects.toThrow(/Unknown tool: no_such_tool/);
    expect(problemOf(await call(client, 'find_slots', { eventTypeId })).errors).toEqual([
      { field: 'from', message: 'is required' },
      { field: 'to', message: 'is required' },
    ]);
  });

  it('answers each request with why a wrong key is refused, and keeps the session', async () => {
    const { client } = await spawnAgent({ SLOTWISE_URL: server.url, SLOTWISE_API_KEY: 'sw_wrong' });
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await client.listTools().catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).message).toMatch(/refused SLOTWISE_API_KEY \(401\).*not valid/);
    }
  });

  it('says what is wrong when SLOTWISE_URL or SLOTWISE_API_KEY is missing or bad', async () => {
    const result = await runCli(['mcp'], { SLOTWISE_URL: 'ftp://nowhere' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('SLOTWISE_URL must be an http(s) URL, got "ftp://nowhere"');
    expect(result.stderr).toContain('SLOTWISE_API_KEY must be an API key');
  });
});
