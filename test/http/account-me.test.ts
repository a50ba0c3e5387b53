// Contract §12: `GET/PATCH /api/v1/me` in account scope answer with the account and the calling
// key; acting for a holder they answer exactly as before. Both stores.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, expectInvalid, expectProblem } from './helpers.js';

let h: Harness;
let acme: string;
let acmeKeyId: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  const made = await createApiKey(h.context, {
    accountName: 'Acme Corp',
    holderName: null,
    scopes: ['read', 'write'],
    expiresAt: Date.parse('2027-01-01T00:00:00Z'),
  });
  acme = made.token;
  acmeKeyId = made.key.id;
});

afterEach(async () => {
  await h.close();
});

const me = (token: string, headers: Record<string, string> = {}) =>
  h.request({ method: 'GET', url: '/api/v1/me', token, headers });
const patchMe = (token: string, json: unknown, headers: Record<string, string> = {}) =>
  h.request({ method: 'PATCH', url: '/api/v1/me', token, json, headers });

describe('GET /api/v1/me in account scope', () => {
  it('when an account key sends no Slotwise-Holder, then the account (handle derived from its name) and the key', async () => {
    const res = await me(acme);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      account: {
        id: expect.stringMatching(/^acc_[0-9a-z]{20}$/),
        name: 'Acme Corp',
        handle: 'acme-corp',
        displayName: 'Acme Corp',
      },
      key: {
        id: acmeKeyId,
        scopes: ['read', 'write'],
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: '2027-01-01T00:00:00.000Z',
      },
    });
  });

  it('when the account key acts for a holder, or a holder key asks, then the holder’s answer as before', async () => {
    const ada = await h.request({ method: 'POST', url: '/api/v1/holders', token: acme, json: { name: 'Ada' } });
    const holderId = ada.json<{ id: string }>().id;
    const acting = await me(acme, { 'slotwise-holder': holderId });
    expect(acting.statusCode, acting.body).toBe(200);
    expect(acting.json()).toEqual({
      holder: {
        id: holderId,
        name: 'Ada',
        handle: 'ada',
        displayName: 'Ada',
        calendarFeedUrl: expect.stringMatching(/^http:\/\/localhost\/feeds\//),
      },
      key: { id: acmeKeyId, scopes: ['read', 'write'], createdAt: expect.any(String), expiresAt: expect.any(String) },
    });
    const own = await h.key('solo');
    expect(Object.keys((await me(own)).json())).toEqual(['holder', 'key']);
  });
});

describe('PATCH /api/v1/me in account scope', () => {
  it('when handle and displayName are sent, then the account has them; null shows the name again', async () => {
    const res = await patchMe(acme, { handle: 'acme', displayName: 'ACME Scheduling' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ account: unknown }>().account).toMatchObject({ handle: 'acme', displayName: 'ACME Scheduling' });
    expect((await me(acme)).json()).toEqual(res.json());
    const cleared = await patchMe(acme, { displayName: null });
    expect(cleared.json<{ account: { displayName: string; handle: string } }>().account).toMatchObject({
      handle: 'acme',
      displayName: 'Acme Corp',
    });
    const [row] = await h.database.rows('accounts');
    expect(Number(row!.updated_at)).toBe(Date.parse(BEFORE_MONDAY));
  });

  it('when the handle is another account’s, then 409 conflict on handle and nothing changes; a holder’s handle is no obstacle', async () => {
    await createApiKey(h.context, { accountName: 'Globex', holderName: null, scopes: ['*'], expiresAt: null });
    const before = (await me(acme)).json();
    const problem = expectProblem(await patchMe(acme, { handle: 'globex', displayName: 'Taken' }), 409, 'conflict');
    expect(problem.errors).toEqual([{ field: 'handle', message: 'is taken' }]);
    expect(problem.detail).toContain('another account');
    expect((await me(acme)).json()).toEqual(before);

    const holder = await h.request({
      method: 'POST',
      url: '/api/v1/holders',
      token: acme,
      json: { name: 'Ada', handle: 'lovelace' },
    });
    expect(holder.statusCode).toBe(201);
    expect((await patchMe(acme, { handle: 'lovelace' })).statusCode).toBe(200);
  });

  it('when the body is wrong, then 400 on each field', async () => {
    expectInvalid(await patchMe(acme, { handle: 'Acme Corp', displayName: 'a\nb', name: 'x' }), [
      'handle',
      'displayName',
      'name',
    ]);
    expectInvalid(await patchMe(acme, { handle: 'a'.repeat(65) }), ['handle']);
  });

  it('when the account key acts for a holder, then the holder’s profile changes, not the account’s', async () => {
    const ada = await h.request({ method: 'POST', url: '/api/v1/holders', token: acme, json: { name: 'Ada' } });
    const holderId = ada.json<{ id: string }>().id;
    const res = await patchMe(acme, { handle: 'lovelace' }, { 'slotwise-holder': holderId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ holder: { handle: string } }>().holder.handle).toBe('lovelace');
    expect((await me(acme)).json<{ account: { handle: string } }>().account.handle).toBe('acme-corp');
  });

  it('when the key may only read, then 403', async () => {
    const { token } = await createApiKey(h.context, {
      accountName: 'Acme Corp',
      holderName: null,
      scopes: ['read'],
      expiresAt: null,
    });
    expectProblem(await patchMe(token, { handle: 'acme' }), 403, 'forbidden');
  });
});

describe('POST /api/v1/me/calendar-feed/rotate in account scope', () => {
  it('when no holder is named, then 400 on Slotwise-Holder', async () => {
    const res = await h.request({ method: 'POST', url: '/api/v1/me/calendar-feed/rotate', token: acme });
    expectInvalid(res, ['Slotwise-Holder']);
  });
});

describe('the OpenAPI document', () => {
  it('when /me is described, then its answer is one of HolderMe and AccountMe', async () => {
    const document = (await h.request({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>
      >;
      components: { schemas: Record<string, { anyOf?: unknown[] }> };
    }>();
    for (const method of ['get', 'patch']) {
      expect(document.paths['/api/v1/me']![method]!.responses['200']!.content['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/Me',
      });
    }
    expect(document.components.schemas.Me!.anyOf).toEqual([
      { $ref: '#/components/schemas/HolderMe' },
      { $ref: '#/components/schemas/AccountMe' },
    ]);
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Holder', 'HolderKey']));
  });
});
