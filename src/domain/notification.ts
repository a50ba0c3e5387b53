import type { OccurrenceRef } from './appointment.js';
import type { Booking, GuestLanguage } from './booking.js';
import type { Instant } from './instant.js';

// The notifications of a booking (contract §16): who is told of its changes, by which channel,
// and how far each message got.

export const NOTIFICATION_CHANNELS = ['email', 'calendar'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** What the message tells: the booking was made, moved or cancelled, or is coming up (a reminder). */
export const NOTIFICATION_KINDS = ['created', 'rescheduled', 'cancelled', 'reminder'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_STATUSES = ['pending', 'sent', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** One message to one recipient, as the booking's notification log shows it. */
export interface Notification {
  id: string;
  bookingId: string;
  channel: NotificationChannel;
  kind: NotificationKind;
  /** An e-mail address, or (channel `calendar`) a calendar source's id. */
  recipient: string;
  status: NotificationStatus;
  attempts: number;
  lastError: string | null;
  sentAt: Instant | null;
  createdAt: Instant;
}

/** The `lastError` of a message not sent because its address had its hour's messages (`EMAIL_PER_RECIPIENT_PER_HOUR`). */
export function overCapError(perHour: number): string {
  return `not sent: this address already had ${perHour} messages in the last hour (EMAIL_PER_RECIPIENT_PER_HOUR)`;
}

/** What a booking e-mail tells: a booking made, moved or cancelled (with an invitation), or coming up (a reminder, without). */
export type BookingEmailKind = NotificationKind;

export interface EmailPerson {
  name: string;
  email: string;
}

/**
 * What one booking e-mail says, as of the change that sent it (stored with the message, so a later
 * change never rewrites it). What is made when it is sent (the guest's manage link, the sender,
 * the `Message-ID`) is not part of it.
 */
export interface BookingEmailContent {
  kind: BookingEmailKind;
  /** The booking the message is about: the new one of a reschedule, the cancelled one of a cancellation. */
  booking: Booking;
  /** The event type's title. */
  title: string;
  /** The booking's hosts in its `hostIds` order; those without an e-mail are named but not invited. */
  hosts: ReadonlyArray<{ name: string; email: string | null }>;
  recipient: EmailPerson & {
    /** The guest gets the manage link; a host the guest's notes and answers. */
    role: 'guest' | 'host';
    zone: string;
    locale: GuestLanguage;
  };
  /** The appointment's iCalendar UID and its SEQUENCE (contract §16). */
  uid: string;
  sequence: number;
  /**
   * A host's message of a seated occurrence (contract §16): the guests of its seats, its attendees
   * instead of `booking`'s guest alone.
   */
  seats?: EmailPerson[];
}

/**
 * A host-side notification of a seated occurrence (contract §16): it names the occurrence and the
 * host, and what it says is read when it is sent, so seats changing at once, retries and
 * reordering all end in the occurrence's latest state, told once.
 */
export interface OccurrenceNotice {
  occurrence: OccurrenceRef;
  holderId: string;
}

const OCCURRENCE_NOTICE_PREFIX = '{"occurrence":';

/**
 * The stored message of an occurrence notice: the same text for the same occurrence and host, so
 * the store finds a pending one, and what was last sent to a recipient, by it.
 */
export function occurrenceNoticeMessage({ occurrence, holderId }: OccurrenceNotice): string {
  return JSON.stringify({ occurrence: { eventTypeId: occurrence.eventTypeId, start: occurrence.start }, holderId });
}

/** Whether a stored message is an occurrence notice's (`occurrenceNoticeMessage`), as SQL `like` finds it. */
export const OCCURRENCE_NOTICE_LIKE = `${OCCURRENCE_NOTICE_PREFIX}%`;

/** The occurrence notice a stored message is, if it is one. */
export function occurrenceNoticeOf(message: string): OccurrenceNotice | undefined {
  return message.startsWith(OCCURRENCE_NOTICE_PREFIX) ? (JSON.parse(message) as OccurrenceNotice) : undefined;
}

/**
 * What a host's e-mail of a seated occurrence tells now (contract §16): that it takes place
 * (`created`, a REQUEST) when it has confirmed seats and the host was not told so since it last
 * ended, that it ended (`cancelled`, a CANCEL) when it has none and the host was last told it
 * takes place; otherwise nothing (undefined). `told` is what the notification log says was last
 * sent; `loggedSinceFirstSeat` whether the log reaches back to the occurrence's first seat: when
 * retention removed what was sent before, a REQUEST may have been, and an ended occurrence is
 * cancelled all the same (a CANCEL of an event a calendar does not have changes nothing).
 */
export function occurrenceNews(
  live: boolean,
  told: Extract<NotificationKind, 'created' | 'cancelled'> | undefined,
  loggedSinceFirstSeat = true,
): 'created' | 'cancelled' | undefined {
  if (live) return told === 'created' ? undefined : 'created';
  if (told === undefined && !loggedSinceFirstSeat) return 'cancelled';
  return told === 'created' ? 'cancelled' : undefined;
}

/** The hosts of a booking among `hosts` (an event type's, as the store tells them), as its e-mails name them. */
export function namedHosts(
  hosts: ReadonlyArray<{ holderId: string; name: string; email: string | null }>,
  booking: Pick<Booking, 'hostIds'>,
): BookingEmailContent['hosts'] {
  return hosts.filter((host) => booking.hostIds.includes(host.holderId)).map(({ name, email }) => ({ name, email }));
}
