// Contract §4 (booking fields) and §6 (moves): only a confirmed booking can be cancelled or
// rescheduled; anything else is 409 invalid-state.
import { describe, expect, it } from 'vitest';
import {
  assertReschedulable,
  withCancellation,
  markRescheduled,
  confirmedBooking,
  timeOf,
  occupancyOf,
  type Booking,
  type BookingDetails,
} from '../../src/domain/booking.js';
import { DomainError } from '../../src/domain/errors.js';
import type { EventType } from '../../src/domain/event-type.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0);
const START = Date.UTC(2026, 0, 5, 9, 0);
const LATER = Date.UTC(2026, 0, 2, 8, 0);

const eventType: EventType = {
  id: 'evt_1',
  holderId: 'hld_1',
  title: 'Intro',
  slug: 'intro',
  description: null,
  explicitSlotIntervalMinutes: null,
  scheduleId: null,
  seats: null,
  location: null,
  reminders: [],
  notifications: { guest: true, hosts: true },
  durationMinutes: 45,
  slotIntervalMinutes: 45,
  bufferBeforeMinutes: 10,
  bufferAfterMinutes: 15,
  minimumNoticeMinutes: 0,
  bookingWindowDays: null,
  maxBookingsPerDay: null,
  public: false,
  questions: [],
  createdAt: T0,
  updatedAt: T0,
};

const guest: BookingDetails = {
  guestName: 'Ada',
  guestEmail: 'ada@example.com',
  guestTimeZone: 'Europe/Berlin',
  guestLanguage: 'en',
  notes: null,
  answers: {},
  metadata: {},
  source: 'api',
  location: null,
};

function confirmed(): Booking {
  return confirmedBooking('bkg_1', timeOf(eventType, START), guest, T0);
}

function expectInvalidState(action: () => unknown): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DomainError);
  expect((thrown as DomainError).code).toBe('invalid-state');
}

describe('confirmedBooking of timeOf, and occupancyOf', () => {
  it('when a booking is made, then it is confirmed, ends start + duration and keeps the buffers it was booked with', () => {
    const booking = confirmed();
    expect(booking).toMatchObject({
      id: 'bkg_1',
      holderId: 'hld_1',
      eventTypeId: 'evt_1',
      status: 'confirmed',
      start: START,
      end: Date.UTC(2026, 0, 5, 9, 45),
      bufferBeforeMinutes: 10,
      bufferAfterMinutes: 15,
      cancellationReason: null,
      cancelledAt: null,
      rescheduledFromId: null,
      rescheduledToId: null,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it('when the event type’s buffers change later, then the booking still occupies with its own buffers', () => {
    const booking = confirmed();
    expect(occupancyOf(booking)).toEqual({
      eventTypeId: 'evt_1',
      start: START,
      occupiedStart: Date.UTC(2026, 0, 5, 8, 50),
      occupiedEnd: Date.UTC(2026, 0, 5, 10, 0),
    });
    const retuned = confirmedBooking('bkg_2', timeOf({ ...eventType, bufferAfterMinutes: 0 }, START), guest, T0);
    expect(occupancyOf(booking).occupiedEnd).toBe(Date.UTC(2026, 0, 5, 10, 0));
    expect(occupancyOf(retuned).occupiedEnd).toBe(Date.UTC(2026, 0, 5, 9, 45));
  });

  it('when a booking replaces another, then it records rescheduledFromId and is the next booking of that one’s appointment', () => {
    const first = confirmedBooking('bkg_1', timeOf(eventType, START), guest, T0);
    expect(first).toMatchObject({ rescheduledFromId: null, appointmentId: 'bkg_1', moves: 0 });
    const second = confirmedBooking('bkg_2', timeOf(eventType, START), guest, T0, first);
    expect(second).toMatchObject({ rescheduledFromId: 'bkg_1', appointmentId: 'bkg_1', moves: 1 });
    const third = confirmedBooking('bkg_3', timeOf(eventType, START), guest, T0, second);
    expect(third).toMatchObject({ rescheduledFromId: 'bkg_2', appointmentId: 'bkg_1', moves: 2 });
  });
});

describe('withCancellation', () => {
  it('when a confirmed booking is cancelled, then it is cancelled with reason and time, and the original is untouched', () => {
    const original = confirmed();
    const cancelled = withCancellation(original, 'ill', LATER);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'ill',
      cancelledAt: LATER,
      updatedAt: LATER,
    });
    expect(cancelled.start).toBe(START);
    expect(original.status).toBe('confirmed');
  });

  it('when no reason is given, then cancellationReason is null', () => {
    expect(withCancellation(confirmed(), null, LATER).cancellationReason).toBeNull();
  });

  it('when the booking is already cancelled, then cancelling again fails with invalid-state', () => {
    const cancelled = withCancellation(confirmed(), null, LATER);
    expectInvalidState(() => withCancellation(cancelled, null, LATER));
  });

  it('when the booking was rescheduled, then cancelling it fails with invalid-state', () => {
    const moved = markRescheduled(confirmed(), 'bkg_2', null, LATER);
    expectInvalidState(() => withCancellation(moved, null, LATER));
  });
});

describe('markRescheduled and assertReschedulable', () => {
  it('when a confirmed booking is rescheduled, then it points to its replacement and keeps its times', () => {
    const moved = markRescheduled(confirmed(), 'bkg_2', 'clash', LATER);
    expect(moved).toMatchObject({
      status: 'rescheduled',
      rescheduledToId: 'bkg_2',
      cancellationReason: 'clash',
      updatedAt: LATER,
      start: START,
    });
    expect(() => assertReschedulable(confirmed())).not.toThrow();
  });

  it.each([
    ['cancelled', () => withCancellation(confirmed(), null, LATER)],
    ['rescheduled', () => markRescheduled(confirmed(), 'bkg_2', null, LATER)],
  ] as const)('when the booking is %s, then rescheduling fails with invalid-state', (_status, make) => {
    const booking = make();
    expectInvalidState(() => markRescheduled(booking, 'bkg_3', null, LATER));
    expectInvalidState(() => assertReschedulable(booking));
  });
});
