import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../app/context.js';
import { listSlots } from '../../app/slots.js';
import { callerOf } from '../auth.js';
import { SlotsQuery, SlotsResponse } from '../schemas.js';

export const slotRoutes = (context: AppContext): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/slots', { schema: { querystring: SlotsQuery, response: { 200: SlotsResponse } } }, async (request) => ({
    data: await listSlots(context, callerOf(request), request.query),
  }));
};
