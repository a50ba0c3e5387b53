// The host side of a seated occurrence (contract §16): its hosts' e-mails and calendar writes tell
// the occurrence once, under its own UID (domain/appointment.ts), not each seat. A seat's change
// queues a notice that names the occurrence and the host; what it says is read when it is sent.
import { occurrenceSequence, occurrenceUid, type OccurrenceRef } from '../domain/appointment.js';
import type { Booking } from '../domain/booking.js';
import type { Instant } from '../domain/instant.js';
import {
  namedHosts,
  occurrenceNews,
  occurrenceNoticeMessage,
  type BookingEmailContent,
  type NotificationKind,
  type OccurrenceNotice,
} from '../domain/notification.js';
import type { Reads } from './ports/store.js';

/**
 * The occurrences a seat's change touches for one host, with what it did to each: the booking's
 * (made, moved in, or cancelled) when the host hosts it, and on a reschedule the one it left when
 * the host hosted that.
 */
export function occurrencesChanged(
  change: { kind: Exclude<NotificationKind, 'reminder'>; booking: Booking; previous?: Booking },
  holderId: string,
): Array<{ kind: Exclude<NotificationKind, 'reminder'>; notice: OccurrenceNotice }> {
  const notice = (booking: Booking): OccurrenceNotice => ({ occurrence: occurrenceOf(booking), holderId });
  const changed: Array<{ kind: Exclude<NotificationKind, 'reminder'>; notice: OccurrenceNotice }> = [];
  if (change.booking.hostIds.includes(holderId))
    changed.push({ kind: change.kind === 'cancelled' ? 'cancelled' : 'created', notice: notice(change.booking) });
  if (change.kind === 'rescheduled' && change.previous?.hostIds.includes(holderId))
    changed.push({ kind: 'cancelled', notice: notice(change.previous) });
  return changed;
}

/** The occurrence a seat is of: its event type and start. */
export function occurrenceOf(booking: Pick<Booking, 'eventTypeId' | 'start'>): OccurrenceRef {
  return { eventTypeId: booking.eventTypeId, start: booking.start };
}

/** A seated occurrence as one host has it now. */
export interface HostOccurrence {
  /** Its event type's title. */
  title: string;
  uid: string;
  sequence: number;
  /** Its confirmed seats of the host, oldest first; none once it ended. */
  seats: Booking[];
  /** The seat that stands for it: its first confirmed one, else the one that left last. */
  representative: Booking;
  /** When its first seat of the host (confirmed or not) was booked. */
  firstBookedAt: Instant;
}

/** The occurrence as the host has it now, from the store; undefined when it never had a seat of the host. */
export async function hostOccurrence(
  store: Pick<Reads, 'appointments' | 'notifications'>,
  notice: OccurrenceNotice,
): Promise<HostOccurrence | undefined> {
  const all = await store.appointments.seatsOf(notice.holderId, notice.occurrence);
  const seats = all.filter((seat) => seat.status === 'confirmed');
  const departed = all.filter((seat) => seat.status !== 'confirmed');
  const representative =
    seats[0] ??
    departed.reduce<Booking | undefined>(
      (last, seat) => (last && last.updatedAt >= seat.updatedAt ? last : seat),
      undefined,
    );
  if (!representative) return undefined;
  const facts = await store.notifications.emailFacts(notice.occurrence.eventTypeId, []);
  return {
    title: facts?.title ?? 'Booking',
    uid: occurrenceUid(notice.occurrence),
    sequence: occurrenceSequence({ departed: departed.length, confirmed: seats.length }),
    seats,
    representative,
    firstBookedAt: Math.min(...all.map((seat) => seat.createdAt)),
  };
}

/**
 * The host's e-mail an occurrence notice sends now (contract §16): the occurrence's REQUEST when
 * it takes place and the host was not told so since it last ended, its CANCEL when it ended and
 * the host was last told it takes place (or may have been, before `loggedSince`, what the
 * notification log keeps reaching back to); undefined when there is nothing to tell.
 */
export async function hostOccurrenceEmail(
  store: Pick<Reads, 'appointments' | 'notifications'>,
  notice: OccurrenceNotice,
  recipient: string,
  loggedSince: Instant,
): Promise<BookingEmailContent | undefined> {
  const now = await hostOccurrence(store, notice);
  if (!now) return undefined;
  const lastSent = await store.notifications.lastSent('email', recipient, occurrenceNoticeMessage(notice));
  const news = occurrenceNews(
    now.seats.length > 0,
    lastSent === 'created' || lastSent === 'cancelled' ? lastSent : undefined,
    now.firstBookedAt >= loggedSince,
  );
  if (!news) return undefined;
  const booking = now.representative;
  const facts = await store.notifications.emailFacts(booking.eventTypeId, [
    ...new Set([...booking.hostIds, notice.holderId]),
  ]);
  const host = facts?.hosts.find((candidate) => candidate.holderId === notice.holderId);
  if (!facts || !host) return undefined;
  return {
    kind: news,
    booking,
    title: facts.title,
    hosts: namedHosts(facts.hosts, booking),
    recipient: { role: 'host', name: host.name, email: recipient, zone: host.zone, locale: 'en' },
    uid: now.uid,
    sequence: now.sequence,
    ...(news === 'created'
      ? { seats: now.seats.map((seat) => ({ name: seat.guestName, email: seat.guestEmail })) }
      : {}),
  };
}
