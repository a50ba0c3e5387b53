import { grants, type Holder } from '../domain/api-key.js';
import type { Booking } from '../domain/booking.js';
import type { CalendarSource, SourceBusy } from '../domain/calendar-source.js';
import { sourceOf, type Hold } from '../domain/hold.js';
import { formatUtc } from '../domain/instant.js';
import type { Notification } from '../domain/notification.js';
import type { Schedule } from '../domain/schedule.js';
import type { Delivery, Webhook } from '../domain/webhook.js';
import type { Caller } from './context.js';
import type { GuestLinks } from './guest-links.js';
import type { ListedEventType } from './ports/store.js';

/** The client-visible shapes: one place, shared by HTTP responses and webhook payloads. */

/**
 * An event type as the API shows it, a holder's own or a team's (contract §14): with the booking
 * page's link when it is public (under the holder's handle, or a team's under its account's).
 */
export function eventTypeView(eventType: ListedEventType, links: GuestLinks) {
  const team = eventType.holderId === null ? eventType : null;
  let bookingPageUrl: string | null = null;
  if (eventType.public)
    bookingPageUrl =
      eventType.holderId === null
        ? links.teamBookingPage(eventType.accountHandle, eventType.slug)
        : links.bookingPage(eventType.holderHandle, eventType.slug);
  return {
    id: eventType.id,
    holderId: eventType.holderId,
    title: eventType.title,
    slug: eventType.slug,
    description: eventType.description,
    durationMinutes: eventType.durationMinutes,
    slotIntervalMinutes: eventType.slotIntervalMinutes,
    bufferBeforeMinutes: eventType.bufferBeforeMinutes,
    bufferAfterMinutes: eventType.bufferAfterMinutes,
    minimumNoticeMinutes: eventType.minimumNoticeMinutes,
    bookingWindowDays: eventType.bookingWindowDays,
    maxBookingsPerDay: eventType.maxBookingsPerDay,
    scheduleId: eventType.scheduleId,
    seats: eventType.seats,
    location: eventType.location,
    reminders: eventType.reminders,
    notifications: eventType.notifications,
    public: eventType.public,
    questions: eventType.questions,
    assignment: team?.assignment ?? null,
    hosts: team?.hosts ?? null,
    bookingPageUrl,
    createdAt: formatUtc(eventType.createdAt),
    updatedAt: formatUtc(eventType.updatedAt),
  };
}

/** A notification as the booking's log shows it (contract §16). */
export function notificationView(notification: Notification) {
  return {
    id: notification.id,
    channel: notification.channel,
    kind: notification.kind,
    recipient: notification.recipient,
    status: notification.status,
    attempts: notification.attempts,
    lastError: notification.lastError,
    sentAt: notification.sentAt === null ? null : formatUtc(notification.sentAt),
  };
}

export function holdView(hold: Hold) {
  return {
    id: hold.id,
    holderId: hold.holderId,
    hostIds: hold.hostIds,
    eventTypeId: hold.eventTypeId,
    start: formatUtc(hold.start),
    end: formatUtc(hold.end),
    expiresAt: formatUtc(hold.expiresAt),
    source: sourceOf(hold),
    createdAt: formatUtc(hold.createdAt),
  };
}

export function bookingView(booking: Booking) {
  return {
    id: booking.id,
    holderId: booking.holderId,
    hostIds: booking.hostIds,
    eventTypeId: booking.eventTypeId,
    start: formatUtc(booking.start),
    end: formatUtc(booking.end),
    status: booking.status,
    guestName: booking.guestName,
    guestEmail: booking.guestEmail,
    guestTimeZone: booking.guestTimeZone,
    guestLanguage: booking.guestLanguage,
    notes: booking.notes,
    cancellationReason: booking.cancellationReason,
    cancelledAt: booking.cancelledAt === null ? null : formatUtc(booking.cancelledAt),
    rescheduledFromId: booking.rescheduledFromId,
    rescheduledToId: booking.rescheduledToId,
    answers: booking.answers,
    metadata: booking.metadata,
    source: booking.source,
    location: booking.location,
    createdAt: formatUtc(booking.createdAt),
    updatedAt: formatUtc(booking.updatedAt),
  };
}

/** The guest's capability links of a booking (contract §10): made when shown, never stored. */
export function bookingLinks(bookingId: string, links: GuestLinks) {
  return { manageUrl: links.manage(bookingId), icsUrl: links.ics(bookingId) };
}

/**
 * A booking as an API key sees it: with the guest's links only for a key that may write (a key
 * that may only read must not gain the power to cancel).
 */
export function bookingResponse(booking: Booking, caller: Pick<Caller, 'scopes'>, links: GuestLinks) {
  // Added to the view in place: copying its twenty fields into a new object cost more than the links.
  const view: ReturnType<typeof bookingView> & { manageUrl?: string; icsUrl?: string } = bookingView(booking);
  if (grants(caller.scopes, 'write')) {
    view.manageUrl = links.manage(booking.id);
    view.icsUrl = links.ics(booking.id);
  }
  return view;
}

/** The default schedule as the base specification's availability document (contract §4, §13). */
export function availabilityView(schedule: Schedule) {
  return {
    timeZone: schedule.timeZone,
    weekly: schedule.weekly,
    overrides: schedule.overrides,
    updatedAt: formatUtc(schedule.updatedAt),
  };
}

export function scheduleView(schedule: Schedule) {
  return {
    id: schedule.id,
    name: schedule.name,
    timeZone: schedule.timeZone,
    weekly: schedule.weekly,
    overrides: schedule.overrides,
    default: schedule.isDefault,
    createdAt: formatUtc(schedule.createdAt),
    updatedAt: formatUtc(schedule.updatedAt),
  };
}

export function webhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    holderId: webhook.holderId,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    active: webhook.active,
    createdAt: formatUtc(webhook.createdAt),
    updatedAt: formatUtc(webhook.updatedAt),
  };
}

/** A calendar source as the API and its webhook events show it: never its address's secret part or a password. */
export function calendarSourceView(source: CalendarSource) {
  return {
    id: source.id,
    type: source.type,
    name: source.name,
    url: source.url,
    status: source.status,
    lastSyncedAt: source.lastSyncedAt === null ? null : formatUtc(source.lastSyncedAt),
    lastError: source.lastError,
    writeBookings: source.writeBookings,
    lastWriteError: source.lastWriteError,
    createdAt: formatUtc(source.createdAt),
    updatedAt: formatUtc(source.updatedAt),
  };
}

export function busyView(busy: SourceBusy) {
  return { start: formatUtc(busy.start), end: formatUtc(busy.end), sourceId: busy.sourceId };
}

export function deliveryView(delivery: Delivery) {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    webhookId: delivery.webhookId,
    status: delivery.status,
    attemptCount: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt === null ? null : formatUtc(delivery.nextAttemptAt),
    attempts: delivery.attemptLog.map((attempt) => ({
      attempt: attempt.attempt,
      startedAt: formatUtc(attempt.startedAt),
      durationMs: attempt.durationMs,
      statusCode: attempt.statusCode,
      error: attempt.error,
      responseExcerpt: attempt.responseExcerpt,
    })),
    createdAt: formatUtc(delivery.createdAt),
    updatedAt: formatUtc(delivery.updatedAt),
  };
}

/** `GET /me`: the holder's profile (the feed link only for a key that may write) and the calling key (never the key itself). */
export function meView(caller: Caller, holder: Holder, links: GuestLinks) {
  return {
    holder: {
      id: holder.id,
      name: holder.name,
      handle: holder.handle,
      displayName: holder.displayName ?? holder.name,
      ...(grants(caller.scopes, 'write') ? { calendarFeedUrl: links.feed(holder.id, holder.feedGeneration) } : {}),
    },
    key: {
      id: caller.keyId,
      scopes: caller.scopes,
      createdAt: formatUtc(caller.keyCreatedAt),
      expiresAt: caller.keyExpiresAt === null ? null : formatUtc(caller.keyExpiresAt),
    },
  };
}
