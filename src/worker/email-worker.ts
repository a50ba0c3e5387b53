import type { NotificationJob, NotificationOutcome, NotificationQueue } from '../app/ports/notification-store.js';
import type { Instant } from '../domain/instant.js';
import { occurrenceNoticeOf, type BookingEmailContent, type OccurrenceNotice } from '../domain/notification.js';
import { decideAfterAttempt } from '../domain/webhook-retry.js';
import type { BookingEmailInput } from './booking-email.js';
import type { EmailDelivery } from './email-delivery.js';
import type { GiveWay } from './event-loop-load.js';
import { OutboxWorker, type WorkerLogger } from './outbox-loop.js';

export interface EmailWorkerSettings {
  /** The webhooks' retry schedule: an e-mail is retried on it after a 4xx reply or a lost connection. */
  retryScheduleMs: readonly number[];
  pollIntervalMs: number;
  /** How long a claim keeps other workers off a message; longer than one attempt can take. */
  leaseMs: number;
  /** Messages in flight at once. */
  concurrency: number;
  /** How long a wake waits to share its claim with other wakes (`OutboxLoopSettings.wakeDelayMs`). */
  wakeDelayMs?: number;
  /** `EMAIL_FROM`. */
  from: string;
  /** What every `Message-ID` ends with: `EMAIL_FROM`'s domain. */
  messageIdDomain: string;
  /** The guest's manage link, made when sent (never stored), as the webhook payloads' are. */
  manageUrl: (bookingId: string) => string;
  /** When to leave the event loop to the requests (`GiveWay`): no claim is made then. */
  giveWay?: Pick<GiveWay, 'waitNow'>;
  /** Told the outcome of every recorded attempt (metrics). */
  observe?: (outcome: EmailAttemptOutcome) => void;
}

/** How an attempt to send a message ended: sent, retrying (4xx or no reply; sent again later), failed (given up). */
export type EmailAttemptOutcome = 'sent' | 'retrying' | 'failed';

/** A host's e-mail of a seated occurrence, as it is to be sent now (`hostOccurrenceEmail`); undefined: nothing to tell. */
export type ResolveOccurrenceEmail = (
  notice: OccurrenceNotice,
  recipient: string,
) => Promise<BookingEmailContent | undefined>;

/**
 * Writes the messages of the booking changes committed since the last call (`writeQueuedEmails`);
 * answers whether some are left for the next (more than one call writes).
 */
export type WriteQueuedEmails = () => Promise<boolean>;

/** The longest server reply kept as a message's `lastError`. */
const MAX_ERROR_LENGTH = 1_000;

/**
 * The e-mails' outbox loop (`OutboxLoop`): claims due messages, sends each with no transaction
 * open, and records it `sent`, `pending` again on the retry schedule (a 4xx reply or no reply), or
 * `failed` (a 5xx reply, or the schedule's end). A message keeps its `Message-ID`
 * (`<ntf_…@domain>`) through every attempt, so one sent twice (at least once) is one to its reader.
 * At `stop`, an SMTP conversation is not cut halfway: it ends (within the sender's timeout) and
 * is recorded. A host's notice of a seated occurrence is written when it is taken, from the
 * occurrence as it is then and what its recipient was last sent of it; one with nothing to tell
 * is removed (it never reached anyone). Each claim first writes the messages of the booking
 * changes committed since the one before (`WriteQueuedEmails`): the booking's transaction writes
 * only the change. While the event loop is saturated, the worker gives way (`giveWay`), for a
 * bounded time: a burst of bookings is answered first, its e-mails follow.
 */
export class EmailWorker extends OutboxWorker<NotificationJob> {
  readonly name = 'e-mail worker';

  constructor(
    private readonly queue: NotificationQueue,
    private readonly delivery: Pick<EmailDelivery, 'deliver'>,
    private readonly resolveOccurrence: ResolveOccurrenceEmail,
    private readonly writeQueued: WriteQueuedEmails,
    private readonly settings: EmailWorkerSettings,
    private readonly now: () => Instant,
    private readonly logger: WorkerLogger,
    private readonly random: () => number = Math.random,
  ) {
    super(settings, logger);
  }

  async claim(free: number): Promise<{ run: NotificationJob[]; claimed: number }> {
    // Nothing now: the loop looks again after its poll interval.
    if (this.settings.giveWay?.waitNow(this.now())) return { run: [], claimed: 0 };
    // The messages of the changes committed since the last claim first: they are due now.
    const more = await this.writeQueued();
    const now = this.now();
    const jobs = await this.queue.claimDue({
      channel: 'email',
      now,
      leaseUntil: now + this.settings.leaseMs,
      limit: free,
    });
    // Changes left to write: the loop claims again at once, as after a full claim.
    return { run: jobs, claimed: more ? free : jobs.length };
  }

  idOf(job: NotificationJob): string {
    return job.id;
  }

  private inputOf(job: NotificationJob, content: BookingEmailContent): BookingEmailInput {
    return {
      ...content,
      from: this.settings.from,
      messageId: `<${job.id}@${this.settings.messageIdDomain}>`,
      manageUrl: content.recipient.role === 'guest' ? this.settings.manageUrl(content.booking.id) : undefined,
    };
  }

  /** A row this build cannot write as a message would fail on every attempt: it ends here. */
  private async unwritable(job: NotificationJob, error: string): Promise<void> {
    const reason = `could not compose the message: ${error}`.slice(0, MAX_ERROR_LENGTH);
    await this.queue.recordAttempt(job.id, { status: 'failed', error: reason }, this.now());
    this.settings.observe?.('failed');
    this.logger.error({ notification: job.id, err: error }, 'e-mail could not be composed');
  }

  async attempt(job: NotificationJob): Promise<void> {
    const notice = occurrenceNoticeOf(job.message);
    const resolved = notice && (await this.resolveOccurrence(notice, job.recipient));
    if (notice && !resolved) {
      await this.queue.discard(job.id);
      return;
    }
    let content: BookingEmailContent;
    try {
      content = resolved ?? (JSON.parse(job.message) as BookingEmailContent);
    } catch (error) {
      await this.unwritable(job, String(error));
      return;
    }
    const result = await this.delivery.deliver(this.inputOf(job, content));
    if (result.kind === 'unwritable') {
      await this.unwritable(job, result.error);
      return;
    }
    const now = this.now();
    let outcome: NotificationOutcome;
    if (result.kind === 'sent') outcome = { status: 'sent', ...(notice ? { kind: content.kind } : {}) };
    else {
      const error = result.error.slice(0, MAX_ERROR_LENGTH);
      const next =
        result.kind === 'rejected'
          ? ({ status: 'failed', disableWebhook: false } as const)
          : decideAfterAttempt(
              { kind: 'failure', retryAfterMs: null },
              job.retryStep + 1,
              now,
              this.settings.retryScheduleMs,
              this.random(),
            );
      outcome =
        next.status === 'pending'
          ? { status: 'pending', error, dueAt: next.nextAttemptAt }
          : { status: 'failed', error };
    }
    await this.queue.recordAttempt(job.id, outcome, now);
    this.settings.observe?.(outcome.status === 'pending' ? 'retrying' : outcome.status);
    if (outcome.status === 'failed')
      this.logger.warn(
        { notification: job.id, booking: job.bookingId, error: outcome.error },
        result.kind === 'rejected' ? 'e-mail refused by the SMTP server' : 'e-mail failed after its last retry',
      );
  }
}
