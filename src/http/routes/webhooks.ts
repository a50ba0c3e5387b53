import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../app/context.js';
import { deliveryView, webhookView } from '../../app/views.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  sendTestEvent,
  updateWebhook,
  webhookExists,
} from '../../app/webhooks.js';
import { principalOf } from '../auth.js';
import { listBody, pageRequestOf } from '../paging.js';
import {
  CreateWebhookBody,
  CreatedWebhookResource,
  DeliveryParams,
  DeliveryResource,
  EmptyBody,
  IdParams,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookBody,
  WebhookResource,
  listOf,
  ref,
} from '../schemas/index.js';

export const webhookRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/webhooks',
      {
        schema: {
          operationId: 'listWebhooks',
          summary: 'List webhooks',
          description:
            'The webhooks the request reaches, oldest first, a page at a time: acting for a holder (a holder key, or an account key with `Slotwise-Holder`), that holder’s; in account scope, every webhook of the account, the account webhooks and every holder’s, which `holderId` narrows to one holder’s (one the key cannot see: 400 on `holderId`). Secrets are never listed.',
          querystring: ListWebhooksQuery,
          response: { 200: listOf(ref(WebhookResource)) },
        },
      },
      async (request) => {
        const page = await listWebhooks(
          context,
          principalOf(request),
          request.query.holderId,
          pageRequestOf(request.query),
        );
        return listBody(page, webhookView);
      },
    );

    app.post(
      '/webhooks',
      {
        schema: {
          operationId: 'createWebhook',
          summary: 'Register a webhook',
          description:
            'Acting for a holder, registers a webhook of that holder, which hears its events; in account scope (an account key without `Slotwise-Holder`), an account webhook (`holderId` null), which hears every event of the account, every holder’s. Deliveries are signed per Standard Webhooks with the `secret`, which only this response shows. `events` defaults to every event type (bookings and calendar sources). Loopback, private and metadata addresses are refused unless the server allows them. A holder may have at most `WEBHOOK_LIMIT_PER_HOLDER` webhooks and an account at most `WEBHOOK_LIMIT_PER_ACCOUNT` account webhooks (25 each by default); past that, 409 `limit-reached`. Replayed under its `Idempotency-Key` (secret included) only while the webhook exists: after it was deleted, the replay is a 409 `invalid-state` without the secret.',
          body: ref(CreateWebhookBody),
          'x-problems': ['limit-reached', 'invalid-state'],
          response: { 201: ref(CreatedWebhookResource) },
        },
        // The answer shows the signing secret: stored encrypted, replayed only while the webhook exists.
        config: {
          secretBearing: {
            stillLive: async (principal, stored) =>
              stored.status !== 201 ||
              webhookExists(context, principal, (JSON.parse(stored.body) as { id: string }).id),
            gone: 'The webhook this Idempotency-Key registered has been deleted since, so its secret is not shown again. Register a new webhook with a new Idempotency-Key.',
          },
        },
      },
      async (request, reply) => {
        const webhook = await createWebhook(context, principalOf(request), request.body);
        return reply
          .code(201)
          .header('location', `/api/v1/webhooks/${webhook.id}`)
          .send({ ...webhookView(webhook), secret: webhook.secret });
      },
    );

    app.get(
      '/webhooks/:id',
      {
        schema: {
          operationId: 'getWebhook',
          summary: 'Get a webhook',
          description:
            'One webhook the request reaches (acting for a holder: that holder’s; in account scope: any of the account), without its secret. Any other id is 404.',
          params: IdParams,
          response: { 200: ref(WebhookResource) },
        },
      },
      async (request) => webhookView(await getWebhook(context, principalOf(request), request.params.id)),
    );

    app.patch(
      '/webhooks/:id',
      {
        schema: {
          operationId: 'updateWebhook',
          summary: 'Update a webhook',
          description: 'Changes only the fields sent: `url`, `events`, `active`, `description`.',
          params: IdParams,
          body: ref(UpdateWebhookBody),
          response: { 200: ref(WebhookResource) },
        },
      },
      async (request) =>
        webhookView(await updateWebhook(context, principalOf(request), request.params.id, request.body)),
    );

    app.delete(
      '/webhooks/:id',
      {
        schema: {
          operationId: 'deleteWebhook',
          summary: 'Delete a webhook',
          description: 'Stops all deliveries to it, pending retries included.',
          params: IdParams,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await deleteWebhook(context, principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/webhooks/:id/test',
      {
        schema: {
          operationId: 'sendWebhookTestEvent',
          summary: 'Send a test event',
          description:
            'Queues a signed `webhook.test` event to the webhook and returns its delivery; the body may be omitted. An inactive webhook is a 409 `invalid-state`.',
          'x-problems': ['invalid-state'],
          params: IdParams,
          body: EmptyBody,
          response: { 202: ref(DeliveryResource) },
        },
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request, reply) =>
        reply.code(202).send(deliveryView(await sendTestEvent(context, principalOf(request), request.params.id))),
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        schema: {
          operationId: 'listWebhookDeliveries',
          summary: 'List deliveries of a webhook',
          description:
            'Its deliveries, newest first, each with its attempts: status code, duration, error, response excerpt and next retry.',
          params: IdParams,
          querystring: ListDeliveriesQuery,
          response: { 200: listOf(ref(DeliveryResource)) },
        },
      },
      async (request) => {
        const page = await listDeliveries(
          context,
          principalOf(request),
          request.params.id,
          pageRequestOf(request.query),
        );
        return listBody(page, deliveryView);
      },
    );

    app.post(
      '/webhooks/:id/deliveries/:deliveryId/retry',
      {
        schema: {
          operationId: 'retryWebhookDelivery',
          summary: 'Retry a delivery',
          description:
            'Sends a finished (succeeded or failed) delivery again now, with a fresh retry schedule. A pending delivery or an inactive webhook is a 409 `invalid-state`.',
          'x-problems': ['invalid-state'],
          params: DeliveryParams,
          response: { 202: ref(DeliveryResource) },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(
            deliveryView(
              await retryDelivery(context, principalOf(request), request.params.id, request.params.deliveryId),
            ),
          ),
    );
  };
