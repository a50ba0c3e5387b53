// Contract §12, account webhooks: an account key registers webhooks of its own in account scope
// (holderId null), which hear every event of the account; in account scope it reaches every
// webhook of the account (its own and every holder's), acting for a holder only that holder's;
// nothing of another account, and no holder key sees a sibling's or the account's webhooks.
import { createHmac } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/webhook-receiver.js';
import type { DeliveryView as DeliveryBody } from '../e2e/webhook-server.js';
import {
  BEFORE_MONDAY,
  book,
  createEventType,
  expectInvalid,
  expectProblem,
  type BookingBody,
  type ListBody,
  type ProblemBody,
  type WebhookBody,
} from './helpers.js';

let h: Harness;
/** acme's account key, and two holders of acme with keys of their own. */
let acme: string;
let ada: { id: string; token: string };
let bob: { id: string; token: string };
/** Another account, with a holder. */
let zeta: string;
let zed: { id: string; token: string };

async function accountKey(accountName: string): Promise<string> {
  return (await createApiKey(h.context, { accountName, holderName: null, scopes: ['read', 'write'], expiresAt: null }))
    .token;
}

async function holderKey(accountName: string, holderName: string): Promise<{ id: string; token: string }> {
  const { key, token } = await createApiKey(h.context, {
    accountName,
    holderName,
    scopes: ['read', 'write'],
    expiresAt: null,
  });
  return { id: key.holderId!, token };
}

async function setUp(options: Parameters<typeof createHarness>[0] = {}): Promise<void> {
  h = await createHarness({ now: BEFORE_MONDAY, ...options });
  acme = await accountKey('acme');
  ada = await holderKey('acme', 'ada');
  bob = await holderKey('acme', 'bob');
  zeta = await accountKey('zeta');
  zed = await holderKey('zeta', 'zed');
}

afterEach(async () => {
  await h.close();
});

/** A request as `token`, acting for `actingFor` (the Slotwise-Holder header) when given. */
function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token: string,
  options: { json?: unknown; actingFor?: string; idempotencyKey?: string } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (options.actingFor) headers['slotwise-holder'] = options.actingFor;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  return h.request({ method, url: `/api/v1${url}`, token, headers, json: options.json });
}

async function register(token: string, options: { actingFor?: string; url?: string } = {}): Promise<WebhookBody> {
  const res = await call('POST', '/webhooks', token, {
    json: { url: options.url ?? 'https://hooks.example.com/in' },
    actingFor: options.actingFor,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<WebhookBody>();
}

async function listed(token: string, query = '', actingFor?: string): Promise<string[]> {
  const res = await call('GET', `/webhooks${query}`, token, { actingFor });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ListBody<WebhookBody>>().data.map((w) => w.id);
}

/** 404 not-found, the same answer as for an unknown id (only the id in the detail differs). */
async function expectSameAsUnknown(res: LightMyRequestResponse, id: string, unknown: LightMyRequestResponse) {
  const body = expectProblem(res, 404, 'not-found');
  const unknownBody = unknown.json<ProblemBody>();
  expect({ ...body, detail: body.detail?.replace(id, 'ID') }).toEqual({
    ...unknownBody,
    detail: unknownBody.detail?.replace('whk_unknown0000000000', 'ID'),
  });
}

describe('registering in account scope', () => {
  beforeEach(() => setUp());

  it('when an account key without Slotwise-Holder registers a webhook, then 201 with holderId null, and GET shows it the same', async () => {
    const res = await call('POST', '/webhooks', acme, { json: { url: 'https://hooks.example.com/acme' } });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<WebhookBody>();
    expect(created).toMatchObject({ holderId: null, url: 'https://hooks.example.com/acme', active: true });
    expect(created.secret).toMatch(/^whsec_/);
    expect(res.headers.location).toBe(`/api/v1/webhooks/${created.id}`);
    const { secret: _secret, ...shown } = created;
    expect((await call('GET', `/webhooks/${created.id}`, acme)).json()).toEqual(shown);
  });

  it('when holderId is sent, then 400 on holderId: it is read-only, and the webhook stays whose it is', async () => {
    expectInvalid(
      await call('POST', '/webhooks', acme, { json: { url: 'https://hooks.example.com/a', holderId: ada.id } }),
      ['holderId'],
    );
    const own = await register(acme);
    expectInvalid(await call('PATCH', `/webhooks/${own.id}`, acme, { json: { holderId: ada.id } }), ['holderId']);
    expect((await call('GET', `/webhooks/${own.id}`, acme)).json<WebhookBody>().holderId).toBeNull();
  });

  it('when a holder key, or an account key acting for a holder, registers a webhook, then it is that holder’s', async () => {
    expect((await register(ada.token)).holderId).toBe(ada.id);
    expect((await register(acme, { actingFor: bob.id })).holderId).toBe(bob.id);
  });

  it('when an account webhook’s registration is replayed under its Idempotency-Key, then the secret is shown again while it exists, and after its deletion the replay is 409 invalid-state', async () => {
    const registerOnce = () =>
      call('POST', '/webhooks', acme, { json: { url: 'https://hooks.example.com/a' }, idempotencyKey: 'acme-hook' });
    const first = await registerOnce();
    expect(first.statusCode, first.body).toBe(201);
    const again = await registerOnce();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);

    const { id, secret } = first.json<WebhookBody>();
    expect((await call('DELETE', `/webhooks/${id}`, acme)).statusCode).toBe(204);
    const gone = await registerOnce();
    expectProblem(gone, 409, 'invalid-state');
    expect(gone.body).not.toContain(secret!);
  });
});

describe('webhooks per account', () => {
  it('when the account has WEBHOOK_LIMIT_PER_ACCOUNT account webhooks, then another is 409 limit-reached and not stored; its holders still register theirs, which do not count; after a deletion there is room again', async () => {
    await setUp({ webhookLimitPerAccount: 2, webhookLimitPerHolder: 2 });
    const first = await register(acme);
    await register(acme);
    const refused = await call('POST', '/webhooks', acme, { json: { url: 'https://hooks.example.com/3' } });
    expect(expectProblem(refused, 409, 'limit-reached').detail).toContain('2 account webhooks');
    expect(await listed(acme)).toHaveLength(2);

    // The holders' own limits are their own: the account's full list does not stop them.
    await register(ada.token);
    await register(acme, { actingFor: ada.id });
    expectProblem(
      await call('POST', '/webhooks', ada.token, { json: { url: 'https://hooks.example.com/ada' } }),
      409,
      'limit-reached',
    );
    await register(bob.token);
    // Another account is not affected.
    await register(zeta);

    expect((await call('DELETE', `/webhooks/${first.id}`, acme)).statusCode).toBe(204);
    expect((await register(acme)).holderId).toBeNull();
  });

  it('when registrations of account webhooks race for the last place, then exactly one gets it', async () => {
    await setUp({ webhookLimitPerAccount: 3 });
    await register(acme);
    await register(acme);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call('POST', '/webhooks', acme, { json: { url: 'https://hooks.example.com/r' } }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.statusCode !== 201)) expectProblem(r, 409, 'limit-reached');
    expect(await listed(acme)).toHaveLength(3);
  });
});

describe('what account scope reaches', () => {
  let own: WebhookBody;
  let adas: WebhookBody;
  let bobs: WebhookBody;
  let zetas: WebhookBody;
  let zeds: WebhookBody;

  beforeEach(async () => {
    await setUp();
    own = await register(acme);
    h.clock.set(h.clock.now() + 1000);
    adas = await register(ada.token);
    h.clock.set(h.clock.now() + 1000);
    bobs = await register(acme, { actingFor: bob.id });
    zetas = await register(zeta);
    h.clock.set(h.clock.now() + 1000);
    zeds = await register(zed.token);
  });

  it('when the account key lists webhooks, then it gets every webhook of the account, oldest first, and none of another account', async () => {
    expect(await listed(acme)).toEqual([own.id, adas.id, bobs.id]);
    expect(await listed(zeta)).toEqual([zetas.id, zeds.id]);
  });

  it('when the list is paged, then every webhook of the account appears once', async () => {
    const first = (await call('GET', '/webhooks?limit=2', acme)).json<ListBody<WebhookBody>>();
    const second = (await call('GET', `/webhooks?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`, acme)).json<
      ListBody<WebhookBody>
    >();
    expect([...first.data, ...second.data].map((w) => w.id)).toEqual([own.id, adas.id, bobs.id]);
    expect(second.nextCursor).toBeNull();
  });

  it('when the account key lists with holderId, then only that holder’s webhooks; another account’s holder or an unknown one is the same 400 on holderId', async () => {
    expect(await listed(acme, `?holderId=${ada.id}`)).toEqual([adas.id]);
    expect(await listed(acme, `?holderId=${bob.id}`)).toEqual([bobs.id]);
    const foreign = expectInvalid(await call('GET', `/webhooks?holderId=${zed.id}`, acme), ['holderId']);
    const unknown = expectInvalid(await call('GET', '/webhooks?holderId=hdr_unknown0000000000', acme), ['holderId']);
    expect(foreign).toEqual(unknown);
  });

  it('when a request acts for a holder, then it lists that holder’s webhooks only, and a holderId of another holder is 400 on holderId', async () => {
    expect(await listed(ada.token)).toEqual([adas.id]);
    expect(await listed(acme, '', ada.id)).toEqual([adas.id]);
    expect(await listed(acme, `?holderId=${ada.id}`, ada.id)).toEqual([adas.id]);
    expectInvalid(await call('GET', `/webhooks?holderId=${bob.id}`, acme, { actingFor: ada.id }), ['holderId']);
    expectInvalid(await call('GET', `/webhooks?holderId=${ada.id}`, bob.token), ['holderId']);
  });

  it('when the account key gets, changes and deletes a holder’s webhook and its own by id, then each works as for their owner', async () => {
    for (const webhook of [adas, own]) {
      expect((await call('GET', `/webhooks/${webhook.id}`, acme)).json<WebhookBody>()).toMatchObject({
        id: webhook.id,
        holderId: webhook.holderId,
      });
      const patched = await call('PATCH', `/webhooks/${webhook.id}`, acme, {
        json: { description: 'CRM', events: ['booking.cancelled'] },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json<WebhookBody>()).toMatchObject({
        holderId: webhook.holderId,
        description: 'CRM',
        events: ['booking.cancelled'],
      });
      expect((await call('DELETE', `/webhooks/${webhook.id}`, acme)).statusCode).toBe(204);
      expectProblem(await call('GET', `/webhooks/${webhook.id}`, acme), 404, 'not-found');
    }
    expect(await listed(acme)).toEqual([bobs.id]);
  });

  it('when the account key sends a test event to its own webhook and to a holder’s, lists their deliveries and retries one, then each works', async () => {
    for (const webhook of [own, adas]) {
      const sent = await call('POST', `/webhooks/${webhook.id}/test`, acme);
      expect(sent.statusCode, sent.body).toBe(202);
      const delivery = sent.json<DeliveryBody>();
      expect(delivery).toMatchObject({ webhookId: webhook.id, eventType: 'webhook.test', status: 'pending' });
      const deliveries = (await call('GET', `/webhooks/${webhook.id}/deliveries`, acme)).json<ListBody<DeliveryBody>>();
      expect(deliveries.data.map((d) => d.id)).toEqual([delivery.id]);

      await failForGood(delivery.id);
      const retried = await call('POST', `/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`, acme);
      expect(retried.statusCode, retried.body).toBe(202);
      expect(retried.json<DeliveryBody>()).toMatchObject({ id: delivery.id, status: 'pending' });
    }
    // The account webhook's test event is the account's own: no holder.
    const events = await h.database.rows('webhook_events');
    const ownEvent = events.find((e) => String(e.payload).includes(own.id))!;
    expect(ownEvent.holder_id).toBeNull();
    expect(events.find((e) => String(e.payload).includes(adas.id))!.holder_id).toBe(ada.id);
  });

  it('when a sibling holder’s key, an account key acting for a sibling, or another account reaches for a webhook, then every route is 404 as for an unknown id', async () => {
    const outsiders: Array<[string, string, string | undefined, WebhookBody[]]> = [
      ['bob’s key', bob.token, undefined, [own, adas]],
      ['acme acting for bob', acme, bob.id, [own, adas]],
      ['zeta’s account key', zeta, undefined, [own, adas, bobs]],
      ['zeta acting for zed', zeta, zed.id, [own, adas, bobs]],
      ['zed’s key', zed.token, undefined, [own, adas, bobs]],
      ['ada’s key', ada.token, undefined, [own, bobs]],
    ];
    const delivery = (await call('POST', `/webhooks/${adas.id}/test`, ada.token)).json<DeliveryBody>();
    for (const [who, token, actingFor, outOfReach] of outsiders) {
      for (const webhook of outOfReach) {
        const as = { actingFor };
        const unknown = await call('GET', '/webhooks/whk_unknown0000000000', token, as);
        const routes: Array<[string, Promise<LightMyRequestResponse>]> = [
          ['GET', call('GET', `/webhooks/${webhook.id}`, token, as)],
          ['PATCH', call('PATCH', `/webhooks/${webhook.id}`, token, { ...as, json: { active: false } })],
          ['test', call('POST', `/webhooks/${webhook.id}/test`, token, as)],
          ['deliveries', call('GET', `/webhooks/${webhook.id}/deliveries`, token, as)],
          ['retry', call('POST', `/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`, token, as)],
          ['DELETE', call('DELETE', `/webhooks/${webhook.id}`, token, as)],
        ];
        for (const [route, answer] of routes) {
          const res = await answer;
          expect(res.statusCode, `${who}, ${route} of ${webhook.id}`).toBe(404);
          await expectSameAsUnknown(res, webhook.id, unknown);
        }
      }
      expect(await listed(token, '', actingFor), who).not.toEqual(expect.arrayContaining([own.id]));
    }
    // Nothing changed: every webhook is still there, active, with only its own test delivery.
    expect(await listed(acme)).toEqual([own.id, adas.id, bobs.id]);
    const rows = await h.database.rows('webhooks');
    expect(rows.every((row) => Number(row.active) === 1)).toBe(true);
    expect(await h.database.rows('webhook_deliveries')).toHaveLength(1);
  });

  it('when a holder is deleted, then its webhooks go with it and the account webhooks stay', async () => {
    expect((await call('DELETE', `/holders/${ada.id}`, acme)).statusCode).toBe(204);
    expect(await listed(acme)).toEqual([own.id, bobs.id]);
    expectProblem(await call('GET', `/webhooks/${adas.id}`, acme), 404, 'not-found');
  });

  /** The worker's part on the store: the delivery's one attempt fails for good. */
  async function failForGood(deliveryId: string): Promise<void> {
    const now = h.clock.now();
    const jobs = await h.storage.deliveryQueue.claimDue({
      now,
      leaseUntil: now + 60_000,
      limit: 10,
      perWebhook: 10,
      perHolder: 100,
      perAccount: 100,
      skipWebhookIds: [],
      skipOwnerIds: [],
      skipAccountIds: [],
    });
    expect(jobs.map((j) => j.deliveryId)).toContain(deliveryId);
    await h.storage.deliveryQueue.recordAttempt(
      deliveryId,
      { attempt: 1, startedAt: now, durationMs: 3, statusCode: 500, error: null, responseExcerpt: null },
      { status: 'failed', disableWebhook: false },
      now,
    );
    await h.storage.deliveryQueue.release(jobs.map((j) => j.deliveryId).filter((id) => id !== deliveryId));
  }
});

describe('who hears what', () => {
  beforeEach(() => setUp());

  /** The deliveries stored per webhook, each as its event's type and booking id. */
  async function heardBy(): Promise<Map<string, string[]>> {
    const events = new Map(
      (await h.database.rows('webhook_events')).map((e) => {
        const payload = JSON.parse(String(e.payload)) as { type: string; data: { booking?: { id: string } } };
        return [String(e.id), `${payload.type} ${payload.data.booking?.id}`];
      }),
    );
    const heard = new Map<string, string[]>();
    for (const d of await h.database.rows('webhook_deliveries')) {
      const list = heard.get(String(d.webhook_id)) ?? [];
      list.push(events.get(String(d.event_id))!);
      heard.set(String(d.webhook_id), list.sort());
    }
    return heard;
  }

  it('when two holders’ bookings are made, cancelled and rescheduled, then the account webhook hears all of it, each holder’s webhook only its own, and another account’s webhook nothing', async () => {
    const own = await register(acme);
    const adas = await register(ada.token);
    const bobs = await register(bob.token);
    const zetas = await register(zeta);
    const adaType = await createEventType(h, ada.token);
    const bobType = await createEventType(h, bob.token);

    const adaBooking = await book(h, ada.token, adaType.id, '2026-01-05T09:00:00Z');
    const bobBooking = await book(h, bob.token, bobType.id, '2026-01-05T09:00:00Z');
    const cancelled = await call('POST', `/bookings/${adaBooking.id}/cancel`, ada.token, { json: {} });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const moved = await call('POST', `/bookings/${bobBooking.id}/reschedule`, bob.token, {
      json: { start: '2026-01-05T10:00:00Z' },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    const bobMoved = moved.json<BookingBody>();

    const adaHeard = [`booking.cancelled ${adaBooking.id}`, `booking.created ${adaBooking.id}`];
    const bobHeard = [`booking.created ${bobBooking.id}`, `booking.rescheduled ${bobMoved.id}`];
    const heard = await heardBy();
    expect(heard.get(own.id)).toEqual([...adaHeard, ...bobHeard].sort());
    expect(heard.get(adas.id)).toEqual(adaHeard);
    expect(heard.get(bobs.id)).toEqual(bobHeard);
    expect(heard.get(zetas.id)).toBeUndefined();
  });

  it('when an account webhook subscribes to some events or is inactive, then it hears only those, or nothing', async () => {
    const cancellations = (
      await call('POST', '/webhooks', acme, {
        json: { url: 'https://hooks.example.com/c', events: ['booking.cancelled'] },
      })
    ).json<WebhookBody>();
    await call('POST', '/webhooks', acme, { json: { url: 'https://hooks.example.com/off', active: false } });
    const adaType = await createEventType(h, ada.token);
    const booking = await book(h, ada.token, adaType.id, '2026-01-05T09:00:00Z');
    expect(await heardBy()).toEqual(new Map());
    await call('POST', `/bookings/${booking.id}/cancel`, ada.token, { json: {} });
    expect(await heardBy()).toEqual(new Map([[cancellations.id, [`booking.cancelled ${booking.id}`]]]));
  });

  it('when the worker runs, then the account webhook’s receiver gets both holders’ booking.created, signed with its secret', async () => {
    await h.close();
    await setUp({ allowPrivateWebhookTargets: true });
    const receiver = await Receiver.start();
    try {
      const own = await register(acme, { url: receiver.url });
      const adaType = await createEventType(h, ada.token);
      const bobType = await createEventType(h, bob.token);
      const adaBooking = await book(h, ada.token, adaType.id, '2026-01-05T09:00:00Z');
      const bobBooking = await book(h, bob.token, bobType.id, '2026-01-05T11:00:00Z');
      h.server.worker.start();
      const received = await receiver.waitFor(2);
      const payloads = received.map((r) => {
        // Standard Webhooks' signature, checked by hand: the package also refuses a timestamp
        // five minutes off the real clock, and the harness's clock is in January 2026.
        const signed = `${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`;
        const key = Buffer.from(own.secret!.slice('whsec_'.length), 'base64');
        expect(r.headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(signed).digest('base64')}`);
        return JSON.parse(r.body) as { type: string; data: { booking: BookingBody } };
      });
      expect(payloads.map((p) => `${p.type} ${p.data.booking.id}`).sort()).toEqual(
        [`booking.created ${adaBooking.id}`, `booking.created ${bobBooking.id}`].sort(),
      );
    } finally {
      await receiver.close();
    }
  });
});
