import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../app/context.js';
import { decodeCursor } from '../../app/paging.js';
import { webhookView } from '../../app/views.js';
import { createWebhook, deleteWebhook, listWebhooks } from '../../app/webhooks.js';
import { callerOf } from '../auth.js';
import { CreateWebhookBody, CreatedWebhookResource, IdParams, ListWebhooksQuery, WebhookResource, listOf } from '../schemas.js';

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

  app.delete('/webhooks/:id', { schema: { params: IdParams, response: { 204: Type.Null() } } }, async (request, reply) => {
    await deleteWebhook(context, callerOf(request), request.params.id);
    return reply.code(204).send(null);
  });
};
