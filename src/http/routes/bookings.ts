import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cancelBooking, rescheduleBooking, updateBookingMetadata } from '../../app/booking-changes.js';
import { createBooking, getBooking, listBookings } from '../../app/bookings.js';
import { listBookingNotifications } from '../../app/booking-notifications.js';
import { actorForBooking, actorToChangeBooking, bookerOf, listScopeOf } from '../../app/account-scope.js';
import type { AppContext } from '../../app/context.js';
import { bookingResponse, notificationView } from '../../app/views.js';
import { principalOf } from '../auth.js';
import { listBody, pageRequestOf } from '../paging.js';
import {
  BookingResource,
  CancelBookingBody,
  CreateBookingBody,
  IdParams,
  ListBookingsQuery,
  NotificationList,
  RescheduleBookingBody,
  UpdateBookingBody,
  listOf,
  ref,
} from '../schemas/index.js';

export const bookingRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/bookings',
      {
        schema: {
          operationId: 'listBookings',
          summary: 'List bookings',
          description:
            "Confirmed bookings whose start is in `[from, to)`, ascending by start. `from` defaults to now, `to` to 62 days after `from`. Acting for a holder: its own bookings and the team bookings it hosts (`hostIds`). In account scope (an account key without `Slotwise-Holder`), every booking of the account (deleted holders' too, and the team bookings, `holderId: null`), or what the holder `holderId` names would list.",
          querystring: ListBookingsQuery,
          response: { 200: listOf(ref(BookingResource)) },
        },
      },
      async (request) => {
        const { cursor, limit, holderId, ...range } = request.query;
        const principal = principalOf(request);
        const scope = await listScopeOf(context, principal, holderId);
        const page = await listBookings(context, scope, { ...range, ...pageRequestOf({ cursor, limit }) });
        return listBody(page, (booking) => bookingResponse(booking, principal, context.links));
      },
    );

    app.get(
      '/bookings/:id',
      {
        schema: {
          operationId: 'getBooking',
          summary: 'Get a booking',
          description:
            'One booking of the holder the request acts for, or a team booking it hosts, in any status; in account scope, any booking of the account (a deleted holder’s too, and its team bookings).',
          params: IdParams,
          response: { 200: ref(BookingResource) },
        },
      },
      async (request) => {
        const actor = await actorForBooking(context, principalOf(request), request.params.id);
        return bookingResponse(await getBooking(context, actor, request.params.id), actor, context.links);
      },
    );

    app.get(
      '/bookings/:id/notifications',
      {
        schema: {
          operationId: 'listBookingNotifications',
          summary: "List a booking's notifications",
          description:
            'The e-mails its changes sent or are sending (contract §16), oldest first: one per recipient and change, with how far each got. Seen by whoever sees the booking (`GET /bookings/:id`). Empty when the service sends no e-mail (no `SMTP_URL`). Kept as long as webhook deliveries (`WEBHOOK_RETENTION_DAYS` after they finished).',
          params: IdParams,
          response: { 200: NotificationList },
        },
      },
      async (request) => {
        const actor = await actorForBooking(context, principalOf(request), request.params.id);
        const notifications = await listBookingNotifications(context, actor, request.params.id);
        return { data: notifications.map(notificationView) };
      },
    );

    app.post(
      '/bookings',
      {
        config: SHOWS_GUEST_LINKS,
        schema: {
          operationId: 'createBooking',
          summary: 'Book a slot',
          description:
            'Succeeds exactly when `start` is bookable at this moment (as `GET /slots` would list it); otherwise a 409 `slot-unavailable` says why. Two requests never both get the same time, nor any host two overlapping bookings or holds. With `holdId`, books the live hold’s time as it was reserved (on its hosts) and ends the hold, in one step; a hold that expired, was released or was booked already is a 409 `hold-expired`. In account scope (an account key without `Slotwise-Holder`), books for the holder of the event type (or of the hold), or, for a **team event type**, for the account: a collective type takes every host, a round-robin type every fixed host and one other, the one `hostId` names or else the one the rule chooses (highest `priority`, then lowest load ÷ `weight` over the last 30 days, then booked longest ago, then smallest id); the booking shows `holderId: null` and its `hostIds`.',
          'x-problems': ['slot-unavailable', 'hold-expired'],
          'x-forbidden':
            'the request acts for a host of the team event type it names, which only account scope books (contract §14).',
          body: ref(CreateBookingBody),
          response: { 201: ref(BookingResource) },
        },
      },
      async (request, reply) => {
        const booker = await bookerOf(context, principalOf(request), request.body);
        const booking = await createBooking(context, booker, request.body);
        return reply
          .code(201)
          .header('location', `/api/v1/bookings/${booking.id}`)
          .send(bookingResponse(booking, booker, context.links));
      },
    );

    app.post(
      '/bookings/:id/cancel',
      {
        config: SHOWS_GUEST_LINKS,
        schema: {
          operationId: 'cancelBooking',
          summary: 'Cancel a booking',
          description:
            'Cancels a `confirmed` booking (a host may cancel a team booking it hosts); the body (and `reason`) may be omitted. Any other status, or a booking of a deleted holder, is a 409 `invalid-state`.',
          'x-problems': ['invalid-state'],
          params: IdParams,
          body: ref(CancelBookingBody),
          response: { 200: ref(BookingResource) },
        },
        // The contract allows cancelling with no body at all.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => {
        const actor = await actorToChangeBooking(context, principalOf(request), request.params.id);
        const booking = await cancelBooking(context, actor, request.params.id, request.body.reason ?? null);
        return bookingResponse(booking, actor, context.links);
      },
    );

    app.post(
      '/bookings/:id/reschedule',
      {
        config: SHOWS_GUEST_LINKS,
        schema: {
          operationId: 'rescheduleBooking',
          summary: 'Reschedule a booking',
          description:
            'Creates a new `confirmed` booking at `start` (with `rescheduledFromId`) and marks the old one `rescheduled` (with `rescheduledToId`), in one transaction. The new start is judged as if the old booking were gone. A team booking keeps its hosts when they are all free at the new start; a round-robin one whose hosts are not gets the type’s fixed hosts and another by the rule, or with `hostId` that host (also at the same start: a reassignment); a 409 `slot-unavailable` only when no assignment is possible. A host may reschedule a team booking it hosts. A booking that is not `confirmed`, or of a deleted holder, is a 409 `invalid-state`.',
          'x-problems': ['slot-unavailable', 'invalid-state'],
          params: IdParams,
          body: ref(RescheduleBookingBody),
          response: { 201: ref(BookingResource) },
        },
      },
      async (request, reply) => {
        const actor = await actorToChangeBooking(context, principalOf(request), request.params.id);
        const { booking } = await rescheduleBooking(context, actor, request.params.id, request.body);
        return reply
          .code(201)
          .header('location', `/api/v1/bookings/${booking.id}`)
          .send(bookingResponse(booking, actor, context.links));
      },
    );

    app.patch(
      '/bookings/:id',
      {
        schema: {
          operationId: 'updateBookingMetadata',
          summary: "Change a booking's metadata",
          description:
            'Sets the `metadata` keys sent and removes those sent as `null`; the others stay. Allowed in any status; at most 50 keys in all. Nothing else of a booking changes this way: cancel and reschedule are their own operations. A deleted holder’s bookings stay readable and unchanged: 409 `invalid-state`.',
          'x-problems': ['invalid-state'],
          params: IdParams,
          body: ref(UpdateBookingBody),
          response: { 200: ref(BookingResource) },
        },
      },
      async (request) => {
        const actor = await actorToChangeBooking(context, principalOf(request), request.params.id);
        const booking = await updateBookingMetadata(context, actor, request.params.id, request.body.metadata);
        return bookingResponse(booking, actor, context.links);
      },
    );
  };

/**
 * The answers of these routes show the guest's links: their stored Idempotency-Key replays are
 * encrypted (contract §10: no stored record holds a link in plaintext) and always shown again.
 */
const SHOWS_GUEST_LINKS = { secretBearing: { stillLive: async () => true, gone: '' } };
