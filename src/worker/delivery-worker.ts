import {
  decideAfterAttempt,
  parseRetryAfter,
  type AttemptResult,
  type DeliveryDecision,
} from '../domain/webhook-retry.js';
import type { Instant } from '../domain/instant.js';
import type { DeliveryJob, DeliveryQueue } from '../app/ports/delivery-queue.js';
import type { DeliveryAttempt } from '../domain/webhook.js';
import { OutboxWorker, type WorkerLogger } from './outbox-loop.js';
import type { SendResult, WebhookSender } from './send-webhook.js';

export interface WorkerSettings {
  retryScheduleMs: readonly number[];
  /** How often to look for due deliveries when nothing wakes the worker. */
  pollIntervalMs: number;
  /** How long a claim keeps other workers off a delivery; longer than one attempt can take. */
  leaseMs: number;
  /** Attempts in flight at once, over all webhooks. */
  concurrency: number;
  /** Attempts in flight at once for one webhook: a slow receiver cannot take every slot. */
  perWebhook: number;
  /**
   * Attempts in flight at once for one holder's webhooks (an account's own webhooks count as one
   * more holder of the account): one tenant cannot take every slot.
   */
  perHolder: number;
  /** Attempts in flight at once for one account's webhooks, its own and all its holders'. */
  perAccount: number;
  /** The body as sent, from the stored one (adds what is made at send time: the guest's links). */
  asSent?: (payload: string) => string;
  /** Told the outcome of every recorded attempt (metrics). */
  observe?: (outcome: 'succeeded' | 'retrying' | 'failed' | 'gone') => void;
}

export type { WorkerLogger } from './outbox-loop.js';

/**
 * The webhook deliveries' outbox loop (`OutboxLoop`): claims due deliveries fairly among webhooks,
 * holders and accounts, sends each with no transaction open, records the attempt and where the
 * delivery goes next. Runs inside the server process. An attempt aborted at `stop` hands its
 * delivery back, so the next start sends it without waiting for the lease.
 */
export class DeliveryWorker extends OutboxWorker<DeliveryJob> {
  readonly name = 'webhook worker';
  /** Attempts in flight by webhook id. */
  private readonly busyWebhooks = new InFlightCounts();
  /** Attempts in flight by owner (`DeliveryJob.ownerId`). */
  private readonly busyOwners = new InFlightCounts();
  /** Attempts in flight by account id. */
  private readonly busyAccounts = new InFlightCounts();

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly settings: WorkerSettings,
    private readonly now: () => Instant,
    private readonly logger: WorkerLogger,
    private readonly random: () => number = Math.random,
  ) {
    super(settings, logger);
  }

  async claim(free: number): Promise<{ run: DeliveryJob[]; claimed: number }> {
    const now = this.now();
    const { perWebhook, perHolder, perAccount } = this.settings;
    const jobs = await this.queue.claimDue({
      now,
      leaseUntil: now + this.settings.leaseMs,
      limit: free,
      perWebhook,
      perHolder,
      perAccount,
      skipWebhookIds: this.busyWebhooks.atLeast(perWebhook),
      skipOwnerIds: this.busyOwners.atLeast(perHolder),
      skipAccountIds: this.busyAccounts.atLeast(perAccount),
    });
    // The claim takes up to the limits of each webhook, owner and account that is not yet
    // full, whatever it has in flight already: hand back what would take one past its limit.
    const giveBack: string[] = [];
    const launched: DeliveryJob[] = [];
    for (const job of jobs) {
      if (
        this.busyWebhooks.of(job.webhookId) >= perWebhook ||
        this.busyOwners.of(job.ownerId) >= perHolder ||
        this.busyAccounts.of(job.accountId) >= perAccount
      ) {
        giveBack.push(job.deliveryId);
        continue;
      }
      this.busyWebhooks.add(job.webhookId);
      this.busyOwners.add(job.ownerId);
      this.busyAccounts.add(job.accountId);
      launched.push(job);
    }
    if (giveBack.length > 0) await this.queue.release(giveBack);
    return { run: launched, claimed: jobs.length };
  }

  idOf(job: DeliveryJob): string {
    return job.deliveryId;
  }

  finished(job: DeliveryJob): void {
    this.busyWebhooks.remove(job.webhookId);
    this.busyOwners.remove(job.ownerId);
    this.busyAccounts.remove(job.accountId);
  }

  async attempt(job: DeliveryJob, signal: AbortSignal): Promise<void> {
    const startedAt = this.now();
    const payload = this.settings.asSent ? this.settings.asSent(job.payload) : job.payload;
    const result = await this.sender.send({ ...job, payload }, new Date(startedAt), signal);
    if (signal.aborted) {
      await this.queue.release([job.deliveryId]);
      return;
    }
    const finishedAt = this.now();
    const outcome = this.outcomeOf(result, job, finishedAt);
    const attempt: DeliveryAttempt = {
      attempt: job.attempts + 1,
      startedAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error,
      responseExcerpt: result.responseExcerpt,
    };
    try {
      await this.queue.recordAttempt(job.deliveryId, attempt, outcome, finishedAt);
    } catch (error) {
      // Whatever in the reply the store refused, the delivery must still move on its schedule, not
      // be sent again when its lease lapses: the attempt is recorded once more without the reply.
      this.logger.warn({ err: error, delivery: job.deliveryId }, 'webhook attempt recorded without its reply');
      const bare: DeliveryAttempt = {
        ...attempt,
        error: 'recorded without its reply and error text, which the store refused',
        responseExcerpt: null,
      };
      await this.queue.recordAttempt(job.deliveryId, bare, outcome, finishedAt);
    }
    this.settings.observe?.(
      outcome.status === 'succeeded'
        ? 'succeeded'
        : outcome.status === 'pending'
          ? 'retrying'
          : outcome.disableWebhook
            ? 'gone'
            : 'failed',
    );
    if (outcome.status === 'failed') {
      this.logger.warn(
        { delivery: job.deliveryId, webhook: job.webhookId, status: result.statusCode, error: result.error },
        outcome.disableWebhook ? 'webhook answered 410 Gone: disabled' : 'webhook delivery failed after its last retry',
      );
    }
  }

  private outcomeOf(result: SendResult, job: DeliveryJob, now: Instant): DeliveryDecision {
    const status = result.statusCode;
    const attempt: AttemptResult =
      status !== null && status >= 200 && status < 300
        ? { kind: 'success' }
        : status === 410
          ? { kind: 'gone' }
          : { kind: 'failure', retryAfterMs: parseRetryAfter(result.retryAfter, now) };
    return decideAfterAttempt(attempt, job.retryStep + 1, now, this.settings.retryScheduleMs, this.random());
  }
}

/** How many attempts are in flight per key; a key with none is not kept. */
class InFlightCounts {
  private readonly counts = new Map<string, number>();

  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.counts.set(key, this.of(key) + 1);
  }

  remove(key: string): void {
    const left = this.of(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }

  /** The keys with at least `limit` attempts in flight. */
  atLeast(limit: number): string[] {
    return [...this.counts].filter(([, count]) => count >= limit).map(([key]) => key);
  }
}
