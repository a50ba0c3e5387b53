// Domain records written straight through the store's ports by the storage suites.
import { IdGenerator, type IdPrefix } from '../../src/app/ids.js';
import type { Booking, BookingStatus } from '../../src/domain/booking.js';
import type { EventType } from '../../src/domain/event-type.js';
import { teamHostOf, type TeamEventType } from '../../src/domain/team-event-type.js';

export const at = (iso: string): number => Date.parse(iso);

const ids = new IdGenerator();
export const newId = (prefix: IdPrefix): string => ids.newId(prefix);

/** A 30-minute event type with no buffers or limits; its slug is unique (derived from its id). */
export function eventTypeRecord(holderId: string, createdAt: number, fields: Partial<EventType> = {}): EventType {
  const id = fields.id ?? newId('evt');
  return {
    id,
    holderId,
    title: 'Intro call',
    slug: `intro-${id.slice(4, 12)}`,
    description: null,
    durationMinutes: 30,
    explicitSlotIntervalMinutes: null,
    slotIntervalMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    minimumNoticeMinutes: 0,
    bookingWindowDays: null,
    maxBookingsPerDay: null,
    public: false,
    questions: [],
    createdAt,
    updatedAt: createdAt,
    ...fields,
  };
}

/** A round-robin team event type of the account with these hosts (defaults filled), otherwise as `eventTypeRecord`. */
export function teamEventTypeRecord(
  accountId: string,
  hostIds: readonly string[],
  createdAt: number,
  fields: Partial<TeamEventType> = {},
): TeamEventType {
  const { holderId: _personal, ...settings } = eventTypeRecord('', createdAt, fields.id ? { id: fields.id } : {});
  return {
    ...settings,
    slug: `team-${settings.id.slice(4, 12)}`,
    holderId: null,
    accountId,
    assignment: 'round-robin',
    hosts: hostIds.map((holderId) => teamHostOf({ holderId })),
    ...fields,
  };
}

export interface BookingFields {
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
  status?: BookingStatus;
  createdAt?: number;
}

/** A booking of `eventType` from `start` to `end` (ISO); a cancelled one was cancelled when created. */
export function bookingRecord(
  eventType: EventType,
  start: string,
  end: string,
  fields: BookingFields & { createdAt: number },
): Booking {
  const status = fields.status ?? 'confirmed';
  return {
    id: newId('bkg'),
    holderId: eventType.holderId,
    hostIds: [eventType.holderId],
    eventTypeId: eventType.id,
    start: at(start),
    end: at(end),
    bufferBeforeMinutes: fields.bufferBeforeMinutes ?? 0,
    bufferAfterMinutes: fields.bufferAfterMinutes ?? 0,
    status,
    guestName: 'Ada Lovelace',
    guestEmail: 'ada@example.com',
    guestTimeZone: null,
    notes: null,
    cancellationReason: null,
    cancelledAt: status === 'cancelled' ? fields.createdAt : null,
    rescheduledFromId: null,
    rescheduledToId: null,
    answers: {},
    metadata: {},
    source: 'api',
    createdAt: fields.createdAt,
    updatedAt: fields.createdAt,
  };
}
