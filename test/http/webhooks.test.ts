import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  expectInvalid,
  expectInvalidIncluding,
  expectProblem,
  type ListBody,
  type WebhookBody,
} from './helpers.js';

let h: Harness;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
});

afterEach(async () => {
  await h.close();
});

const register = (json: unknown) => h.request({ method: 'POST', url: '/api/v1/webhooks', token, json });
const list = (query = '') => h.request({ method: 'GET', url: `/api/v1/webhooks${query}`, token });
const remove = (id: string) => h.request({ method: 'DELETE', url: `/api/v1/webhooks/${id}`, token });

const ALL_EVENTS = [
  'booking.created',
  'booking.cancelled',
  'booking.rescheduled',
  'booking.reminder',
  'calendar_source.failed',
  'calendar_source.recovered',
];

describe('webhooks per holder', () => {
  it('when the holder has as many webhooks as the limit, then another is 409 limit-reached and not stored; after a deletion there is room again; other holders are not affected', async () => {
    const limited = await createHarness({ now: BEFORE_MONDAY, webhookLimitPerHolder: 2 });
    try {
      const alice = await limited.key('alice');
      const bob = await limited.key('bob');
      const registerAs = (key: string) =>
        limited.request({
          method: 'POST',
          url: '/api/v1/webhooks',
          token: key,
          json: { url: 'https://hooks.example.com/a' },
        });
      const first = await registerAs(alice);
      expect((await registerAs(alice)).statusCode).toBe(201);
      const refused = await registerAs(alice);
      expectProblem(refused, 409, 'limit-reached');
      expect(refused.json<{ detail: string }>().detail).toContain('2 webhooks');
      expect(await limited.database.rows('webhooks')).toHaveLength(2);
      expect((await registerAs(bob)).statusCode).toBe(201);

      const removed = await limited.request({
        method: 'DELETE',
        url: `/api/v1/webhooks/${first.json<WebhookBody>().id}`,
        token: alice,
      });
      expect(removed.statusCode).toBe(204);
      expect((await registerAs(alice)).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('when registrations race for the last place, then exactly one gets it', async () => {
    const limited = await createHarness({ now: BEFORE_MONDAY, webhookLimitPerHolder: 3 });
    try {
      const alice = await limited.key('alice');
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          limited.request({
            method: 'POST',
            url: '/api/v1/webhooks',
            token: alice,
            json: { url: 'https://hooks.example.com/a' },
          }),
        ),
      );
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
      for (const r of results.filter((r) => r.statusCode !== 201)) expectProblem(r, 409, 'limit-reached');
      expect(await limited.database.rows('webhooks')).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/v1/webhooks', () => {
  it('when only a url is sent, then 201 with a whsec_ secret of at least 24 bytes, all events, active, no description', async () => {
    const res = await register({ url: 'https://hooks.example.com/slotwise' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json<WebhookBody>();
    expect(body.id).toMatch(/^whk_/);
    expect(body).toMatchObject({
      url: 'https://hooks.example.com/slotwise',
      description: null,
      active: true,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect([...body.events].sort()).toEqual([...ALL_EVENTS].sort());
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const decoded = Buffer.from(body.secret!.slice('whsec_'.length), 'base64');
    expect(decoded.length).toBeGreaterThanOrEqual(24);
    expect(decoded.toString('base64')).toBe(body.secret!.slice('whsec_'.length));
  });

  it('when two webhooks are registered, then their secrets differ', async () => {
    const a = (await register({ url: 'https://a.example.com/' })).json<WebhookBody>();
    const b = (await register({ url: 'https://b.example.com/' })).json<WebhookBody>();
    expect(a.secret).not.toBe(b.secret);
  });

  it('when events, description and active are sent, then they are stored', async () => {
    const res = await register({
      url: 'http://hooks.example.com/x?y=1',
      events: ['booking.cancelled'],
      description: 'CRM sync',
      active: false,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<WebhookBody>()).toMatchObject({
      events: ['booking.cancelled'],
      description: 'CRM sync',
      active: false,
    });
  });

  it.each([
    ['relative', '/hooks'],
    ['not a URL', 'hooks example com'],
    ['ftp', 'ftp://example.com/hooks'],
    ['javascript', 'javascript:alert(1)'],
    ['with credentials', 'https://user:pass@example.com/hooks'],
    ['with a user only', 'https://user@example.com/hooks'],
    ['empty', ''],
  ])('when the url is %s, then 400 on url', async (_label, url) => {
    expectInvalid(await register({ url }), ['url']);
    expect((await list()).json<ListBody<WebhookBody>>().data).toEqual([]);
  });

  it('when the url targets a loopback, private or metadata address (private targets not allowed by default), then 400 on url', async () => {
    // Contract §7: refused at registration unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true.
    const urls = [
      'http://127.0.0.1:8080/hook',
      'http://[::1]/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://2130706433/hook', // 127.0.0.1 in decimal
    ];
    const accepted: string[] = [];
    for (const url of urls) {
      const res = await register({ url });
      if (res.statusCode !== 400) accepted.push(`${url} → ${res.statusCode}`);
      else expectInvalid(res, ['url']);
    }
    expect(accepted).toEqual([]);
  });

  it('when the url is missing, then 400 on url', async () => {
    expectInvalid(await register({}), ['url']);
  });

  it('when an event name is unknown, then 400 naming that entry of events', async () => {
    const body = expectInvalidIncluding(
      await register({ url: 'https://example.com/', events: ['booking.created', 'booking.deleted'] }),
      ['events[1]'],
    );
    expect(body.errors?.map((e) => e.field)).not.toContain('events[0]');
  });

  it('when events is empty or repeats a name, then 400 on events', async () => {
    expectInvalid(await register({ url: 'https://example.com/', events: [] }), ['events']);
    expectInvalid(await register({ url: 'https://example.com/', events: ['booking.created', 'booking.created'] }), [
      'events',
    ]);
  });

  it('when an unknown field is sent, then 400 naming it', async () => {
    expectInvalid(await register({ url: 'https://example.com/', secret: 'whsec_mine' }), ['secret']);
  });
});

describe('GET /api/v1/webhooks', () => {
  it('when webhooks exist, then they are listed without their secret', async () => {
    const created = (await register({ url: 'https://hooks.example.com/a' })).json<WebhookBody>();
    const res = await list();
    expect(res.statusCode).toBe(200);
    const page = res.json<ListBody<WebhookBody>>();
    expect(page.nextCursor).toBeNull();
    expect(page.data).toHaveLength(1);
    const { secret, ...withoutSecret } = created;
    expect(page.data[0]).toEqual(withoutSecret);
    expect(page.data[0]).not.toHaveProperty('secret');
    expect(res.body).not.toContain(secret!);
    expect(res.body).not.toContain('whsec_');
  });

  it('when paging with limit, then every webhook appears once and the last page has nextCursor null', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.set(h.clock.now() + 1000);
      ids.push((await register({ url: `https://hooks.example.com/${i}` })).json<WebhookBody>().id);
    }
    const first = (await list('?limit=2')).json<ListBody<WebhookBody>>();
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = (await list(`?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`)).json<
      ListBody<WebhookBody>
    >();
    expect(second.nextCursor).toBeNull();
    expect([...first.data, ...second.data].map((w) => w.id)).toEqual(ids);
  });

  it('when the cursor is invalid, then 400 on cursor', async () => {
    expectInvalid(await list('?cursor=nope'), ['cursor']);
  });
});

describe('DELETE /api/v1/webhooks/:id', () => {
  it('when deleted, then 204 with an empty body, it leaves the list and deleting again is 404', async () => {
    const created = (await register({ url: 'https://hooks.example.com/a' })).json<WebhookBody>();
    const res = await remove(created.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await list()).json<ListBody<WebhookBody>>().data).toEqual([]);
    expectProblem(await remove(created.id), 404, 'not-found');
  });

  it('when the id is unknown, then 404 not-found', async () => {
    expectProblem(await remove('whk_unknown'), 404, 'not-found');
  });
});
