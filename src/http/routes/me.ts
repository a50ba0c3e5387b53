import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { meView } from '../../app/views.js';
import { callerOf } from '../auth.js';
import { MeResource } from '../schemas.js';

export const meRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/me', { schema: { response: { 200: MeResource } } }, async (request) => meView(callerOf(request)));
};
