import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getAvailability, invalidAvailability, replaceAvailability } from '../../app/availability.js';
import type { AppContext } from '../../app/context.js';
import { availabilityView } from '../../app/views.js';
import { callerOf } from '../auth.js';
import { AvailabilityBody, AvailabilityResource, ref } from '../schemas/index.js';
import { fieldErrors } from '../validation.js';

export const availabilityRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/availability',
      {
        schema: {
          operationId: 'getAvailability',
          summary: 'Get the availability',
          description:
            "The weekly hours and date overrides of the holder's default schedule (see `/schedules`). A new holder has Monday to Friday 09:00–17:00 in UTC.",
          response: { 200: ref(AvailabilityResource) },
        },
      },
      async (request) => {
        return availabilityView(await getAvailability(context, callerOf(request)));
      },
    );

    app.put(
      '/availability',
      {
        schema: {
          operationId: 'replaceAvailability',
          summary: 'Replace the availability',
          description:
            "Replaces the whole document of the holder's default schedule (its name stays): omitted weekdays are days off. Times are local `HH:MM` in `timeZone` (`end` may be `24:00`); intervals of a day must not overlap. An override replaces the weekly intervals of its local date (`[]` = day off). Event types without a `scheduleId` follow it at once.",
          body: ref(AvailabilityBody),
          response: { 200: ref(AvailabilityResource) },
        },
        attachValidation: true,
      },
      async (request) => {
        if (request.validationError) {
          throw invalidAvailability(fieldErrors(request.validationError.validation as never, 'body'), request.body);
        }
        return availabilityView(await replaceAvailability(context, callerOf(request), request.body));
      },
    );
  };
