import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getAvailability, replaceAvailability } from '../../app/availability.js';
import type { AppContext } from '../../app/context.js';
import { availabilityView } from '../../app/views.js';
import { WEEKDAYS } from '../../domain/availability.js';
import { callerOf } from '../auth.js';
import { AvailabilityBody, AvailabilityResource } from '../schemas.js';

export const availabilityRoutes = (context: AppContext): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/availability', { schema: { response: { 200: AvailabilityResource } } }, async (request) => {
    const { availability, updatedAt } = await getAvailability(context, callerOf(request));
    return availabilityView(availability, updatedAt);
  });

  app.put(
    '/availability',
    { schema: { body: AvailabilityBody, response: { 200: AvailabilityResource } } },
    async (request) => {
      const body = request.body;
      // PUT replaces the whole document: an omitted weekday is a day off.
      const weekly = Object.fromEntries(WEEKDAYS.map((day) => [day, body.weekly[day] ?? []])) as Record<
        (typeof WEEKDAYS)[number],
        Array<{ start: string; end: string }>
      >;
      const { availability, updatedAt } = await replaceAvailability(context, callerOf(request), {
        timeZone: body.timeZone,
        weekly,
        overrides: body.overrides ?? [],
      });
      return availabilityView(availability, updatedAt);
    },
  );
};
