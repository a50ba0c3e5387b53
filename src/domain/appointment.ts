import type { Booking } from './booking.js';

/**
 * The iCalendar identity of the appointment a booking belongs to (contract §16): its `UID`, which
 * e-mails, calendar files, the holder's feed and the write-back all use, and its `SEQUENCE`, which
 * tells a calendar that already has the event that this version replaces the one it holds.
 */
export function appointmentUid(booking: Pick<Booking, 'id'>): string {
  return `${booking.id}@slotwise`;
}

/** A booking still taking place is the appointment's first version; a cancelled or moved one replaces it. */
export function appointmentSequence(booking: Pick<Booking, 'status'>): number {
  return booking.status === 'confirmed' ? 0 : 1;
}
