// The delivery worker in-process, on a real SQLite store, with a scripted sender: attempts stay in
// flight until the test finishes them, so limits and shutdown can be checked without timing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import type { DeliveryQueue } from '../../src/app/ports/delivery-queue.js';
import { DeliveryWorker, type WorkerSettings } from '../../src/worker/delivery-worker.js';
import type { SendResult, WebhookSender } from '../../src/worker/send-webhook.js';
import { createHarness, type Harness } from '../support/harness.js';

const SETTINGS: WorkerSettings = {
  retryScheduleMs: [1_000],
  pollIntervalMs: 10,
  leaseMs: 60_000,
  concurrency: 16,
  perWebhook: 4,
  perHolder: 8,
  perAccount: 12,
};

const OK: SendResult = { statusCode: 200, retryAfter: null, error: null, responseExcerpt: null, durationMs: 1 };
const ABORTED: SendResult = {
  statusCode: null,
  retryAfter: null,
  error: 'aborted (shutting down)',
  responseExcerpt: null,
  durationMs: 1,
};

/** A sender whose attempts hang until `finish` is called; an abort ends them at once. */
class HeldSender {
  readonly held: Array<{ eventId: string; finish: () => void }> = [];
  /** What a finished attempt answers. */
  reply: SendResult = OK;
  calls = 0;
  mostAtOnce = 0;

  send(delivery: { eventId: string }, _sentAt: Date, signal?: AbortSignal): Promise<SendResult> {
    this.calls++;
    return new Promise((resolve) => {
      const entry = {
        eventId: delivery.eventId,
        finish: () => {
          this.held.splice(this.held.indexOf(entry), 1);
          resolve(this.reply);
        },
      };
      this.held.push(entry);
      this.mostAtOnce = Math.max(this.mostAtOnce, this.held.length);
      signal?.addEventListener('abort', () => {
        this.held.splice(this.held.indexOf(entry), 1);
        resolve(ABORTED);
      });
    });
  }

  async close(): Promise<void> {}
}

const silent = { warn: () => {}, error: () => {} };

async function until(condition: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

let h: Harness;
let token: string;
let workers: DeliveryWorker[] = [];

beforeEach(async () => {
  h = await createHarness({ allowPrivateWebhookTargets: true });
  token = await h.key('alice');
});

afterEach(async () => {
  await Promise.all(workers.map((w) => w.stop(0)));
  workers = [];
  await h.close();
});

function worker(sender: HeldSender, queue: DeliveryQueue = h.storage.deliveryQueue): DeliveryWorker {
  const made = new DeliveryWorker(queue, sender as unknown as WebhookSender, SETTINGS, h.clock.now, silent);
  workers.push(made);
  return made;
}

/** A webhook with `count` due test deliveries, alice's unless another holder's key is given. */
async function webhookWithDeliveries(count: number, holderToken = token): Promise<string> {
  const res = await h.request({
    method: 'POST',
    url: '/api/v1/webhooks',
    token: holderToken,
    json: { url: 'http://127.0.0.1:9/hook' },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json<{ id: string }>().id;
  for (let i = 0; i < count; i++) {
    expect(
      (await h.request({ method: 'POST', url: `/api/v1/webhooks/${id}/test`, token: holderToken })).statusCode,
    ).toBe(202);
  }
  return id;
}

async function statuses(webhookId: string): Promise<string[]> {
  return (await h.store.deliveries.list(webhookId, { limit: 100, after: null })).map((d) => d.status);
}

describe('DeliveryWorker', () => {
  it('when one webhook has a backlog and its attempts finish one by one, then it never has more than perWebhook attempts in flight', async () => {
    const webhookId = await webhookWithDeliveries(12);
    const sender = new HeldSender();
    worker(sender).start();

    await until(() => sender.held.length === 4, 'four attempts in flight');
    let finished = 0;
    while (sender.held.length > 0) {
      sender.held[0]!.finish();
      finished++;
      // Refilled however long the claim takes (a loaded CI run's can take longer than a fixed wait),
      // then given time to overshoot: an attempt beyond the limit would be claimed in the same pass.
      await until(
        () => sender.held.length === Math.min(4, 12 - finished),
        'the next attempt to take the finished one’s place',
      );
      await settle();
      expect(sender.held.length).toBeLessThanOrEqual(4);
    }
    expect(sender.mostAtOnce).toBe(4);
    expect(sender.calls).toBe(12);
    expect(await statuses(webhookId)).toEqual(Array(12).fill('succeeded'));
  });

  it('when the store refuses to record an attempt with its reply, then it is recorded without the reply and the delivery moves on its schedule instead of being sent again', async () => {
    const webhookId = await webhookWithDeliveries(1);
    let refused = 0;
    // The queue as the worker sees it: the first record of an attempt fails (as PostgreSQL failed on a NUL in a reply).
    const queue = new Proxy(h.storage.deliveryQueue, {
      get(target, property, receiver) {
        if (property === 'recordAttempt') {
          return async (...args: Parameters<DeliveryQueue['recordAttempt']>) => {
            if (args[1].responseExcerpt !== null) {
              refused++;
              throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
            }
            return target.recordAttempt(...args);
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const sender = new HeldSender();
    sender.reply = { ...OK, statusCode: 500, responseExcerpt: 'refused\u0000reply' };
    worker(sender, queue).start();
    await until(() => sender.held.length === 1, 'the attempt');
    sender.held[0]!.finish();
    await until(() => refused === 1, 'the refused record');
    await settle();

    const [delivery] = await h.store.deliveries.list(webhookId, { limit: 10, after: null });
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery!.nextAttemptAt).toBeGreaterThan(h.clock.now());
    expect(delivery!.attemptLog).toEqual([
      expect.objectContaining({ statusCode: 500, responseExcerpt: null, error: expect.stringContaining('refused') }),
    ]);
    expect(sender.calls).toBe(1);
  });

  it('when one webhook hangs, then another webhook still gets its deliveries sent', async () => {
    const stuck = await webhookWithDeliveries(10);
    const sender = new HeldSender();
    worker(sender).start();
    await until(() => sender.held.length === 4, 'the stuck webhook to fill its slots');

    const other = await webhookWithDeliveries(3);
    h.context.outboxChanged?.();
    await until(() => sender.held.length === 7, 'the other webhook to be sent to');
    const otherEvents = new Set(
      (await h.store.deliveries.list(other, { limit: 10, after: null })).map((d) => d.eventId),
    );
    expect(sender.held.filter((held) => otherEvents.has(held.eventId))).toHaveLength(3);
    expect((await statuses(stuck)).filter((s) => s === 'pending')).toHaveLength(10);
  });

  it('when every webhook of one holder hangs, then that holder never has more than perHolder attempts in flight and another holder’s deliveries are sent at once', async () => {
    const alicesHooks = [
      await webhookWithDeliveries(6),
      await webhookWithDeliveries(6),
      await webhookWithDeliveries(6),
    ];
    const sender = new HeldSender();
    worker(sender).start();
    await until(() => sender.held.length === SETTINGS.perHolder, 'alice to fill her share');
    await settle();
    expect(sender.held).toHaveLength(SETTINGS.perHolder);

    const bobs = await webhookWithDeliveries(3, await h.key('bob'));
    h.context.outboxChanged?.();
    await until(() => sender.held.length === SETTINGS.perHolder + 3, 'bob’s deliveries to be sent');
    const bobsEvents = new Set((await h.store.deliveries.list(bobs, { limit: 10, after: null })).map((d) => d.eventId));
    expect(sender.held.filter((held) => bobsEvents.has(held.eventId))).toHaveLength(3);

    // As alice's attempts finish, her next ones take their place, never more than her share.
    const alicesInFlight = () => sender.held.filter((held) => !bobsEvents.has(held.eventId)).length;
    for (let i = 0; i < 6; i++) {
      sender.held.find((held) => !bobsEvents.has(held.eventId))!.finish();
      // Refilled however long the claim takes (a loaded CI run's took longer than a fixed wait), then never above.
      await until(
        () => alicesInFlight() === SETTINGS.perHolder,
        'alice’s next attempt to take the finished one’s place',
      );
      await settle();
      expect(alicesInFlight()).toBe(SETTINGS.perHolder);
    }
    const pending = (await Promise.all(alicesHooks.map(statuses))).flat().filter((s) => s === 'pending');
    expect(pending).toHaveLength(18 - 6);
  });

  it('when every holder of one account hangs, then that account never has more than perAccount attempts in flight and another account’s deliveries are sent at once', async () => {
    const acme = await Promise.all(
      ['ada', 'bob', 'cy'].map(async (holderName) => {
        const made = await createApiKey(h.context, {
          accountName: 'acme',
          holderName,
          scopes: ['read', 'write'],
          expiresAt: null,
        });
        return webhookWithDeliveries(6, made.token);
      }),
    );
    const sender = new HeldSender();
    worker(sender).start();
    await until(() => sender.held.length === SETTINGS.perAccount, 'acme to fill its share');
    await settle();
    // Three holders of 8 each would be 24: the account's share is the cap.
    expect(sender.held).toHaveLength(SETTINGS.perAccount);

    const alices = await webhookWithDeliveries(3);
    h.context.outboxChanged?.();
    await until(() => sender.held.length === SETTINGS.perAccount + 3, 'alice’s deliveries to be sent');
    const alicesEvents = new Set(
      (await h.store.deliveries.list(alices, { limit: 10, after: null })).map((d) => d.eventId),
    );
    expect(sender.held.filter((held) => alicesEvents.has(held.eventId))).toHaveLength(3);

    // As acme's attempts finish, its next ones take their place, never more than its share.
    const acmesInFlight = () => sender.held.filter((held) => !alicesEvents.has(held.eventId)).length;
    for (let i = 0; i < 6; i++) {
      sender.held.find((held) => !alicesEvents.has(held.eventId))!.finish();
      // Refilled however long the claim takes (a loaded CI run's took longer than a fixed wait), then never above.
      await until(
        () => acmesInFlight() === SETTINGS.perAccount,
        'acme’s next attempt to take the finished one’s place',
      );
      await settle();
      expect(acmesInFlight()).toBe(SETTINGS.perAccount);
    }
    const pending = (await Promise.all(acme.map(statuses))).flat().filter((s) => s === 'pending');
    expect(pending).toHaveLength(18 - 6);
  });

  it('when stopped while attempts are in flight, then stop waits for them and they are recorded', async () => {
    const webhookId = await webhookWithDeliveries(2);
    const sender = new HeldSender();
    const w = worker(sender);
    w.start();
    await until(() => sender.held.length === 2, 'two attempts in flight');

    let stopped = false;
    const stopping = w.stop(5_000).then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    for (const held of [...sender.held]) held.finish();
    await stopping;
    expect(await statuses(webhookId)).toEqual(['succeeded', 'succeeded']);
  });

  it('when attempts outlast the grace period, then they are aborted and handed back, so the next worker sends them without waiting for the lease', async () => {
    const webhookId = await webhookWithDeliveries(2);
    const first = new HeldSender();
    const w = worker(first);
    w.start();
    await until(() => first.held.length === 2, 'two attempts in flight');
    await w.stop(20);
    expect(await statuses(webhookId)).toEqual(['pending', 'pending']);
    const attempts = await h.store.deliveries.list(webhookId, { limit: 10, after: null });
    expect(attempts.map((d) => d.attempts)).toEqual([0, 0]);

    const second = new HeldSender();
    worker(second).start();
    await until(() => second.held.length === 2, 'the next worker to send both (lease is 60 s)');
  });

  it('when stop is called while a claim is under way, then the claimed deliveries are not sent after stop returns', async () => {
    const webhookId = await webhookWithDeliveries(3);
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let claims = 0;
    // The queue as the worker sees it: the first claim is held until the test opens the gate.
    const queue = new Proxy(h.storage.deliveryQueue, {
      get(target, property, receiver) {
        if (property === 'claimDue') {
          return async (...args: Parameters<DeliveryQueue['claimDue']>) => {
            claims++;
            const jobs = await target.claimDue(...args);
            await gate;
            return jobs;
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const sender = new HeldSender();
    const w = worker(sender, queue);
    w.start();
    await until(() => claims === 1, 'a claim to start');

    const stopping = w.stop(50);
    await settle();
    openGate();
    await stopping;
    const sentByStop = sender.calls;
    await settle();
    // Nothing goes out once shutdown is over (the server closes the sender and the store next).
    expect(sender.calls).toBe(sentByStop);
    expect(sender.held).toHaveLength(0);
    // Whatever was claimed is pending and handed back: the next start sends it at once.
    expect(await statuses(webhookId)).toEqual(['pending', 'pending', 'pending']);
    const next = new HeldSender();
    worker(next).start();
    await until(() => next.held.length === 3, 'the next worker to send all three (lease is 60 s)');
  });
});
