import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../app/context.js';
import { createHold, getHold, listHolds, releaseHold } from '../../app/holds.js';
import { actorForHold, bookerOf, listScopeOf } from '../../app/account-scope.js';
import { holdView } from '../../app/views.js';
import { principalOf } from '../auth.js';
import { listBody, pageRequestOf } from '../paging.js';
import { CreateHoldBody, HoldResource, IdParams, ListHoldsQuery, listOf, ref } from '../schemas/index.js';

export const holdRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/holds',
      {
        schema: {
          operationId: 'createHold',
          summary: 'Hold a slot',
          description:
            'Reserves a bookable start while the guest finishes (a form, a payment): until `expiresAt` it occupies its time exactly like a confirmed booking (buffers, daily limit), so `GET /slots` leaves it out and every overlapping booking or hold gets 409 `slot-unavailable`. Book it with `POST /bookings` and its `holdId`; release it with `DELETE /holds/{id}`. At `expiresAt` the time is free again. The start must be bookable, as for a booking. In account scope (an account key without `Slotwise-Holder`), holds for the holder of the event type, or for a **team event type** for the account: the hold occupies the hosts a booking would take (chosen the same way, or the round-robin host `hostId` names) and is booked onto them; it shows `holderId: null` and its `hostIds`, and is reached in account scope only.',
          'x-problems': ['slot-unavailable'],
          'x-forbidden':
            'the request acts for a host of the team event type it names, which only account scope holds (contract §14).',
          body: ref(CreateHoldBody),
          response: { 201: ref(HoldResource) },
        },
      },
      async (request, reply) => {
        const holder = await bookerOf(context, principalOf(request), { eventTypeId: request.body.eventTypeId });
        const hold = await createHold(context, holder, request.body);
        return reply.code(201).header('location', `/api/v1/holds/${hold.id}`).send(holdView(hold));
      },
    );

    app.get(
      '/holds',
      {
        schema: {
          operationId: 'listHolds',
          summary: 'List live holds',
          description:
            'The live holds, ascending by start: those made by API and those the booking pages made for guests picking a time (`source`), so the holder can see and release them. `from` and `to` bound the start (each optional, `to` after `from`); without them, every live hold. Expired, released and booked holds are gone. In account scope (an account key without `Slotwise-Holder`), those of every holder of the account and the account’s team holds, or the own holds of the one `holderId` names.',
          querystring: ListHoldsQuery,
          response: { 200: listOf(ref(HoldResource)) },
        },
      },
      async (request) => {
        const { cursor, limit, holderId, ...filters } = request.query;
        const scope = await listScopeOf(context, principalOf(request), holderId);
        const page = await listHolds(context, scope, { ...filters, ...pageRequestOf({ cursor, limit }) });
        return listBody(page, holdView);
      },
    );

    app.get(
      '/holds/:id',
      {
        schema: {
          operationId: 'getHold',
          summary: 'Get a hold',
          description: 'A live hold. One that expired, was released or was booked is gone: 404.',
          params: IdParams,
          response: { 200: ref(HoldResource) },
        },
      },
      async (request) => {
        const actor = await actorForHold(context, principalOf(request), request.params.id);
        return holdView(await getHold(context, actor, request.params.id));
      },
    );

    app.delete(
      '/holds/:id',
      {
        schema: {
          operationId: 'releaseHold',
          summary: 'Release a hold',
          description: 'Frees the held time at once. A hold that expired, was released or was booked is gone: 404.',
          params: IdParams,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        const actor = await actorForHold(context, principalOf(request), request.params.id);
        await releaseHold(context, actor, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
