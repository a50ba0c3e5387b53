import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { describeCaller } from '../../app/me.js';
import { formatUtc } from '../../domain/instant.js';
import { callerOf } from '../auth.js';
import { MeResource } from '../schemas.js';

export const meRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/me', { schema: { response: { 200: MeResource } } }, async (request) => {
    const me = describeCaller(callerOf(request));
    return {
      holder: me.holder,
      key: {
        ...me.key,
        createdAt: formatUtc(me.key.createdAt),
        expiresAt: me.key.expiresAt === null ? null : formatUtc(me.key.expiresAt),
      },
    };
  });
};
