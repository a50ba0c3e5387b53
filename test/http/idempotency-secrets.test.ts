// Issue 12 item 8, contract §8: a webhook's signing secret never rests in the idempotency store in
// the clear. The stored answer of a secret-bearing route is encrypted under the "idempotency-replay"
// key of SLOTWISE_SECRET; its replay shows the secret only while the webhook exists (after a DELETE,
// 409 invalid-state without it); a stored answer whose key was rotated out is a clean 409, never a 500.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeServer, type Server } from '../../src/server.js';
import { createHarness, type Harness } from '../support/harness.js';
import { NEXT_TEST_SECRET, TEST_SECRET, testKeyring } from '../support/secrets.js';
import { expectProblem } from './helpers.js';

const WEBHOOK_URL = 'https://hooks.example.com/in';
const BODY = { url: WEBHOOK_URL, description: 'CRM' };

interface CreatedWebhook {
  id: string;
  secret: string;
}

let h: Harness;
let token: string;
let other: Server | undefined;

beforeEach(async () => {
  h = await createHarness({ webhookLimitPerHolder: 2 });
  token = await h.key('alice');
});

afterEach(async () => {
  await other?.close();
  other = undefined;
  await h.close();
});

/** An inject on `server` (by default the harness's) with alice's key. */
function send(options: InjectOptions, server: Server = h.server): Promise<LightMyRequestResponse> {
  return server.app.inject({ ...options, headers: { authorization: `Bearer ${token}`, ...options.headers } });
}

function register(key: string, server?: Server): Promise<LightMyRequestResponse> {
  return send({ method: 'POST', url: '/api/v1/webhooks', payload: BODY, headers: { 'idempotency-key': key } }, server);
}

/** Another server on the same database whose SLOTWISE_SECRET is `keys`: a restart with other keys. */
async function serverWithKeys(keys: string[]): Promise<Server> {
  other = await composeServer(h.storage, { ...h.settings, keyring: testKeyring(keys) });
  return other;
}

async function storedRows(): Promise<Array<Record<string, unknown>>> {
  return h.database.rows('idempotency_keys');
}

describe('the stored answer of POST /webhooks', () => {
  it('when a webhook is registered under an Idempotency-Key, then the stored row holds neither its secret nor its body in the clear', async () => {
    const first = await register('wh-stored');
    expect(first.statusCode, first.body).toBe(201);
    const created = first.json<CreatedWebhook>();
    const rows = await storedRows();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.state).toBe('done');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(created.secret);
    expect(stored).not.toContain(created.secret.slice('whsec_'.length));
    expect(stored).not.toContain('whsec_');
    expect(stored).not.toContain(WEBHOOK_URL);
    expect(String(row.response_body)).toMatch(/^s1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
  });

  it('when a route that shows no secret is stored, then its answer is kept as it was sent', async () => {
    const created = await send({
      method: 'POST',
      url: '/api/v1/event-types',
      payload: { title: 'Demo', durationMinutes: 30 },
      headers: { 'idempotency-key': 'et-plain' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await storedRows())[0]!.response_body).toBe(created.body);
  });
});

describe('replaying POST /webhooks', () => {
  it('when the webhook still exists, then the replay gives the same 201 with the same secret', async () => {
    const first = await register('wh-replay');
    expect(first.statusCode, first.body).toBe(201);
    const again = await register('wh-replay');
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.json<CreatedWebhook>().secret).toBe(first.json<CreatedWebhook>().secret);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(await h.database.rows('webhooks')).toHaveLength(1);
  });

  it('when the webhook was deleted since, then the replay is 409 invalid-state without the secret, and nothing is registered', async () => {
    const first = await register('wh-deleted');
    const created = first.json<CreatedWebhook>();
    const deleted = await send({ method: 'DELETE', url: `/api/v1/webhooks/${created.id}` });
    expect(deleted.statusCode, deleted.body).toBe(204);

    const again = await register('wh-deleted');
    const problem = expectProblem(again, 409, 'invalid-state');
    expect(problem.detail).toContain('deleted');
    expect(again.body).not.toContain(created.secret);
    expect(again.body).not.toContain('whsec_');
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await h.database.rows('webhooks')).toHaveLength(0);
    // Still the same answer later: the key is used up, not freed for a new registration.
    expectProblem(await register('wh-deleted'), 409, 'invalid-state');
    expect(await h.database.rows('webhooks')).toHaveLength(0);
  });

  it('when the stored answer is a 409 limit-reached (no secret in it), then it is replayed as stored', async () => {
    const kept = [await register('wh-a'), await register('wh-b')].map((res) => res.json<CreatedWebhook>());
    const refused = await register('wh-over');
    expectProblem(refused, 409, 'limit-reached');
    // Room again, but the key's answer stays what it was.
    await send({ method: 'DELETE', url: `/api/v1/webhooks/${kept[0]!.id}` });
    const again = await register('wh-over');
    expectProblem(again, 409, 'limit-reached');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(refused.body);
  });
});

describe('rotating SLOTWISE_SECRET', () => {
  it('when an answer stored under key A is replayed with SLOTWISE_SECRET=B,A, then it gives the same secret', async () => {
    const first = await register('wh-rotate');
    expect(first.statusCode, first.body).toBe(201);
    const rotated = await serverWithKeys([NEXT_TEST_SECRET, TEST_SECRET]);
    const again = await register('wh-rotate', rotated);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('when a new answer is stored with SLOTWISE_SECRET=B,A, then it is encrypted under B: a server with B alone replays it', async () => {
    const rotated = await serverWithKeys([NEXT_TEST_SECRET, TEST_SECRET]);
    const first = await register('wh-new-key', rotated);
    expect(first.statusCode, first.body).toBe(201);
    await other!.close();
    const onlyB = await serverWithKeys([NEXT_TEST_SECRET]);
    const again = await register('wh-new-key', onlyB);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.body).toBe(first.body);
  });

  it('when key A was retired (SLOTWISE_SECRET=B) before the replay, then 409 invalid-state without the secret, never a 500', async () => {
    const first = await register('wh-retired');
    const created = first.json<CreatedWebhook>();
    const onlyB = await serverWithKeys([NEXT_TEST_SECRET]);
    const again = await register('wh-retired', onlyB);
    const problem = expectProblem(again, 409, 'invalid-state');
    expect(problem.detail).toContain('can no longer be read');
    expect(again.body).not.toContain(created.secret);
    expect(await h.database.rows('webhooks')).toHaveLength(1);
  });
});
