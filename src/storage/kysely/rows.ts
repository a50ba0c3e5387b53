import type { Selectable } from 'kysely';
import type { ApiKey, Scope } from '../../domain/api-key.js';
import {
  confirmedBooking,
  occupancyOf,
  type Booking,
  type BookingDetails,
  type BookingSource,
  type BookingStatus,
  type GuestLanguage,
  type Metadata,
} from '../../domain/booking.js';
import type { Answers, Question } from '../../domain/questions.js';
import type { Location } from '../../domain/location.js';
import type { Reminder } from '../../domain/reminders.js';
import type { EventType, EventTypeSettings } from '../../domain/event-type.js';
import type { Assignment, TeamEventType, TeamHost } from '../../domain/team-event-type.js';
import type { Schedule } from '../../domain/schedule.js';
import { sourceOf, type Hold } from '../../domain/hold.js';
import type { StoredOccupancy } from '../../app/ports/store.js';
import type { Webhook, WebhookEventType } from '../../domain/webhook.js';
import type { Database } from '../schema.js';
import type { JudgedOccupancyRow, OccupancyRow } from './engine-traits.js';

// Rows ↔ records: the one place where the columns of a table meet the fields of a domain record.

export function toApiKey(row: {
  id: string;
  account_id: string;
  holder_id: string | null;
  scopes: string;
  description: string | null;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}): ApiKey {
  return {
    id: row.id,
    accountId: row.account_id,
    holderId: row.holder_id,
    scopes: row.scopes.split(',') as Scope[],
    description: row.description,
    createdAt: Number(row.created_at),
    expiresAt: nullableNumber(row.expires_at),
    revokedAt: nullableNumber(row.revoked_at),
  };
}

export function toOccupancies(rows: OccupancyRow[], excludeBookingId: string | undefined): StoredOccupancy[] {
  const occupancies: StoredOccupancy[] = [];
  for (const row of rows) if (row.id !== excludeBookingId) occupancies.push(toOccupancy(row));
  return occupancies;
}

/** A decision's occupancies as read (`EngineTraits.occupanciesOverlapping`): an occurrence's live seats come as one, with their count and numbers. */
export function toJudgedOccupancies(rows: JudgedOccupancyRow[]): StoredOccupancy[] {
  return rows.map((row) => {
    const occupancy = toOccupancy(row);
    if (row.occurrence === null) return occupancy;
    const numbers = row.seat_numbers === null ? [] : row.seat_numbers.split(',').map(Number);
    return { ...occupancy, seats: Number(row.seats), seatNumbers: numbers };
  });
}

function toOccupancy(row: OccupancyRow): StoredOccupancy {
  return {
    id: row.id,
    eventTypeId: row.event_type_id,
    start: Number(row.start_at),
    occupiedStart: Number(row.occupied_start),
    occupiedEnd: Number(row.occupied_end),
    expiresAt: nullableNumber(row.expires_at),
    occurrence: row.occurrence,
    seat: nullableNumber(row.seat),
  };
}

export function nullableNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

/** The columns every event type has, personal or team. */
function toSettings(row: Selectable<Database['event_types']>): EventTypeSettings {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    durationMinutes: row.duration_minutes,
    explicitSlotIntervalMinutes: row.slot_interval_minutes,
    scheduleId: row.schedule_id,
    seats: row.seats,
    location: toLocation(row.location),
    reminders: JSON.parse(row.reminders) as Reminder[],
    notifications: { guest: Boolean(row.notify_guest), hosts: Boolean(row.notify_hosts) },
    slotIntervalMinutes: row.slot_interval_minutes ?? row.duration_minutes,
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    minimumNoticeMinutes: row.minimum_notice_minutes,
    bookingWindowDays: row.booking_window_days,
    maxBookingsPerDay: row.max_bookings_per_day,
    public: Boolean(row.public),
    questions: JSON.parse(row.questions) as Question[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** A holder's own event type; a team type's row here is a query that forgot `holder_id`. */
export function toEventType(row: Selectable<Database['event_types']>): EventType {
  if (row.holder_id === null) throw new Error(`event type ${row.id} is a team event type, read as a holder's own`);
  return { ...toSettings(row), holderId: row.holder_id };
}

export function toTeamEventType(row: Selectable<Database['event_types']>, hosts: TeamHost[]): TeamEventType {
  if (row.holder_id !== null || row.assignment === null)
    throw new Error(`event type ${row.id} is a holder's own, read as a team event type`);
  return {
    ...toSettings(row),
    holderId: null,
    accountId: row.account_id,
    assignment: row.assignment as Assignment,
    hosts,
  };
}

function settingsRow(eventType: EventTypeSettings) {
  return {
    id: eventType.id,
    title: eventType.title,
    slug: eventType.slug,
    description: eventType.description,
    duration_minutes: eventType.durationMinutes,
    slot_interval_minutes: eventType.explicitSlotIntervalMinutes,
    schedule_id: eventType.scheduleId,
    seats: eventType.seats,
    location: locationText(eventType.location),
    reminders: JSON.stringify(eventType.reminders),
    notify_guest: eventType.notifications.guest ? 1 : 0,
    notify_hosts: eventType.notifications.hosts ? 1 : 0,
    buffer_before_minutes: eventType.bufferBeforeMinutes,
    buffer_after_minutes: eventType.bufferAfterMinutes,
    minimum_notice_minutes: eventType.minimumNoticeMinutes,
    booking_window_days: eventType.bookingWindowDays,
    max_bookings_per_day: eventType.maxBookingsPerDay,
    public: eventType.public ? 1 : 0,
    questions: JSON.stringify(eventType.questions),
    created_at: eventType.createdAt,
    updated_at: eventType.updatedAt,
  };
}

/** The columns of a holder's own event type that it changes (its account is its holder's). */
export function eventTypeRow(eventType: EventType) {
  return { ...settingsRow(eventType), holder_id: eventType.holderId };
}

export function teamEventTypeRow(eventType: TeamEventType) {
  return {
    ...settingsRow(eventType),
    account_id: eventType.accountId,
    holder_id: null,
    assignment: eventType.assignment,
  };
}

export function toTeamHost(row: Selectable<Database['event_type_hosts']>): TeamHost {
  return {
    holderId: row.holder_id,
    scheduleId: row.schedule_id,
    fixed: Boolean(row.fixed),
    priority: row.priority,
    weight: row.weight,
  };
}

export function teamHostRows(eventType: TeamEventType): Array<Database['event_type_hosts']> {
  return eventType.hosts.map((host, position) => ({
    event_type_id: eventType.id,
    holder_id: host.holderId,
    schedule_id: host.scheduleId,
    fixed: host.fixed ? 1 : 0,
    priority: host.priority,
    weight: host.weight,
    position,
  }));
}

export function toBooking(row: Selectable<Database['bookings']>): Booking {
  return {
    id: row.id,
    holderId: row.holder_id,
    hostIds: JSON.parse(row.host_ids) as string[],
    eventTypeId: row.event_type_id,
    start: Number(row.start_at),
    end: Number(row.end_at),
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    status: row.status as BookingStatus,
    guestName: row.guest_name,
    guestEmail: row.guest_email,
    guestTimeZone: row.guest_time_zone,
    guestLanguage: row.guest_language as GuestLanguage,
    notes: row.notes,
    cancellationReason: row.cancellation_reason,
    cancelledAt: nullableNumber(row.cancelled_at),
    rescheduledFromId: row.rescheduled_from_id,
    rescheduledToId: row.rescheduled_to_id,
    appointmentId: row.appointment_id,
    moves: row.appointment_moves,
    answers: JSON.parse(row.answers) as Answers,
    metadata: JSON.parse(row.metadata) as Metadata,
    source: row.source as BookingSource,
    location: toLocation(row.location),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** A booking's row but its account, which the insert reads from the holder (`insertOccupyingRow`). */
export type BookingRow = Omit<Database['bookings'], 'account_id'>;

export function bookingRow(booking: Booking): BookingRow {
  const occupancy = occupancyOf(booking);
  return {
    id: booking.id,
    holder_id: booking.holderId,
    host_ids: JSON.stringify(booking.hostIds),
    event_type_id: booking.eventTypeId,
    start_at: booking.start,
    end_at: booking.end,
    occupied_start: occupancy.occupiedStart,
    occupied_end: occupancy.occupiedEnd,
    buffer_before_minutes: booking.bufferBeforeMinutes,
    buffer_after_minutes: booking.bufferAfterMinutes,
    status: booking.status,
    guest_name: booking.guestName,
    guest_email: booking.guestEmail,
    guest_time_zone: booking.guestTimeZone,
    guest_language: booking.guestLanguage,
    notes: booking.notes,
    cancellation_reason: booking.cancellationReason,
    cancelled_at: booking.cancelledAt,
    rescheduled_from_id: booking.rescheduledFromId,
    rescheduled_to_id: booking.rescheduledToId,
    appointment_id: booking.appointmentId,
    appointment_moves: booking.moves,
    created_at: booking.createdAt,
    updated_at: booking.updatedAt,
    expires_at: null,
    answers: JSON.stringify(booking.answers),
    metadata: JSON.stringify(booking.metadata),
    source: booking.source,
    page_session: null,
    page_client: null,
    location: locationText(booking.location),
  };
}

/** The status of a hold's row: holds share the bookings table (migration 0006 says why). */
export const HELD = 'held';

/** A hold as a row of `bookings`: a booking's row with no guest yet (empty text in its columns). */
export function holdRow(hold: Hold): BookingRow {
  const noGuest: BookingDetails = {
    guestName: '',
    guestEmail: '',
    guestTimeZone: null,
    guestLanguage: 'en',
    notes: null,
    answers: {},
    metadata: {},
    source: sourceOf(hold),
    location: null,
  };
  return {
    ...bookingRow(confirmedBooking(hold.id, hold, noGuest, hold.createdAt)),
    status: HELD,
    expires_at: hold.expiresAt,
    page_session: hold.page?.session ?? null,
    page_client: hold.page?.client ?? null,
  };
}

export function toHold(row: Selectable<Database['bookings']>): Hold {
  return {
    id: row.id,
    holderId: row.holder_id,
    hostIds: JSON.parse(row.host_ids) as string[],
    eventTypeId: row.event_type_id,
    start: Number(row.start_at),
    end: Number(row.end_at),
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    expiresAt: Number(row.expires_at),
    createdAt: Number(row.created_at),
    // Rows of holds made before clients were recorded (migration 0010) count as their own client.
    page: row.page_session === null ? null : { session: row.page_session, client: row.page_client ?? row.page_session },
  };
}

export function toWebhook(row: Selectable<Database['webhooks']>): Webhook {
  return {
    id: row.id,
    accountId: row.account_id,
    holderId: row.holder_id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    description: row.description,
    active: Boolean(row.active),
    secret: row.secret,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function toSchedule(row: Selectable<Database['schedules']>): Schedule {
  return {
    id: row.id,
    holderId: row.holder_id,
    name: row.name,
    timeZone: row.time_zone,
    weekly: JSON.parse(row.weekly),
    overrides: JSON.parse(row.overrides),
    isDefault: Boolean(row.is_default),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function scheduleRow(schedule: Schedule) {
  return {
    id: schedule.id,
    holder_id: schedule.holderId,
    name: schedule.name,
    time_zone: schedule.timeZone,
    weekly: JSON.stringify(schedule.weekly),
    overrides: JSON.stringify(schedule.overrides),
    is_default: schedule.isDefault ? 1 : 0,
    created_at: schedule.createdAt,
    updated_at: schedule.updatedAt,
  };
}

/** An event type's or booking's `location` column: JSON, or null for none. */
function toLocation(text: string | null): Location | null {
  return text === null ? null : (JSON.parse(text) as Location);
}

function locationText(location: Location | null): string | null {
  return location === null ? null : JSON.stringify(location);
}
