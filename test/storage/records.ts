// Domain records written straight through the store's ports by the storage suites.
import { IdGenerator, type IdPrefix } from '../../src/app/ids.js';
import type { Booking, BookingStatus } from '../../src/domain/booking.js';
import type { NewHolder } from '../../src/domain/api-key.js';
import type { EventType } from '../../src/domain/event-type.js';
import { teamHostOf, type TeamEventType } from '../../src/domain/team-event-type.js';
import { newDefaultSchedule, type Schedule } from '../../src/domain/schedule.js';

export const at = (iso: string): number => Date.parse(iso);

const ids = new IdGenerator();
export const newId = (prefix: IdPrefix): string => ids.newId(prefix);

/** What `holders.ensure` takes for a new holder: as `keys create` makes it, with its default schedule (Mon–Fri 09:00–17:00 UTC). */
export function newHolder(accountId: string, name: string, createdAt: number): [NewHolder, Schedule] {
  const id = newId('hdr');
  return [{ id, accountId, name, createdAt }, newDefaultSchedule(newId('sch'), id, 'UTC', createdAt)];
}

/** A schedule that is not the default: Mon–Fri 09:00–12:00 in Europe/Berlin, named "Mornings". */
export function scheduleRecord(holderId: string, createdAt: number, fields: Partial<Schedule> = {}): Schedule {
  const mornings = [{ start: '09:00', end: '12:00' }];
  return {
    id: newId('sch'),
    holderId,
    name: 'Mornings',
    timeZone: 'Europe/Berlin',
    weekly: {
      monday: mornings,
      tuesday: mornings,
      wednesday: mornings,
      thursday: mornings,
      friday: mornings,
      saturday: [],
      sunday: [],
    },
    overrides: [],
    isDefault: false,
    createdAt,
    updatedAt: createdAt,
    ...fields,
  };
}

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
    scheduleId: null,
    seats: null,
    location: null,
    reminders: [],
    notifications: { guest: true, hosts: true },
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
  const id = newId('bkg');
  return {
    id,
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
    guestLanguage: 'en',
    notes: null,
    cancellationReason: null,
    cancelledAt: status === 'cancelled' ? fields.createdAt : null,
    rescheduledFromId: null,
    rescheduledToId: null,
    appointmentId: id,
    moves: 0,
    answers: {},
    metadata: {},
    source: 'api',
    location: null,
    createdAt: fields.createdAt,
    updatedAt: fields.createdAt,
  };
}
