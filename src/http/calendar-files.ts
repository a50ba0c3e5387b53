// The calendar files of contract §10, outside the API (no key: the link is the capability):
// `icsUrl` (the guest's appointment) and `calendarFeedUrl` (the holder's appointments, for a
// calendar app), one event per appointment as contract §16 says. Written with ical-generator, so escaping, line folding and UTC instants are the
// library's, not string concatenation; every text goes through `written` first, for what the
// library leaves to its caller.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { createHash } from 'node:crypto';
import { bookingFile, feedSubject, holderFeed, type CalendarFileContent } from '../app/calendar-files.js';
import type { AppContext } from '../app/context.js';
import { written } from '../app/ical-written.js';
import {
  appointmentSequence,
  appointmentUid,
  latestOfAppointments,
  occurrenceSequence,
  occurrenceUid,
} from '../domain/appointment.js';
import type { Booking } from '../domain/booking.js';
import type { PerMinuteLimit } from './per-minute-limit.js';
import type { RenderedFeeds } from './rendered-feeds.js';

const PRODUCT = { company: 'Slotwise', product: 'Slotwise', language: 'EN' };
/** The files are in English: `Ada, Bob, and Cy`. */
const NAMES = new Intl.ListFormat('en', { type: 'conjunction' });

/** Whose eyes a file is for: the guest's one booking, or the holder's whole feed. */
type Audience = 'guest' | 'holder';

export interface CalendarFileOptions {
  /** Requests per link (`PUBLIC_FILE_RATE_LIMIT_PER_MINUTE`); no bound when absent. */
  requests?: PerMinuteLimit;
  /** The holders' feeds as last written (bounded; built by the composition root). */
  feeds: RenderedFeeds;
}

/** Calendar apps poll a feed: five minutes of it may be reused by the client, never by a proxy. */
const FEED_MAX_AGE = 300;
const FEED_DISPOSITION = 'inline; filename="slotwise.ics"';

export function registerCalendarFiles(app: FastifyInstance, context: AppContext, options: CalendarFileOptions): void {
  const { requests, feeds } = options;
  /**
   * What the link named by `file` opens, within the link's bound; undefined once the answer is
   * sent (404 for a link that opens nothing, 429 past the bound). Only links that open something
   * are counted, so forged ones neither fill the counts nor push a real link over.
   */
  const opened = async <T>(
    file: string,
    reply: FastifyReply,
    open: (token: string) => Promise<T | undefined>,
  ): Promise<T | undefined> => {
    const token = tokenOf(file);
    const wait = token === undefined ? 0 : (requests?.retryAfterSeconds(token) ?? 0);
    if (wait > 0) {
      tooMany(reply, wait);
      return undefined;
    }
    const subject = token === undefined ? undefined : await open(token);
    if (token === undefined || subject === undefined) {
      notFound(reply);
      return undefined;
    }
    requests?.record(token);
    return subject;
  };
  app.get<{ Params: { file: string } }>('/ics/:file', async (request, reply) => {
    const content = await opened(request.params.file, reply, (token) => bookingFile(context, token));
    if (!content) return reply;
    return send(reply, calendarFile(content, 'guest'), {
      disposition: 'attachment; filename="booking.ics"',
      maxAge: 0,
    });
  });
  app.get<{ Params: { file: string } }>('/feeds/:file', async (request, reply) => {
    const subject = await opened(request.params.file, reply, (token) => feedSubject(context, token));
    if (!subject) return reply;
    const { holder, version } = subject;
    // The ETag comes from the version, so an unchanged feed is answered without being read or written.
    const etag = `"${createHash('sha256').update(`${holder.id}\n${version}`).digest('base64url').slice(0, 22)}"`;
    reply.header('etag', etag);
    if (matches(request, etag)) {
      return reply.code(304).header('cache-control', cacheControl(FEED_MAX_AGE)).send();
    }
    let feed = feeds.get(holder.id, version);
    if (!feed) {
      feed = { version, body: calendarFile(await holderFeed(context, subject), 'holder') };
      feeds.set(holder.id, feed);
    }
    return send(reply, feed.body, { disposition: FEED_DISPOSITION, maxAge: FEED_MAX_AGE });
  });
}

/** The token of a calendar file's name (`<token>.ics`); undefined for any other name. */
function tokenOf(file: string): string | undefined {
  if (!file.endsWith('.ics') || file.length > 512) return undefined;
  return file.slice(0, -'.ics'.length);
}

/** Whether the client's `If-None-Match` names `etag` (weakly, as RFC 9110 compares for GET), or is `*`. */
function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/**
 * One VEVENT per appointment (contract §16): its latest booking among `content.bookings`, under
 * the appointment's UID and SEQUENCE (domain/appointment.ts), so a calendar that had it moves it
 * when it was rescheduled, and with STATUS:CANCELLED removes it once it is cancelled. A booking
 * moved before that rule is an appointment of its own and stays cancelled beside the new one, as
 * calendars learnt it. The holder sees a seated occurrence (contract §15) once, as the write-back
 * and the host e-mails show it: its confirmed seats' guests as attendees, under the occurrence's
 * UID and SEQUENCE (`occurrenceUid`, `occurrenceSequence`), cancelled once no seat is left; a
 * guest's file is the guest's own appointment.
 */
export function calendarFile(content: CalendarFileContent, audience: Audience): string {
  // A team booking's hosts, in its order (contract §14).
  const holderName = NAMES.format(content.holders.map((holder) => holder.displayName ?? holder.name));
  const calendar = ical({
    prodId: PRODUCT,
    name: audience === 'holder' ? written.calendarName(`${holderName} (Slotwise)`) : null,
    method: audience === 'guest' ? ICalCalendarMethod.PUBLISH : null,
  });
  const appointments = latestOfAppointments(content.bookings);
  const events =
    audience === 'holder'
      ? holderEvents(content.bookings, appointments, content.seated ?? new Set())
      : appointments.map(appointmentEvent);
  for (const { seats, uid, sequence } of events) {
    const booking = seats[0]!;
    const title = content.titles.get(booking.eventTypeId) ?? 'Booking';
    const guests = seats.length === 1 ? booking.guestName : `${seats.length} guests`;
    calendar.createEvent({
      id: uid,
      start: new Date(booking.start),
      end: new Date(booking.end),
      stamp: new Date(Math.max(...seats.map((seat) => seat.updatedAt))),
      created: new Date(booking.createdAt),
      lastModified: new Date(Math.max(...seats.map((seat) => seat.updatedAt))),
      sequence,
      status: booking.status === 'confirmed' ? ICalEventStatus.CONFIRMED : ICalEventStatus.CANCELLED,
      summary: written.value(audience === 'holder' ? `${title}: ${guests}` : `${title} with ${holderName}`),
      description: audience === 'holder' ? describeSeats(seats) : null,
      location: booking.location === null ? null : written.value(booking.location.value),
      url: booking.location?.type === 'link' ? new URL(booking.location.value).href : null,
      attendees: seats.map((seat) => ({
        name: written.parameter(seat.guestName),
        email: written.value(seat.guestEmail),
      })),
    });
  }
  return calendar.toString();
}

/** One event of a file: the bookings it shows (one, or an occurrence's seats), under its UID and SEQUENCE. */
interface FileEvent {
  seats: Booking[];
  uid: string;
  sequence: number;
}

function appointmentEvent(booking: Booking): FileEvent {
  return { seats: [booking], uid: appointmentUid(booking), sequence: appointmentSequence(booking) };
}

/**
 * The holder's events: each appointment alone, but each occurrence of a seated event type once
 * where its first booking is, from all its bookings at that start (a seat moved away is one
 * that left it): its confirmed seats, the first booked first, or once none is left the seat that
 * left last, cancelled.
 */
function holderEvents(
  all: readonly Booking[],
  appointments: readonly Booking[],
  seated: ReadonlySet<string>,
): FileEvent[] {
  const keyOf = (booking: Booking) => `${booking.eventTypeId} ${booking.start}`;
  const occurrences = new Map<string, Booking[]>();
  for (const booking of all) {
    if (!seated.has(booking.eventTypeId)) continue;
    const seats = occurrences.get(keyOf(booking));
    if (seats) seats.push(booking);
    else occurrences.set(keyOf(booking), [booking]);
  }
  const events: FileEvent[] = [];
  const shown = new Set<string>();
  for (const booking of appointments) {
    if (!seated.has(booking.eventTypeId)) {
      events.push(appointmentEvent(booking));
      continue;
    }
    const key = keyOf(booking);
    if (shown.has(key)) continue;
    shown.add(key);
    const seats = occurrences.get(key)!;
    const confirmed = seats
      .filter((seat) => seat.status === 'confirmed')
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const departed = seats.filter((seat) => seat.status !== 'confirmed');
    const lastLeft = departed.reduce((last, seat) => (seat.updatedAt > last.updatedAt ? seat : last), departed[0]!);
    events.push({
      seats: confirmed.length > 0 ? confirmed : [lastLeft],
      uid: occurrenceUid(booking),
      sequence: occurrenceSequence({ departed: departed.length, confirmed: confirmed.length }),
    });
  }
  return events;
}

/** The holder's notes on a booking, or on each seat of an occurrence under its guest's name. */
function describeSeats(seats: readonly Booking[]): string | null {
  if (seats.length === 1) return describe(seats[0]!);
  const parts = seats.map((seat) => [seat.guestName, describe(seat)].filter(Boolean).join('\n'));
  return written.value(parts.join('\n\n'));
}

/** The holder's notes on a booking in its feed: the guest's notes and answers. */
function describe(booking: Booking): string | null {
  const lines = [
    ...(booking.notes ? [booking.notes] : []),
    ...Object.entries(booking.answers).map(
      ([question, answer]) => `${question}: ${Array.isArray(answer) ? answer.join(', ') : String(answer)}`,
    ),
  ];
  return lines.length > 0 ? written.value(lines.join('\n')) : null;
}

function send(reply: FastifyReply, text: string, options: { disposition: string; maxAge: number }) {
  return reply
    .header('content-type', 'text/calendar; charset=utf-8')
    .header('content-disposition', options.disposition)
    .header('cache-control', cacheControl(options.maxAge))
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex')
    .send(text);
}

function cacheControl(maxAge: number): string {
  return maxAge > 0 ? `private, max-age=${maxAge}` : 'private, no-store';
}

/** A link fetched more often than `PUBLIC_FILE_RATE_LIMIT_PER_MINUTE` allows: try again in `wait` seconds. */
function tooMany(reply: FastifyReply, wait: number) {
  return reply
    .code(429)
    .header('retry-after', String(wait))
    .header('content-type', 'text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send('Too many requests for this link: try again later.\n');
}

/** Every link that opens nothing looks the same: no telling a forged token from a rotated feed. */
function notFound(reply: FastifyReply) {
  return reply
    .code(404)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('referrer-policy', 'no-referrer')
    .send('Not found\n');
}
