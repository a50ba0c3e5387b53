// Contract §8, SLOTWISE_SECRET as `slotwise serve` reads it: on SQLite without it, a key file made
// in the data folder on first start (0600) and reused after a restart; on PostgreSQL without it, a
// clear configuration error before anything starts. No key is ever written to the log.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET } from '../support/secrets.js';
import { createKey, ensureBuilt, runCli, startServer, tempStore, type Server, type TempStore } from './support.js';

const stores: TempStore[] = [];
const servers: Server[] = [];

beforeAll(() => {
  ensureBuilt();
}, 120_000);

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  for (const store of stores.splice(0)) store.remove();
}, 30_000);

async function start(store: TempStore, env: Record<string, string> = {}): Promise<Server> {
  const server = await startServer(store.databaseUrl, {
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...env,
  });
  servers.push(server);
  return server;
}

/** POST /api/v1/webhooks under an Idempotency-Key. */
async function register(server: Server, token: string, key: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${server.url}/api/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.text() };
}

describe('slotwise serve and SLOTWISE_SECRET', () => {
  it('when SQLite runs without SLOTWISE_SECRET, then a 0600 key file is made next to the database on first start and reused after a restart', async () => {
    const store = tempStore();
    stores.push(store);
    const token = await createKey(store.databaseUrl, 'alice');
    const keyFile = join(store.dir, 'slotwise.secret');

    const first = await start(store);
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8');
    const created = await register(first, token, 'wh-restart');
    expect(created.status, created.body).toBe(201);
    await first.stop();

    const second = await start(store);
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    // The answer stored (encrypted) by the first process opens in the second: the same key.
    const replayed = await register(second, token, 'wh-restart');
    expect(replayed.status, replayed.body).toBe(201);
    expect(replayed.body).toBe(created.body);
    // Log lines are written in batches: all of them are out once the process has exited.
    await second.stop();
    expect(first.output()).toContain(`"from":"new key file ${keyFile}"`);
    expect(second.output()).toContain(`"from":"key file ${keyFile}"`);
    for (const server of [first, second]) expect(server.output()).not.toContain(key.trim());
  });

  it('when SLOTWISE_SECRET is set on SQLite, then no key file is made and the log names the variable, not the key', async () => {
    const store = tempStore();
    stores.push(store);
    const server = await start(store, { SLOTWISE_SECRET: TEST_SECRET });
    expect(existsSync(join(store.dir, 'slotwise.secret'))).toBe(false);
    await server.stop();
    expect(server.output()).toContain('"from":"SLOTWISE_SECRET"');
    expect(server.output()).not.toContain(TEST_SECRET);
  });

  it('when PostgreSQL is configured without SLOTWISE_SECRET, then serve exits 1 with the configuration error before connecting', async () => {
    const result = await runCli(['serve'], {
      DATABASE_URL: 'postgres://u:pw@127.0.0.1:1/x',
      SLOTWISE_SECRET: '',
      PORT: '0',
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('SLOTWISE_SECRET is required with a PostgreSQL DATABASE_URL');
    expect(result.stderr).toContain('openssl rand -base64 32');
    // Refused by the configuration, not by the unreachable database.
    expect(result.stderr).not.toContain('cannot open the database');
    expect(result.stdout).toBe('');
  });

  it('when SLOTWISE_SECRET holds a short key, then serve exits 1 naming the problem and not the key', async () => {
    const store = tempStore();
    stores.push(store);
    const result = await runCli(['serve'], { DATABASE_URL: store.databaseUrl, SLOTWISE_SECRET: 'hunter2', PORT: '0' });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('SLOTWISE_SECRET is 7 characters long; each key needs at least 32');
    expect(result.stderr).not.toContain('hunter2');
  });
});
