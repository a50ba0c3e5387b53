import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cancelBooking, createBooking, getBooking, listBookings, rescheduleBooking } from '../../app/bookings.js';
import type { AppContext } from '../../app/context.js';
import { bookingView } from '../../app/views.js';
import { callerOf } from '../auth.js';
import { listBody, pageRequestOf } from '../paging.js';
import {
  BookingResource,
  CancelBookingBody,
  CreateBookingBody,
  IdParams,
  ListBookingsQuery,
  RescheduleBookingBody,
  listOf,
  ref,
} from '../schemas.js';

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
            'Confirmed bookings whose start is in `[from, to)`, ascending by start. `from` defaults to now, `to` to 62 days after `from`.',
          querystring: ListBookingsQuery,
          response: { 200: listOf(ref(BookingResource)) },
        },
      },
      async (request) => {
        const { cursor, limit, ...range } = request.query;
        const page = await listBookings(context, callerOf(request), { ...range, ...pageRequestOf({ cursor, limit }) });
        return listBody(page, bookingView);
      },
    );

    app.get(
      '/bookings/:id',
      {
        schema: {
          operationId: 'getBooking',
          summary: 'Get a booking',
          description: 'One booking of the key holder, in any status.',
          params: IdParams,
          response: { 200: ref(BookingResource) },
        },
      },
      async (request) => bookingView(await getBooking(context, callerOf(request), request.params.id)),
    );

    app.post(
      '/bookings',
      {
        schema: {
          operationId: 'createBooking',
          summary: 'Book a slot',
          description:
            'Succeeds exactly when `start` is bookable at this moment (as `GET /slots` would list it); otherwise a 409 `slot-unavailable` says why. Two requests never both get the same time. With `holdId`, books the live hold’s time as it was reserved and ends the hold, in one step; a hold that expired, was released or was booked already is a 409 `hold-expired`.',
          'x-problems': ['slot-unavailable', 'hold-expired'],
          body: ref(CreateBookingBody),
          response: { 201: ref(BookingResource) },
        },
      },
      async (request, reply) => {
        const booking = await createBooking(context, callerOf(request), request.body);
        return reply.code(201).header('location', `/api/v1/bookings/${booking.id}`).send(bookingView(booking));
      },
    );

    app.post(
      '/bookings/:id/cancel',
      {
        schema: {
          operationId: 'cancelBooking',
          summary: 'Cancel a booking',
          description:
            'Cancels a `confirmed` booking; the body (and `reason`) may be omitted. Any other status is a 409 `invalid-state`.',
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
      async (request) =>
        bookingView(await cancelBooking(context, callerOf(request), request.params.id, request.body.reason ?? null)),
    );

    app.post(
      '/bookings/:id/reschedule',
      {
        schema: {
          operationId: 'rescheduleBooking',
          summary: 'Reschedule a booking',
          description:
            'Creates a new `confirmed` booking at `start` (with `rescheduledFromId`) and marks the old one `rescheduled` (with `rescheduledToId`), in one transaction. The new start is judged as if the old booking were gone.',
          'x-problems': ['slot-unavailable', 'invalid-state'],
          params: IdParams,
          body: ref(RescheduleBookingBody),
          response: { 201: ref(BookingResource) },
        },
      },
      async (request, reply) => {
        const { booking } = await rescheduleBooking(context, callerOf(request), request.params.id, request.body);
        return reply.code(201).header('location', `/api/v1/bookings/${booking.id}`).send(bookingView(booking));
      },
    );
  };
