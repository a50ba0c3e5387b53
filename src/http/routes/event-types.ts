import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../app/context.js';
import {
  createEventType,
  deleteEventType,
  getEventType,
  listEventTypes,
  updateEventType,
} from '../../app/event-types.js';
import { callerForEventType, listScopeOf } from '../../app/account-scope.js';
import { eventTypeView } from '../../app/views.js';
import { callerOf, principalOf } from '../auth.js';
import { listBody, pageRequestOf } from '../paging.js';
import {
  CreateEventTypeBody,
  EventTypeResource,
  IdParams,
  ListEventTypesQuery,
  UpdateEventTypeBody,
  listOf,
  ref,
} from '../schemas/index.js';

export const eventTypeRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/event-types',
      {
        schema: {
          operationId: 'listEventTypes',
          summary: 'List event types',
          description:
            'The event types of the holder the request acts for, oldest first, a page at a time. In account scope (an account key without `Slotwise-Holder`), those of every holder of the account, or of the one `holderId` names.',
          querystring: ListEventTypesQuery,
          response: { 200: listOf(ref(EventTypeResource)) },
        },
      },
      async (request) => {
        const scope = await listScopeOf(context, principalOf(request), request.query.holderId);
        return listBody(await listEventTypes(context, scope, pageRequestOf(request.query)), (eventType) =>
          eventTypeView(eventType, context.links, eventType.holderHandle),
        );
      },
    );

    app.post(
      '/event-types',
      {
        schema: {
          operationId: 'createEventType',
          summary: 'Create an event type',
          description:
            'Only `title` and `durationMinutes` are required. Without a `slug` one is derived from the title (with a numeric suffix when taken); an explicit `slug` that is taken is a 409 `conflict`. An event type belongs to one holder: an account key names it in `Slotwise-Holder` (without the header, a 400 on `Slotwise-Holder`).',
          'x-problems': ['conflict'],
          body: ref(CreateEventTypeBody),
          response: { 201: ref(EventTypeResource) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const eventType = await createEventType(context, caller, request.body);
        return reply
          .code(201)
          .header('location', `/api/v1/event-types/${eventType.id}`)
          .send(eventTypeView(eventType, context.links, caller.holderHandle));
      },
    );

    app.get(
      '/event-types/:id',
      {
        schema: {
          operationId: 'getEventType',
          summary: 'Get an event type',
          description:
            'One event type of the holder the request acts for; in account scope, of any holder of the account.',
          params: IdParams,
          response: { 200: ref(EventTypeResource) },
        },
      },
      async (request) => {
        const caller = await callerForEventType(context, principalOf(request), request.params.id);
        return eventTypeView(
          await getEventType(context, caller, request.params.id),
          context.links,
          caller.holderHandle,
        );
      },
    );

    app.patch(
      '/event-types/:id',
      {
        schema: {
          operationId: 'updateEventType',
          summary: 'Update an event type',
          description:
            'Changes only the fields sent, with the same rules as on create. Existing bookings keep their times and buffers.',
          'x-problems': ['conflict'],
          params: IdParams,
          body: ref(UpdateEventTypeBody),
          response: { 200: ref(EventTypeResource) },
        },
      },
      async (request) => {
        const caller = await callerForEventType(context, principalOf(request), request.params.id);
        const eventType = await updateEventType(context, caller, request.params.id, request.body);
        return eventTypeView(eventType, context.links, caller.holderHandle);
      },
    );

    app.delete(
      '/event-types/:id',
      {
        schema: {
          operationId: 'deleteEventType',
          summary: 'Delete an event type',
          description: 'Its bookings stay readable; slots and new bookings for it answer as if it never existed.',
          params: IdParams,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        const caller = await callerForEventType(context, principalOf(request), request.params.id);
        await deleteEventType(context, caller, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
