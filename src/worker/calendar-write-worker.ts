import ical, { ICalEventStatus } from 'ical-generator';
import { STATUS_CODES } from 'node:http';
import type { CalendarWriteContent } from '../app/booking-calendar-writes.js';
import { written } from '../app/ical-written.js';
import type { HostOccurrence } from '../app/occurrence-notices.js';
import { occurrenceUid } from '../domain/appointment.js';
import type { Booking } from '../domain/booking.js';
import { occurrenceNoticeOf, type OccurrenceNotice } from '../domain/notification.js';
import type { NotificationJob, NotificationOutcome, NotificationQueue } from '../app/ports/notification-store.js';
import type { SourceAddress } from '../domain/calendar-source.js';
import type { Instant } from '../domain/instant.js';
import { decideAfterAttempt } from '../domain/webhook-retry.js';
import { sourceTarget } from './calendar-fetcher.js';
import { OutboxWorker, type WorkerLogger } from './outbox-loop.js';
import { Deadline, discard, failureKind, SafeFetch } from './safe-fetch.js';

export interface CalendarWriteSettings {
  /** The webhooks' retry schedule: a write is retried on it after a 5xx, 408 or 429 answer, or none. */
  retryScheduleMs: readonly number[];
  pollIntervalMs: number;
  /** One write's bound (`CALENDAR_SYNC_TIMEOUT_MS`, as a read's). */
  timeoutMs: number;
  concurrency: number;
  allowPrivateTargets: boolean;
}

/** The writer's settings: the webhooks' retry schedule and poll, the calendar reads' timeout and address guard, four writes at once. */
export function calendarWriteSettings(
  webhooks: Pick<CalendarWriteSettings, 'retryScheduleMs' | 'pollIntervalMs'>,
  sources: Pick<CalendarWriteSettings, 'timeoutMs' | 'allowPrivateTargets'>,
): CalendarWriteSettings {
  return {
    retryScheduleMs: webhooks.retryScheduleMs,
    pollIntervalMs: webhooks.pollIntervalMs,
    timeoutMs: sources.timeoutMs,
    allowPrivateTargets: sources.allowPrivateTargets,
    concurrency: 4,
  };
}

/** The address of a calendar source, opened for a write; undefined for a source gone or unreadable. */
export type OpenSource = (holderId: string, sourceId: string) => Promise<SourceAddress | undefined>;

/** A seated occurrence as its host has it now (`hostOccurrence`). */
export type ReadOccurrence = (notice: OccurrenceNotice) => Promise<HostOccurrence | undefined>;

const PRODUCT = { company: 'Slotwise', product: 'Slotwise', language: 'EN' };

/**
 * The write-back's outbox loop (contract §16, "The host's own calendar"): claims due `calendar`
 * notifications and, with no transaction open, PUTs the appointment's event to the host's CalDAV
 * calendar (`<collection>/<UID>.ics`, so one resource per appointment: a move replaces it) or
 * DELETEs it (a cancellation; a 404 means it is gone already). Through the same guarded pipeline as
 * the reads (safe-fetch.ts: the address guard on every connection, a deadline, no redirects), not
 * tsdav, whose fetch has neither. A 5xx, 408 or 429 answer or none is retried on the webhook
 * schedule, another 4xx ends the write `failed`; the source's `lastWriteError` follows each attempt.
 * A seated occurrence's write (an occurrence notice) is resolved when it runs: the occurrence's one
 * event under its UID with every confirmed seat's guest as attendee, or its removal once it has none.
 */
export class CalendarWriteWorker extends OutboxWorker<NotificationJob> {
  readonly name = 'calendar writer';
  private readonly http: SafeFetch;

  constructor(
    private readonly queue: NotificationQueue,
    private readonly openSource: OpenSource,
    private readonly readOccurrence: ReadOccurrence,
    private readonly settings: CalendarWriteSettings,
    private readonly now: () => Instant,
    private readonly logger: WorkerLogger,
    private readonly random: () => number = Math.random,
  ) {
    super(settings, logger);
    this.http = new SafeFetch({
      allowPrivateTargets: settings.allowPrivateTargets,
      userAgent: 'Slotwise-Calendar/1',
      decompress: false,
    });
  }

  override async stop(graceMs: number): Promise<void> {
    await super.stop(graceMs);
    await this.http.close();
  }

  async claim(free: number): Promise<{ run: NotificationJob[]; claimed: number }> {
    const now = this.now();
    const jobs = await this.queue.claimDue({
      channel: 'calendar',
      now,
      leaseUntil: now + this.settings.timeoutMs + 5_000,
      limit: free,
    });
    return { run: jobs, claimed: jobs.length };
  }

  idOf(job: NotificationJob): string {
    return job.id;
  }

  async attempt(job: NotificationJob, signal: AbortSignal): Promise<void> {
    const notice = occurrenceNoticeOf(job.message);
    const content = notice ? await this.occurrenceWrite(notice) : (JSON.parse(job.message) as CalendarWriteContent);
    const address = await this.openSource(content.holderId, job.recipient);
    const result = address
      ? await this.write(address, content, signal)
      : ({ kind: 'final', error: 'the calendar source is gone or its address cannot be opened' } as const);
    if (result.kind === 'stopped') {
      await this.queue.release([job.id]);
      return;
    }
    const now = this.now();
    let outcome: NotificationOutcome;
    if (result.kind === 'done') outcome = { status: 'sent', ...(notice ? { kind: content.kind } : {}) };
    else if (result.kind === 'final') outcome = { status: 'failed', error: result.error };
    else {
      const next = decideAfterAttempt(
        { kind: 'failure', retryAfterMs: null },
        job.retryStep + 1,
        now,
        this.settings.retryScheduleMs,
        this.random(),
      );
      outcome =
        next.status === 'pending'
          ? { status: 'pending', error: result.error, dueAt: next.nextAttemptAt }
          : { status: 'failed', error: result.error };
    }
    // The source's first: once the write shows finished, its source shows how it went.
    if (address) await this.queue.recordCalendarWrite(job.recipient, outcome.status === 'sent' ? null : outcome.error);
    await this.queue.recordAttempt(job.id, outcome, now);
    if (outcome.status === 'failed')
      this.logger.warn({ notification: job.id, booking: job.bookingId, error: outcome.error }, 'calendar write failed');
  }

  /** What an occurrence notice writes now: its event, or (no seat left) its removal. */
  private async occurrenceWrite(notice: OccurrenceNotice): Promise<WriteContent> {
    const now = await this.readOccurrence(notice);
    const uid = occurrenceUid(notice.occurrence);
    if (!now || now.seats.length === 0)
      return { kind: 'cancelled', holderId: notice.holderId, uid, sequence: now?.sequence ?? 0, title: '', seats: [] };
    return {
      kind: 'created',
      holderId: notice.holderId,
      uid,
      sequence: now.sequence,
      title: now.title,
      booking: now.representative,
      seats: now.seats,
    };
  }

  private async write(address: SourceAddress, content: WriteContent, signal: AbortSignal): Promise<WriteResult> {
    const { url: collection, authorization } = sourceTarget(address);
    const base = collection.href.endsWith('/') ? collection.href : `${collection.href}/`;
    const target = new URL(`${encodeURIComponent(content.uid)}.ics`, base);
    const removing = content.kind === 'cancelled';
    const headers: Record<string, string> = authorization ? { authorization } : {};
    if (!removing) headers['content-type'] = 'text/calendar; charset=utf-8';
    const deadline = new Deadline(this.settings.timeoutMs, signal);
    try {
      const answer = await this.http.request(
        target,
        { method: removing ? 'DELETE' : 'PUT', headers, ...(removing ? {} : { body: eventOf(content) }) },
        deadline,
      );
      discard(answer.body);
      const { status } = answer;
      if ((status >= 200 && status < 300) || (removing && (status === 404 || status === 410))) return { kind: 'done' };
      const error = `the calendar server answered ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
      return { kind: status >= 500 || status === 408 || status === 429 ? 'retry' : 'final', error };
    } catch (error) {
      const kind = failureKind(error, deadline);
      if (kind === 'stopped') return { kind: 'stopped' };
      return {
        kind: kind === 'forbidden' ? 'final' : 'retry',
        error: `the calendar server could not be reached (${kind})`,
      };
    }
  }
}

type WriteResult = { kind: 'done' } | { kind: 'stopped' } | { kind: 'retry' | 'final'; error: string };

/** A write as it is made: an appointment's (as of its change), or an occurrence's (as it is now, with its seats). */
type WriteContent =
  | CalendarWriteContent
  | (Omit<CalendarWriteContent, 'booking'> & {
      booking?: CalendarWriteContent['booking'];
      seats: ReadonlyArray<Pick<Booking, 'guestName' | 'guestEmail'>>;
    });

/**
 * The event as written to the host's calendar: its UID and SEQUENCE, the guest as attendee; an
 * occurrence's every seat's guest, its summary the guest's name or how many there are, as the feed's.
 */
function eventOf(content: WriteContent): string {
  const booking = content.booking!;
  const seats = 'seats' in content ? content.seats : [booking];
  const guests = seats.length === 1 ? seats[0]!.guestName : `${seats.length} guests`;
  const calendar = ical({ prodId: PRODUCT });
  calendar.createEvent({
    id: content.uid,
    start: new Date(booking.start),
    end: new Date(booking.end),
    stamp: new Date(),
    created: new Date(booking.createdAt),
    sequence: content.sequence,
    status: ICalEventStatus.CONFIRMED,
    summary: written.value(`${content.title}: ${guests}`),
    description: seats.length > 1 || booking.notes === null ? null : written.value(booking.notes),
    location: booking.location === null ? null : written.value(booking.location.value),
    url: booking.location?.type === 'link' ? new URL(booking.location.value).href : null,
    attendees: seats.map((seat) => ({
      name: written.parameter(seat.guestName),
      email: written.value(seat.guestEmail),
    })),
  });
  return calendar.toString();
}
