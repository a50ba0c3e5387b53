import type { Booking } from './booking.js';

/**
 * The iCalendar identity of the appointment a booking belongs to (contract §16): a booking and
 * the bookings it was rescheduled into are one appointment, named after its first booking
 * (`Booking.appointmentId`). Its `UID` is what e-mails, calendar files, the holder's feed and the
 * write-back all use, so a calendar that has the event moves it instead of adding another.
 * Bookings stored before this rule are each an appointment of their own (migration 0022), so
 * they keep the UID they had, `${booking.id}@slotwise`.
 */
export function appointmentUid(booking: Pick<Booking, 'appointmentId'>): string {
  return `${booking.appointmentId}${UID_SUFFIX}`;
}

/**
 * The appointment's `SEQUENCE` as of this booking: how often it was moved before it, one more once
 * it is cancelled or moved on (a moved booking's is its successor's, which replaces it). So a
 * booking stored before this rule keeps its SEQUENCE too: 0 while confirmed, else 1.
 */
export function appointmentSequence(booking: Pick<Booking, 'status' | 'moves'>): number {
  return booking.moves + (booking.status === 'confirmed' ? 0 : 1);
}

/**
 * A seated occurrence (contract §15: the seats of one event type at one start) as its hosts see it:
 * the id its host-side items are named by (`occurrenceUid`).
 */
export interface OccurrenceRef {
  eventTypeId: string;
  start: number;
}

/**
 * The iCalendar identity of a seated occurrence on its hosts' side (contract §16: the feed, the
 * write-back and the host e-mails show it once): made from its event type and start alone, so
 * it stays the same whichever seats come and go, and every writer names it alike without reading
 * anything. Each guest's items stay under the guest's own appointment UID.
 */
export function occurrenceUid(occurrence: OccurrenceRef): string {
  return `${occurrenceId(occurrence)}${UID_SUFFIX}`;
}

function occurrenceId({ eventTypeId, start }: OccurrenceRef): string {
  return `${eventTypeId}.${start}`;
}

/**
 * A seated occurrence's `SEQUENCE` on its hosts' side, from its seats of that host: with `departed`
 * of them no longer confirmed (cancelled, or moved away), `2 × departed` while any seat is
 * confirmed, one less once none is. A seat leaving or the occurrence ending never lowers it, and
 * the occurrence booked again after it ended is told with a higher one than its cancellation.
 * A guest joining keeps it: calendars take an update of the same SEQUENCE with a later DTSTAMP.
 */
export function occurrenceSequence(seats: { departed: number; confirmed: number }): number {
  return Math.max(0, 2 * seats.departed - (seats.confirmed > 0 ? 0 : 1));
}

const UID_SUFFIX = '@slotwise';
const SLOTWISE_UID = /^(bkg_[0-9a-z]{1,64}|evt_[0-9a-z]{1,64}\.[0-9]{1,16})@slotwise$/;
const OCCURRENCE_ID = /^(evt_[0-9a-z]{1,64})\.([0-9]{1,16})$/;

/**
 * What a calendar event's UID names, if it has the form of a Slotwise UID: an appointment's id
 * (`appointmentUid`), or a seated occurrence's (`occurrenceUid`, read by `occurrenceOfId`).
 * Whether it is one of this instance, and of which holder, only the store knows.
 */
export function appointmentIdOfUid(uid: string): string | undefined {
  return SLOTWISE_UID.exec(uid)?.[1];
}

/** The seated occurrence an id of `appointmentIdOfUid` names; undefined for an appointment's id. */
export function occurrenceOfId(id: string): OccurrenceRef | undefined {
  const match = OCCURRENCE_ID.exec(id);
  return match ? { eventTypeId: match[1]!, start: Number(match[2]) } : undefined;
}

/**
 * The latest of each appointment's bookings among `bookings` (the one moved most often), in the
 * order of `bookings`: what a calendar shows of an appointment, once.
 */
export function latestOfAppointments<T extends Pick<Booking, 'appointmentId' | 'moves'>>(bookings: readonly T[]): T[] {
  const latest = new Map<string, T>();
  for (const booking of bookings) {
    const seen = latest.get(booking.appointmentId);
    if (seen === undefined || booking.moves > seen.moves) latest.set(booking.appointmentId, booking);
  }
  return bookings.filter((booking) => latest.get(booking.appointmentId) === booking);
}
