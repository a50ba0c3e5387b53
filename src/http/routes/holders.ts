import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { createdKeyView, holderView, keyView } from '../../app/account-views.js';
import type { AppContext } from '../../app/context.js';
import { createHolderKey, holderKeyIsLive, listHolderKeys, revokeHolderKey } from '../../app/holder-keys.js';
import { createHolder, deleteHolder, getHolder, listHolders, updateHolder } from '../../app/holders.js';
import { principalOf } from '../auth.js';
import { listBody, pageRequestOf } from '../paging.js';
import { HttpProblem, problem } from '../problems.js';
import {
  CreatedHolderKeyResource,
  CreateHolderBody,
  CreateHolderKeyBody,
  HolderKeyParams,
  HolderKeyResource,
  HolderResource,
  IdParams,
  ListHolderKeysQuery,
  ListHoldersQuery,
  UpdateHolderBody,
  listOf,
  ref,
} from '../schemas/index.js';

/**
 * The account's holders and their keys (contract §12). They exist only in account scope: a
 * request acting for a holder (a holder key, or an account key with `Slotwise-Holder`) is
 * answered as an unknown route is, before its body is looked at.
 */
export const holderRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addHook('onRequest', (request, _reply, done) => {
      done(principalOf(request).actingFor === null ? undefined : noSuchRoute(request));
    });

    app.get(
      '/holders',
      {
        schema: {
          operationId: 'listHolders',
          summary: 'List holders',
          description:
            "The account's live holders, oldest first, a page at a time; `handle` and `email` narrow the list to the holders with exactly that value. Account scope only: acting for a holder, this route does not exist (404, as an unknown route).",
          querystring: ListHoldersQuery,
          response: { 200: listOf(ref(HolderResource)) },
        },
      },
      async (request) => {
        const { handle, email, ...page } = request.query;
        const filter = { handle: handle ?? null, email: email ?? null };
        return listBody(await listHolders(context, accountIdOf(request), filter, pageRequestOf(page)), holderView);
      },
    );

    app.post(
      '/holders',
      {
        schema: {
          operationId: 'createHolder',
          summary: 'Create a holder',
          description:
            "A holder of the account, with its default availability (Mon–Fri 09:00–17:00 in `timeZone`, `UTC` by default). A `name` taken among the account's live holders, or a `handle` taken among all live holders, is a 409 `conflict` whose `errors` name the field. An account may have at most `HOLDERS_PER_ACCOUNT` live holders (10,000 by default); past that, 409 `limit-reached`. Account scope only: acting for a holder, this route does not exist (404, as an unknown route).",
          'x-problems': ['conflict', 'limit-reached'],
          body: ref(CreateHolderBody),
          response: { 201: ref(HolderResource) },
        },
      },
      async (request, reply) => {
        const holder = await createHolder(context, accountIdOf(request), request.body);
        return reply.code(201).header('location', `/api/v1/holders/${holder.id}`).send(holderView(holder));
      },
    );

    app.get(
      '/holders/:id',
      {
        schema: {
          operationId: 'getHolder',
          summary: 'Get a holder',
          description: 'A live holder of the account; a deleted one, or another account’s, is not found.',
          params: IdParams,
          response: { 200: ref(HolderResource) },
        },
      },
      async (request) => holderView(await getHolder(context, accountIdOf(request), request.params.id)),
    );

    app.patch(
      '/holders/:id',
      {
        schema: {
          operationId: 'updateHolder',
          summary: 'Update a holder',
          description:
            'Changes only the fields sent: `name`, `handle` (the booking pages move with it; old page links stop working), `displayName` (`null` shows the name), `email` (`null` removes it). A name or handle another live holder has is a 409 `conflict` naming the field.',
          'x-problems': ['conflict'],
          params: IdParams,
          body: ref(UpdateHolderBody),
          response: { 200: ref(HolderResource) },
        },
      },
      async (request) => holderView(await updateHolder(context, accountIdOf(request), request.params.id, request.body)),
    );

    app.delete(
      '/holders/:id',
      {
        schema: {
          operationId: 'deleteHolder',
          summary: 'Delete a holder',
          description:
            "Refused with 409 `invalid-state` while the holder has a confirmed booking that has not ended. Otherwise, at once and together: its keys answer 401, its booking pages and calendar feed 404, `Slotwise-Holder` naming it 404; its live holds are released, its webhooks (with their pending deliveries), calendar sources (with their busy time) and event types deleted. Its name and handle are free again. Its bookings stay, readable by the account's keys by id.",
          'x-problems': ['invalid-state'],
          params: IdParams,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await deleteHolder(context, accountIdOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/holders/:id/keys',
      {
        schema: {
          operationId: 'createHolderKey',
          summary: 'Create a key for a holder',
          description:
            'A key that acts for this holder only. The `key` is shown in this response only (the server keeps its SHA-256); replayed under its `Idempotency-Key` only while the key is not revoked, after that a 409 `invalid-state` without it. A holder may have at most `KEYS_PER_HOLDER` keys that are not revoked (50 by default; expired ones count until revoked); past that, 409 `limit-reached`.',
          'x-problems': ['invalid-state', 'limit-reached'],
          params: IdParams,
          body: ref(CreateHolderKeyBody),
          response: { 201: ref(CreatedHolderKeyResource) },
        },
        // The answer shows the key: stored encrypted, replayed only while the key works.
        config: {
          secretBearing: {
            stillLive: async (principal, stored) =>
              stored.status !== 201 ||
              holderKeyIsLive(context, principal.accountId, (JSON.parse(stored.body) as { id: string }).id),
            gone: 'The key this Idempotency-Key created has been revoked since, so it is not shown again. Create a new key with a new Idempotency-Key.',
          },
        },
      },
      async (request, reply) => {
        const { key, token } = await createHolderKey(context, accountIdOf(request), request.params.id, request.body);
        return reply.code(201).send(createdKeyView(key, token));
      },
    );

    app.get(
      '/holders/:id/keys',
      {
        schema: {
          operationId: 'listHolderKeys',
          summary: "List a holder's keys",
          description: 'Its keys, revoked ones too (with `revokedAt`), oldest first; never the key itself.',
          params: IdParams,
          querystring: ListHolderKeysQuery,
          response: { 200: listOf(ref(HolderKeyResource)) },
        },
      },
      async (request) => {
        const page = await listHolderKeys(
          context,
          accountIdOf(request),
          request.params.id,
          pageRequestOf(request.query),
        );
        return listBody(page, keyView);
      },
    );

    app.delete(
      '/holders/:id/keys/:keyId',
      {
        schema: {
          operationId: 'revokeHolderKey',
          summary: "Revoke a holder's key",
          description:
            'The key answers 401 from the next request on this instance, and within a second on every other. An unknown key, another holder’s, or one revoked already is not found.',
          params: HolderKeyParams,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await revokeHolderKey(context, accountIdOf(request), request.params.id, request.params.keyId);
        return reply.code(204).send(null);
      },
    );
  };

/** The account a request in account scope manages (the plugin's hook let only those through). */
function accountIdOf(request: FastifyRequest): string {
  return principalOf(request).accountId;
}

/** What an unknown route answers (build-app.ts), so that acting for a holder these routes do not show. */
function noSuchRoute(request: FastifyRequest): HttpProblem {
  return new HttpProblem(problem('not-found', `No route ${request.method} ${request.url.split('?')[0] ?? ''}.`));
}
