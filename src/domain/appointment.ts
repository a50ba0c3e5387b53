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

const UID_SUFFIX = '@slotwise';
const APPOINTMENT_UID = /^(bkg_[0-9a-z]{1,64})@slotwise$/;

/**
 * The appointment id a calendar event's UID names, if it has the form of one; whether it is an
 * appointment of this instance, and of which holder, only the store knows.
 */
export function appointmentIdOfUid(uid: string): string | undefined {
  return APPOINTMENT_UID.exec(uid)?.[1];
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
