import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../app/context.js';
import { decodeCursor } from '../../app/paging.js';
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
} from '../../app/webhooks.js';
import { callerOf } from '../auth.js';
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
} from '../schemas.js';

export const webhookRoutes = (context: AppContext): FastifyPluginAsyncTypebox => async (app) => {
  app.get(
    '/webhooks',
    { schema: { querystring: ListWebhooksQuery, response: { 200: listOf(WebhookResource) } } },
    async (request) => {
      const page = await listWebhooks(context, callerOf(request), {
        limit: request.query.limit ?? 50,
        after: decodeCursor(request.query.cursor),
      });
      return { data: page.items.map(webhookView), nextCursor: page.nextCursor };
    },
  );

  app.post(
    '/webhooks',
    { schema: { body: CreateWebhookBody, response: { 201: CreatedWebhookResource } } },
    async (request, reply) => {
      const webhook = await createWebhook(context, callerOf(request), request.body);
      return reply
        .code(201)
        .header('location', `/api/v1/webhooks/${webhook.id}`)
        .send({ ...webhookView(webhook), secret: webhook.secret });
    },
  );

  app.get('/webhooks/:id', { schema: { params: IdParams, response: { 200: WebhookResource } } }, async (request) =>
    webhookView(await getWebhook(context, callerOf(request), request.params.id)),
  );

  app.patch(
    '/webhooks/:id',
    { schema: { params: IdParams, body: UpdateWebhookBody, response: { 200: WebhookResource } } },
    async (request) => webhookView(await updateWebhook(context, callerOf(request), request.params.id, request.body)),
  );

  app.delete('/webhooks/:id', { schema: { params: IdParams, response: { 204: Type.Null() } } }, async (request, reply) => {
    await deleteWebhook(context, callerOf(request), request.params.id);
    return reply.code(204).send(null);
  });

  app.post(
    '/webhooks/:id/test',
    {
      schema: { params: IdParams, body: EmptyBody, response: { 202: DeliveryResource } },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) =>
      reply.code(202).send(deliveryView(await sendTestEvent(context, callerOf(request), request.params.id))),
  );

  app.get(
    '/webhooks/:id/deliveries',
    { schema: { params: IdParams, querystring: ListDeliveriesQuery, response: { 200: listOf(DeliveryResource) } } },
    async (request) => {
      const page = await listDeliveries(context, callerOf(request), request.params.id, {
        limit: request.query.limit ?? 50,
        after: decodeCursor(request.query.cursor),
      });
      return { data: page.items.map(deliveryView), nextCursor: page.nextCursor };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    { schema: { params: DeliveryParams, response: { 202: DeliveryResource } } },
    async (request, reply) =>
      reply
        .code(202)
        .send(deliveryView(await retryDelivery(context, callerOf(request), request.params.id, request.params.deliveryId))),
  );
};
