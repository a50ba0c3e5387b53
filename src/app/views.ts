import type { Availability } from '../domain/availability.js';
import type { Booking } from '../domain/booking.js';
import type { EventType } from '../domain/event-type.js';
import type { Hold } from '../domain/hold.js';
import { formatUtc } from '../domain/instant.js';
import type { Delivery, Webhook } from '../domain/webhook.js';
import type { Caller } from './context.js';

/** The client-visible shapes: one place, shared by HTTP responses and webhook payloads. */

export function eventTypeView(eventType: EventType) {
  return {
    id: eventType.id,
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
    createdAt: formatUtc(eventType.createdAt),
    updatedAt: formatUtc(eventType.updatedAt),
  };
}

export function holdView(hold: Hold) {
  return {
    id: hold.id,
    eventTypeId: hold.eventTypeId,
    start: formatUtc(hold.start),
    end: formatUtc(hold.end),
    expiresAt: formatUtc(hold.expiresAt),
    createdAt: formatUtc(hold.createdAt),
  };
}

export function bookingView(booking: Booking) {
  return {
    id: booking.id,
    eventTypeId: booking.eventTypeId,
    start: formatUtc(booking.start),
    end: formatUtc(booking.end),
    status: booking.status,
    guestName: booking.guestName,
    guestEmail: booking.guestEmail,
    guestTimeZone: booking.guestTimeZone,
    notes: booking.notes,
    cancellationReason: booking.cancellationReason,
    cancelledAt: booking.cancelledAt === null ? null : formatUtc(booking.cancelledAt),
    rescheduledFromId: booking.rescheduledFromId,
    rescheduledToId: booking.rescheduledToId,
    createdAt: formatUtc(booking.createdAt),
    updatedAt: formatUtc(booking.updatedAt),
  };
}

export function availabilityView(availability: Availability, updatedAt: number) {
  return { ...availability, updatedAt: formatUtc(updatedAt) };
}

export function webhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    active: webhook.active,
    createdAt: formatUtc(webhook.createdAt),
    updatedAt: formatUtc(webhook.updatedAt),
  };
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

/** Who is calling: the holder and the key in use (never the key itself). */
export function meView(caller: Caller) {
  return {
    holder: { id: caller.holderId, name: caller.holderName },
    key: {
      id: caller.keyId,
      scopes: caller.scopes,
      createdAt: formatUtc(caller.keyCreatedAt),
      expiresAt: caller.keyExpiresAt === null ? null : formatUtc(caller.keyExpiresAt),
    },
  };
}
