// A booking e-mail's input as the worker would give it: Ada's intro call with Grace, by a link.
import type { Booking } from '../../src/domain/booking.js';
import type { BookingEmailInput } from '../../src/worker/booking-email.js';

export const START = Date.parse('2026-01-05T09:00:00Z');

export function emailBooking(fields: Partial<Booking> = {}): Booking {
  return {
    id: 'bkg_1',
    holderId: 'hdr_1',
    hostIds: ['hdr_1'],
    eventTypeId: 'evt_1',
    start: START,
    end: START + 30 * 60_000,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    status: 'confirmed',
    guestName: 'Grace Hopper',
    guestEmail: 'grace@example.com',
    guestTimeZone: 'America/New_York',
    guestLanguage: 'en',
    notes: 'About the compiler',
    cancellationReason: null,
    cancelledAt: null,
    rescheduledFromId: null,
    rescheduledToId: null,
    appointmentId: 'bkg_1',
    moves: 0,
    answers: { topic: 'COBOL' },
    metadata: {},
    source: 'page',
    location: { type: 'link', value: 'https://meet.example.com/ada' },
    createdAt: START - 86_400_000,
    updatedAt: START - 86_400_000,
    ...fields,
  };
}

export function emailInput(fields: Partial<BookingEmailInput> = {}): BookingEmailInput {
  return {
    kind: 'created',
    booking: emailBooking(),
    title: 'Intro call',
    hosts: [{ name: 'Ada Lovelace', email: 'ada@example.com' }],
    recipient: {
      role: 'guest',
      name: 'Grace Hopper',
      email: 'grace@example.com',
      zone: 'America/New_York',
      locale: 'en',
    },
    from: 'Acme <book@acme.example>',
    manageUrl: 'https://slotwise.example/manage/bkg_1.token',
    uid: 'bkg_1@slotwise',
    sequence: 0,
    messageId: '<ntf_1@acme.example>',
    ...fields,
  };
}
