import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { AvailabilityBody, AvailabilityResource } from './availability.js';
import {
  BookingResource,
  CancelBookingBody,
  CreateBookingBody,
  RescheduleBookingBody,
  UpdateBookingBody,
} from './bookings.js';
import {
  BusyResource,
  CalendarSourceResource,
  CreateCalendarSourceBody,
  UpdateCalendarSourceBody,
} from './calendar-sources.js';
import { InstantInput, MeetingLocation, ProblemDocument } from './common.js';
import { CreateEventTypeBody, EventTypeResource, UpdateEventTypeBody } from './event-types.js';
import { CreateHoldBody, HoldResource } from './holds.js';
import { NotificationResource } from './notifications.js';
import { ScheduleBody, ScheduleResource } from './schedules.js';
import {
  CreatedHolderKeyResource,
  CreateHolderBody,
  CreateHolderKeyBody,
  HolderKeyResource,
  HolderResource,
  UpdateHolderBody,
} from './holders.js';
import { AccountMeResource, HolderMeResource, MeResource, UpdateMeBody } from './me.js';
import {
  CreatedWebhookResource,
  CreateWebhookBody,
  DeliveryResource,
  UpdateWebhookBody,
  WebhookResource,
} from './webhooks.js';

// The API's schemas, one file per resource; common.ts holds what they share (and says how `$id`s
// and `ref(...)` work). Routes import from here.
export * from './availability.js';
export * from './bookings.js';
export * from './calendar-sources.js';
export * from './common.js';
export * from './event-types.js';
export * from './holders.js';
export * from './holds.js';
export * from './me.js';
export * from './notifications.js';
export * from './schedules.js';
export * from './slots.js';
export * from './webhooks.js';

/** Every schema with an `$id`, in the order the OpenAPI document lists them. */
export const SHARED_SCHEMAS: readonly TSchema[] = [
  ProblemDocument,
  MeetingLocation,
  EventTypeResource,
  CreateEventTypeBody,
  UpdateEventTypeBody,
  AvailabilityResource,
  AvailabilityBody,
  ScheduleResource,
  ScheduleBody,
  BookingResource,
  CreateBookingBody,
  UpdateBookingBody,
  CancelBookingBody,
  RescheduleBookingBody,
  NotificationResource,
  HoldResource,
  CreateHoldBody,
  UpdateMeBody,
  HolderMeResource,
  AccountMeResource,
  MeResource,
  HolderResource,
  CreateHolderBody,
  UpdateHolderBody,
  HolderKeyResource,
  CreatedHolderKeyResource,
  CreateHolderKeyBody,
  InstantInput,
  WebhookResource,
  CreatedWebhookResource,
  CreateWebhookBody,
  UpdateWebhookBody,
  DeliveryResource,
  CalendarSourceResource,
  CreateCalendarSourceBody,
  UpdateCalendarSourceBody,
  BusyResource,
];

/**
 * Adds the shared schemas to the app (`app.addSchema`), for the serializer and the OpenAPI
 * document; call once, before any route refers to them. The validator knows them already
 * (src/http/validation.ts).
 */
export function registerSharedSchemas(app: FastifyInstance): void {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
}
