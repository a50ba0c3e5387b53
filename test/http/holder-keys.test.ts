// Contract §12: a holder's API keys made, listed and revoked by its account through the API, on
// both stores. The key is shown once (and replayed under its Idempotency-Key, encrypted at rest,
// only while it works); a revoked key answers 401 from the very next request.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import type { Scope } from '../../src/domain/api-key.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, expectInvalid, expectProblem, type ListBody } from './helpers.js';

interface CreatedKeyBody {
  id: string;
  key: string;
  scopes: Scope[];
  expiresAt: string | null;
  description: string | null;
  createdAt: string;
}

interface KeyBody {
  id: string;
  scopes: Scope[];
  expiresAt: string | null;
  description: string | null;
  createdAt: string;
  revokedAt: string | null;
}

let h: Harness;
let acme: string;
let holderId: string;

async function accountKey(harness: Harness, account: string): Promise<string> {
  const { token } = await createApiKey(harness.context, {
    accountName: account,
    holderName: null,
    scopes: ['read', 'write'],
    expiresAt: null,
  });
  return token;
}

async function newHolder(harness: Harness, token: string, name: string): Promise<string> {
  const res = await harness.request({ method: 'POST', url: '/api/v1/holders', token, json: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  acme = await accountKey(h, 'acme');
  holderId = await newHolder(h, acme, 'Ada');
});

afterEach(async () => {
  await h.close();
});

const createKey = (
  json: unknown,
  options: { holder?: string; token?: string; headers?: Record<string, string> } = {},
) =>
  h.request({
    method: 'POST',
    url: `/api/v1/holders/${options.holder ?? holderId}/keys`,
    token: options.token ?? acme,
    json,
    ...(options.headers ? { headers: options.headers } : {}),
  });
const listKeys = (query = '', holder = holderId, token = acme) =>
  h.request({ method: 'GET', url: `/api/v1/holders/${holder}/keys${query}`, token });
const revoke = (keyId: string, holder = holderId, token = acme) =>
  h.request({ method: 'DELETE', url: `/api/v1/holders/${holder}/keys/${keyId}`, token });
const me = (token: string) => h.request({ method: 'GET', url: '/api/v1/me', token });

async function madeKey(json: Record<string, unknown> = { scopes: ['read', 'write'] }): Promise<CreatedKeyBody> {
  const res = await createKey(json);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedKeyBody>();
}

describe('POST /api/v1/holders/{id}/keys', () => {
  it('when made, then 201 shows the key once, and the key acts for that holder with its scopes', async () => {
    const res = await createKey({ scopes: ['read'], description: 'Reporting' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<CreatedKeyBody>();
    expect(created).toEqual({
      id: expect.stringMatching(/^key_[0-9a-z]{20}$/),
      key: expect.stringMatching(/^sw_[A-Za-z0-9_-]{43}$/),
      scopes: ['read'],
      expiresAt: null,
      description: 'Reporting',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const mine = await me(created.key);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({
      holder: { id: holderId, name: 'Ada' },
      key: { id: created.id, scopes: ['read'] },
    });
    expectProblem(
      await h.request({ method: 'POST', url: '/api/v1/event-types', token: created.key, json: {} }),
      403,
      'forbidden',
    );
    // Only its digest is stored.
    const stored = await h.database.rows('api_keys');
    expect(JSON.stringify(stored)).not.toContain(created.key);
  });

  it('when expiresInDays is sent, then the key works until exactly then', async () => {
    const created = await madeKey({ scopes: ['*'], expiresInDays: 2 });
    expect(created.expiresAt).toBe('2026-01-03T00:00:00.000Z');
    h.clock.set('2026-01-02T23:59:59.999Z');
    expect((await me(created.key)).statusCode).toBe(200);
    h.clock.set('2026-01-03T00:00:00Z');
    expectProblem(await me(created.key), 401, 'unauthorized');
  });

  it('when every field is wrong, then 400 with one entry per field and no key made', async () => {
    const before = await h.database.rows('api_keys');
    expectInvalid(await createKey({ scopes: ['admin'], expiresInDays: 0, description: 'd'.repeat(201), holderId }), [
      'scopes[0]',
      'expiresInDays',
      'description',
      'holderId',
    ]);
    expect(await h.database.rows('api_keys')).toEqual(before);
  });

  it.each([
    ['no scopes', {}, 'scopes'],
    ['no scope at all', { scopes: [] }, 'scopes'],
    ['a scope twice', { scopes: ['read', 'read'] }, 'scopes'],
    ['scopes that are no list', { scopes: 'read' }, 'scopes'],
    ['3651 days', { scopes: ['read'], expiresInDays: 3651 }, 'expiresInDays'],
    ['a fraction of a day', { scopes: ['read'], expiresInDays: 1.5 }, 'expiresInDays'],
  ])('when the body has %s, then 400 on that field', async (_what, json, field) => {
    expectInvalid(await createKey(json), [field]);
  });

  it('when the longest life and description are sent, then they are accepted', async () => {
    const created = await madeKey({ scopes: ['write', 'read'], expiresInDays: 3650, description: 'd'.repeat(200) });
    expect(created.expiresAt).toBe(new Date(Date.parse(BEFORE_MONDAY) + 3650 * 86_400_000).toISOString());
  });

  it('when the holder is another account’s, unknown or deleted, then 404 and no key is made', async () => {
    const foreign = await newHolder(h, await accountKey(h, 'globex'), 'Linus');
    const gone = await newHolder(h, acme, 'Gone');
    expect((await h.request({ method: 'DELETE', url: `/api/v1/holders/${gone}`, token: acme })).statusCode).toBe(204);
    const before = await h.database.rows('api_keys');
    for (const id of [foreign, gone, 'hdr_00000000000000000000']) {
      const problem = expectProblem(await createKey({ scopes: ['read'] }, { holder: id }), 404, 'not-found');
      expect(problem.detail).toBe(`Holder ${id} was not found.`);
      expectProblem(await listKeys('', id), 404, 'not-found');
      expectProblem(await revoke('key_x', id), 404, 'not-found');
    }
    expect(await h.database.rows('api_keys')).toEqual(before);
  });
});

describe('Idempotency-Key on POST /api/v1/holders/{id}/keys', () => {
  it('when replayed, then the same key is shown, stored encrypted; once revoked, the replay is 409 without it', async () => {
    const headers = { 'idempotency-key': 'make-reporting-key' };
    const first = await createKey({ scopes: ['read'] }, { headers });
    expect(first.statusCode, first.body).toBe(201);
    const replay = await createKey({ scopes: ['read'] }, { headers });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    // The account key and this one: no second key was made.
    expect(await h.database.rows('api_keys')).toHaveLength(2);

    const [stored] = await h.database.rows('idempotency_keys');
    expect(String(stored!.response_body)).not.toContain(first.json<CreatedKeyBody>().key);

    expect((await revoke(first.json<CreatedKeyBody>().id)).statusCode).toBe(204);
    const afterRevocation = await createKey({ scopes: ['read'] }, { headers });
    const problem = expectProblem(afterRevocation, 409, 'invalid-state');
    expect(afterRevocation.body).not.toContain(first.json<CreatedKeyBody>().key);
    expect(problem.detail).toContain('revoked');
  });
});

describe('keys per holder', () => {
  it('when the holder has KEYS_PER_HOLDER keys not revoked, then another is 409 limit-reached; a revocation makes room; other holders are not affected', async () => {
    const limited = await createHarness({ now: BEFORE_MONDAY, keysPerHolder: 2 });
    try {
      const key = await accountKey(limited, 'acme');
      const ada = await newHolder(limited, key, 'Ada');
      const grace = await newHolder(limited, key, 'Grace');
      const make = (holder: string) =>
        limited.request({
          method: 'POST',
          url: `/api/v1/holders/${holder}/keys`,
          token: key,
          json: { scopes: ['read'] },
        });
      // A key made with the CLI counts as well.
      await createApiKey(limited.context, { accountName: 'acme', holderName: 'Ada', scopes: ['*'], expiresAt: null });
      const first = await make(ada);
      expect(first.statusCode).toBe(201);
      const refused = await make(ada);
      expectProblem(refused, 409, 'limit-reached');
      expect(refused.json<{ detail: string }>().detail).toContain('2 keys');
      expect((await make(grace)).statusCode).toBe(201);

      const revoked = await limited.request({
        method: 'DELETE',
        url: `/api/v1/holders/${ada}/keys/${first.json<CreatedKeyBody>().id}`,
        token: key,
      });
      expect(revoked.statusCode).toBe(204);
      expect((await make(ada)).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('when eight creations race for the last three places, then exactly three get one', async () => {
    const limited = await createHarness({ now: BEFORE_MONDAY, keysPerHolder: 3 });
    try {
      const key = await accountKey(limited, 'acme');
      const ada = await newHolder(limited, key, 'Ada');
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          limited.request({
            method: 'POST',
            url: `/api/v1/holders/${ada}/keys`,
            token: key,
            json: { scopes: ['read'] },
          }),
        ),
      );
      expect(results.filter((res) => res.statusCode === 201)).toHaveLength(3);
      expect(results.filter((res) => res.statusCode === 409)).toHaveLength(5);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /api/v1/holders/{id}/keys', () => {
  it('when listed, then every key of the holder, revoked ones with revokedAt, oldest first, a page at a time, never the key', async () => {
    const first = await madeKey({ scopes: ['read'], description: 'first' });
    h.clock.set('2026-01-01T01:00:00Z');
    const second = await madeKey({ scopes: ['*'], expiresInDays: 30 });
    h.clock.set('2026-01-01T02:00:00Z');
    expect((await revoke(first.id)).statusCode).toBe(204);
    // Another holder's key is not listed.
    const other = await newHolder(h, acme, 'Grace');
    expect((await createKey({ scopes: ['read'] }, { holder: other })).statusCode).toBe(201);

    const firstPage = await listKeys('?limit=1');
    expect(firstPage.statusCode, firstPage.body).toBe(200);
    const page = firstPage.json<ListBody<KeyBody>>();
    expect(page.data).toEqual([
      {
        id: first.id,
        scopes: ['read'],
        expiresAt: null,
        description: 'first',
        createdAt: '2026-01-01T00:00:00.000Z',
        revokedAt: '2026-01-01T02:00:00.000Z',
      },
    ]);
    expect(page.nextCursor).not.toBeNull();
    const rest = (await listKeys(`?limit=1&cursor=${page.nextCursor}`)).json<ListBody<KeyBody>>();
    expect(rest).toEqual({
      data: [
        {
          id: second.id,
          scopes: ['*'],
          expiresAt: '2026-01-31T01:00:00.000Z',
          description: null,
          createdAt: '2026-01-01T01:00:00.000Z',
          revokedAt: null,
        },
      ],
      nextCursor: null,
    });
    expect(firstPage.body + JSON.stringify(rest)).not.toMatch(/sw_/);
  });

  it('when the query is malformed, then 400', async () => {
    expectInvalid(await listKeys('?limit=500&cursor=x'), ['limit']);
    expectInvalid(await listKeys('?cursor=x'), ['cursor']);
  });
});

describe('DELETE /api/v1/holders/{id}/keys/{keyId}', () => {
  it('when a key in use is revoked, then its very next request is 401, and the holder’s other keys keep working', async () => {
    const revoked = await madeKey();
    const kept = await madeKey();
    // Warm: this process has read both keys.
    expect((await me(revoked.key)).statusCode).toBe(200);
    expect((await me(kept.key)).statusCode).toBe(200);

    const res = await revoke(revoked.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    const refused = await me(revoked.key);
    expectProblem(refused, 401, 'unauthorized');
    expect(refused.json<{ detail: string }>().detail).toBe('The API key has been revoked.');
    expect((await me(kept.key)).statusCode).toBe(200);
  });

  it('when the key is unknown, another holder’s, an account key or revoked already, then 404 and nothing changes', async () => {
    const own = await madeKey();
    const other = await newHolder(h, acme, 'Grace');
    const othersKey = (await createKey({ scopes: ['read'] }, { holder: other })).json<CreatedKeyBody>();
    const accountKeyId = (await h.database.rows('api_keys')).find((row) => row.holder_id === null)!.id as string;
    expect((await revoke(own.id)).statusCode).toBe(204);

    for (const keyId of [own.id, othersKey.id, accountKeyId, 'key_00000000000000000000']) {
      const problem = expectProblem(await revoke(keyId), 404, 'not-found');
      expect(problem.detail).toBe(`Key ${keyId} was not found.`);
    }
    expect((await me(othersKey.key)).statusCode).toBe(200);
    expect((await me(acme)).statusCode).toBe(200);
  });

  it('when another account’s key tries to revoke, then 404 and the key keeps working', async () => {
    const own = await madeKey();
    expectProblem(await revoke(own.id, holderId, await accountKey(h, 'globex')), 404, 'not-found');
    expect((await me(own.key)).statusCode).toBe(200);
  });
});
