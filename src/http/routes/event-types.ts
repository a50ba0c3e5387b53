import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../app/context.js';
import {
  createEventTypeFor,
  deleteEventTypeFor,
  getEventTypeFor,
  listEventTypes,
  updateEventTypeFor,
} from '../../app/event-types.js';
import { listScopeOf } from '../../app/account-scope.js';
import { eventTypeView } from '../../app/views.js';
import { principalOf } from '../auth.js';
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

const TEAM_TYPE_OF_HOST =
  'the request acts for a host of the team event type it names, which only account scope changes (contract §14).';

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
            'Oldest first, a page at a time. Acting for a holder: its own event types and the team event types it hosts. In account scope (an account key without `Slotwise-Holder`): every event type of the account, its team event types and every holder’s own; with `holderId`, what that holder would list (its own and the team event types it hosts).',
          querystring: ListEventTypesQuery,
          response: { 200: listOf(ref(EventTypeResource)) },
        },
      },
      async (request) => {
        const scope = await listScopeOf(context, principalOf(request), request.query.holderId);
        return listBody(await listEventTypes(context, scope, pageRequestOf(request.query)), (eventType) =>
          eventTypeView(eventType, context.links),
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
            'Acting for a holder (its key, or an account key with `Slotwise-Holder`): an event type of that holder; only `title` and `durationMinutes` are required, and `assignment` and `hosts` are refused (400). In account scope (an account key without `Slotwise-Holder`): a **team event type** of the account, which also requires `assignment` and `hosts` (1–100 holders of the account, each once; a round-robin type needs one that is not fixed), takes its hosts’ time and shows `holderId: null`; at most `TEAM_EVENT_TYPES_PER_ACCOUNT` live ones per account (1,000 by default; past that, 409 `limit-reached`). Without a `slug` one is derived from the title (with a numeric suffix when taken); an explicit `slug` that is taken (among the holder’s event types, or the account’s team event types) is a 409 `conflict`.',
          'x-problems': ['conflict', 'limit-reached'],
          body: ref(CreateEventTypeBody),
          response: { 201: ref(EventTypeResource) },
        },
      },
      async (request, reply) => {
        const eventType = await createEventTypeFor(context, principalOf(request), request.body);
        return reply
          .code(201)
          .header('location', `/api/v1/event-types/${eventType.id}`)
          .send(eventTypeView(eventType, context.links));
      },
    );

    app.get(
      '/event-types/:id',
      {
        schema: {
          operationId: 'getEventType',
          summary: 'Get an event type',
          description:
            'One event type of the holder the request acts for, or a team event type it hosts; in account scope, any event type of the account.',
          params: IdParams,
          response: { 200: ref(EventTypeResource) },
        },
      },
      async (request) =>
        eventTypeView(await getEventTypeFor(context, principalOf(request), request.params.id), context.links),
    );

    app.patch(
      '/event-types/:id',
      {
        schema: {
          operationId: 'updateEventType',
          summary: 'Update an event type',
          description:
            'Changes only the fields sent, with the same rules as on create; a team event type’s `hosts` are replaced as a whole. Existing bookings keep their times, buffers and hosts. Only account scope changes a team event type: its hosts get 403.',
          'x-problems': ['conflict'],
          'x-forbidden': TEAM_TYPE_OF_HOST,
          params: IdParams,
          body: ref(UpdateEventTypeBody),
          response: { 200: ref(EventTypeResource) },
        },
      },
      async (request) => {
        const eventType = await updateEventTypeFor(context, principalOf(request), request.params.id, request.body);
        return eventTypeView(eventType, context.links);
      },
    );

    app.delete(
      '/event-types/:id',
      {
        schema: {
          operationId: 'deleteEventType',
          summary: 'Delete an event type',
          description:
            'Its bookings stay readable; slots and new bookings for it answer as if it never existed. Only account scope deletes a team event type: its hosts get 403.',
          'x-forbidden': TEAM_TYPE_OF_HOST,
          params: IdParams,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await deleteEventTypeFor(context, principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
