// Webhooks after registration: PATCH, the test event, deliveries paging, manual retry and tenant
// isolation (registration, listing and deletion are in webhooks.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import type { DeliveryView } from '../e2e/webhook-server.js';
import { expectInvalid, expectProblem, type ListBody, type WebhookBody } from './helpers.js';

const START = '2026-01-01T00:00:00.000Z';

const PRIVATE_URLS = [
  'http://localhost:8080/hooks',
  'http://127.0.0.1/',
  'http://[::1]/',
  'http://2130706433/',
  'http://0x7f.1/',
  'http://169.254.169.254/latest/meta-data',
  'http://10.0.0.5/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://0.0.0.0:3000/',
];

let h: Harness;
let token: string;

async function setUp(allowPrivateWebhookTargets: boolean): Promise<void> {
  h = await createHarness({ now: START, allowPrivateWebhookTargets });
  token = await h.key('alice');
}

afterEach(async () => {
  await h?.close();
});

const register = (json: unknown, as = token) => h.request({ method: 'POST', url: '/api/v1/webhooks', token: as, json });
const patch = (id: string, json: unknown, as = token) =>
  h.request({ method: 'PATCH', url: `/api/v1/webhooks/${id}`, token: as, json });
const get = (id: string, as = token) => h.request({ method: 'GET', url: `/api/v1/webhooks/${id}`, token: as });
const sendTest = (id: string, as = token) =>
  h.request({ method: 'POST', url: `/api/v1/webhooks/${id}/test`, token: as });
const deliveries = (id: string, query = '', as = token) =>
  h.request({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries${query}`, token: as });
const retry = (id: string, deliveryId: string, as = token) =>
  h.request({ method: 'POST', url: `/api/v1/webhooks/${id}/deliveries/${deliveryId}/retry`, token: as });

async function registered(json: Record<string, unknown> = {}): Promise<WebhookBody> {
  const res = await register({ url: 'https://hooks.example.com/in', ...json });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<WebhookBody>();
}

describe('SSRF guard at registration (private targets not allowed)', () => {
  it.each(PRIVATE_URLS)('when POST /webhooks targets %s, then 400 on url and nothing is stored', async (url) => {
    await setUp(false);
    const res = await register({ url });
    const problem = expectInvalid(res, ['url']);
    expect(problem.errors![0]!.message).toMatch(/public address/);
    const list = await h.request({ method: 'GET', url: '/api/v1/webhooks', token });
    expect(list.json<ListBody<WebhookBody>>().data).toEqual([]);
  });

  it.each(PRIVATE_URLS)(
    'when PATCH /webhooks/:id moves the url to %s, then 400 on url and the webhook keeps its url',
    async (url) => {
      await setUp(false);
      const webhook = await registered();
      expectInvalid(await patch(webhook.id, { url }), ['url']);
      expect((await get(webhook.id)).json<WebhookBody>().url).toBe('https://hooks.example.com/in');
    },
  );

  it('when the url is a public literal address, then it is accepted', async () => {
    await setUp(false);
    expect((await register({ url: 'http://8.8.8.8/hooks' })).statusCode).toBe(201);
    expect((await register({ url: 'http://[2001:4860:4860::8888]/hooks' })).statusCode).toBe(201);
  });
});

describe('SSRF guard with WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  it.each(PRIVATE_URLS)('when private targets are allowed and POST /webhooks targets %s, then 201', async (url) => {
    await setUp(true);
    const res = await register({ url });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<WebhookBody>().url).toBe(new URL(url).href);
  });

  it('when private targets are allowed, then PATCH may move the url to a loopback address', async () => {
    await setUp(true);
    const webhook = await registered();
    const res = await patch(webhook.id, { url: 'http://127.0.0.1:9999/in' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WebhookBody>().url).toBe('http://127.0.0.1:9999/in');
  });
});

describe('GET and PATCH /webhooks/:id', () => {
  it('when a webhook is fetched, then it is the registered webhook without its secret', async () => {
    await setUp(false);
    const created = await registered({ events: ['booking.cancelled'], description: 'CRM' });
    const res = await get(created.id);
    expect(res.statusCode, res.body).toBe(200);
    const { secret: _secret, ...withoutSecret } = created;
    expect(res.json()).toEqual(withoutSecret);
    expect(res.body).not.toContain('whsec_');
  });

  it('when only the description is patched, then only description and updatedAt change', async () => {
    await setUp(false);
    const created = await registered({ events: ['booking.created', 'booking.cancelled'], description: 'old' });
    h.clock.set('2026-01-02T00:00:00Z');
    const res = await patch(created.id, { description: 'new' });
    expect(res.statusCode, res.body).toBe(200);
    const { secret: _secret, ...before } = created;
    expect(res.json()).toEqual({ ...before, description: 'new', updatedAt: '2026-01-02T00:00:00.000Z' });
    expect((await get(created.id)).json()).toEqual(res.json());
  });

  it('when url, events and active are patched one at a time, then each changes alone and the rest stays', async () => {
    await setUp(false);
    const created = await registered({ description: 'keep me' });
    const a = (await patch(created.id, { url: 'https://other.example.com/x' })).json<WebhookBody>();
    expect(a).toMatchObject({
      url: 'https://other.example.com/x',
      events: created.events,
      active: true,
      description: 'keep me',
    });
    const b = (await patch(created.id, { events: ['booking.rescheduled'] })).json<WebhookBody>();
    expect(b).toMatchObject({
      url: 'https://other.example.com/x',
      events: ['booking.rescheduled'],
      active: true,
      description: 'keep me',
    });
    const c = (await patch(created.id, { active: false })).json<WebhookBody>();
    expect(c).toMatchObject({
      url: 'https://other.example.com/x',
      events: ['booking.rescheduled'],
      active: false,
      description: 'keep me',
    });
    const d = (await patch(created.id, { description: null })).json<WebhookBody>();
    expect(d).toMatchObject({ active: false, description: null });
    expect((await get(created.id)).json()).toEqual(d);
  });

  it('when an unknown field is patched, then 400 naming it and nothing changes', async () => {
    await setUp(false);
    const created = await registered();
    expectInvalid(await patch(created.id, { secret: 'whsec_AAAA', description: 'x' }), ['secret']);
    expect((await get(created.id)).json<WebhookBody>().description).toBeNull();
  });

  it('when events is patched to an empty list or an unknown name, then 400 on events', async () => {
    await setUp(false);
    const created = await registered();
    expect((await patch(created.id, { events: [] })).statusCode).toBe(400);
    expect((await patch(created.id, { events: ['booking.deleted'] })).statusCode).toBe(400);
    expect((await get(created.id)).json<WebhookBody>().events).toEqual(created.events);
  });

  it('when the webhook id is unknown, then GET and PATCH are 404', async () => {
    await setUp(false);
    expectProblem(await get('whk_unknown'), 404, 'not-found');
    expectProblem(await patch('whk_unknown', { active: false }), 404, 'not-found');
  });
});

describe('POST /webhooks/:id/test', () => {
  it('when a test event is requested, then 202 with a pending webhook.test delivery, due now and listed', async () => {
    await setUp(false);
    const webhook = await registered({ events: ['booking.cancelled'] });
    h.clock.set('2026-01-03T10:00:00Z');
    const res = await sendTest(webhook.id);
    expect(res.statusCode, res.body).toBe(202);
    const delivery = res.json<DeliveryView>();
    expect(delivery).toMatchObject({
      eventType: 'webhook.test',
      webhookId: webhook.id,
      status: 'pending',
      attemptCount: 0,
      attempts: [],
      nextAttemptAt: '2026-01-03T10:00:00.000Z',
      createdAt: '2026-01-03T10:00:00.000Z',
    });
    expect(delivery.id).toMatch(/^dlv_/);
    expect(delivery.eventId.length).toBeGreaterThan(0);
    const listed = (await deliveries(webhook.id)).json<ListBody<DeliveryView>>();
    expect(listed.data).toEqual([delivery]);
  });

  it('when the test is sent with an empty JSON body, then 202 too; an unknown field is 400', async () => {
    await setUp(false);
    const webhook = await registered();
    expect(
      (await h.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/test`, token, json: {} })).statusCode,
    ).toBe(202);
    expectInvalid(
      await h.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/test`, token, json: { x: 1 } }),
      ['x'],
    );
  });

  it('when the webhook is inactive, then 409 invalid-state and no delivery is created', async () => {
    await setUp(false);
    const webhook = await registered({ active: false });
    expectProblem(await sendTest(webhook.id), 409, 'invalid-state');
    expect((await deliveries(webhook.id)).json<ListBody<DeliveryView>>().data).toEqual([]);
  });

  it('when the webhook is unknown, then 404', async () => {
    await setUp(false);
    expectProblem(await sendTest('whk_nope'), 404, 'not-found');
  });
});

describe('GET /webhooks/:id/deliveries and retry', () => {
  /** Five test deliveries, one a minute apart; returned oldest first. */
  async function fiveDeliveries(webhookId: string): Promise<DeliveryView[]> {
    const made: DeliveryView[] = [];
    for (let i = 0; i < 5; i++) {
      h.clock.set(Date.parse(START) + (i + 1) * 60_000);
      const res = await sendTest(webhookId);
      expect(res.statusCode, res.body).toBe(202);
      made.push(res.json<DeliveryView>());
    }
    return made;
  }

  it('when deliveries are paged with limit 2, then they come newest first, each once, and the last page has nextCursor null', async () => {
    await setUp(false);
    const webhook = await registered();
    const made = await fiveDeliveries(webhook.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    const pages: number[] = [];
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await deliveries(webhook.id, query);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<ListBody<DeliveryView>>();
      pages.push(page.data.length);
      seen.push(...page.data.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor !== null && pages.length < 10);
    expect(pages).toEqual([2, 2, 1]);
    expect(seen).toEqual(made.map((d) => d.id).reverse());
  });

  it('when limit is out of range or the cursor is garbage, then 400', async () => {
    await setUp(false);
    const webhook = await registered();
    expect((await deliveries(webhook.id, '?limit=0')).statusCode).toBe(400);
    expect((await deliveries(webhook.id, '?limit=101')).statusCode).toBe(400);
    expect((await deliveries(webhook.id, '?cursor=%%%garbage')).statusCode).toBe(400);
  });

  it('when a pending delivery is retried, then 409 invalid-state and it stays as it was', async () => {
    await setUp(false);
    const webhook = await registered();
    const [delivery] = await fiveDeliveries(webhook.id);
    expectProblem(await retry(webhook.id, delivery!.id), 409, 'invalid-state');
    const listed = (await deliveries(webhook.id))
      .json<ListBody<DeliveryView>>()
      .data.find((d) => d.id === delivery!.id);
    expect(listed).toEqual(delivery);
  });

  it('when the delivery id is unknown, or belongs to another webhook, then retry is 404', async () => {
    await setUp(false);
    const webhook = await registered();
    const other = await registered();
    const [delivery] = await fiveDeliveries(other.id);
    expectProblem(await retry(webhook.id, 'dlv_unknown'), 404, 'not-found');
    expectProblem(await retry(webhook.id, delivery!.id), 404, 'not-found');
  });

  it("when another holder's webhook is addressed, then every webhook route is 404 and nothing changes", async () => {
    await setUp(false);
    const webhook = await registered({ description: 'alice' });
    const [delivery] = await fiveDeliveries(webhook.id);
    const mallory = await h.key('mallory');
    expectProblem(await get(webhook.id, mallory), 404, 'not-found');
    expectProblem(await patch(webhook.id, { description: 'mallory' }, mallory), 404, 'not-found');
    expectProblem(await sendTest(webhook.id, mallory), 404, 'not-found');
    expectProblem(await deliveries(webhook.id, '', mallory), 404, 'not-found');
    expectProblem(await retry(webhook.id, delivery!.id, mallory), 404, 'not-found');
    expectProblem(
      await h.request({ method: 'DELETE', url: `/api/v1/webhooks/${webhook.id}`, token: mallory }),
      404,
      'not-found',
    );
    const after = (await get(webhook.id)).json<WebhookBody>();
    expect(after.description).toBe('alice');
    expect((await deliveries(webhook.id)).json<ListBody<DeliveryView>>().data).toHaveLength(5);
  });
});
