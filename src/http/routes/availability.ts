import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getAvailability, replaceAvailability } from '../../app/availability.js';
import type { AppContext } from '../../app/context.js';
import { availabilityView } from '../../app/views.js';
import { availabilityRuleErrors, WEEKDAYS } from '../../domain/availability.js';
import { invalidRequest } from '../../domain/errors.js';
import { callerOf } from '../auth.js';
import { AvailabilityBody, AvailabilityResource } from '../schemas.js';
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
            "The key holder's weekly hours and date overrides. A new holder has Monday to Friday 09:00–17:00 in UTC.",
          response: { 200: AvailabilityResource },
        },
      },
      async (request) => {
        const { availability, updatedAt } = await getAvailability(context, callerOf(request));
        return availabilityView(availability, updatedAt);
      },
    );

    app.put(
      '/availability',
      {
        schema: {
          operationId: 'replaceAvailability',
          summary: 'Replace the availability',
          description:
            'Replaces the whole document: omitted weekdays are days off. Times are local `HH:MM` in `timeZone` (`end` may be `24:00`); intervals of a day must not overlap. An override replaces the weekly intervals of its local date (`[]` = day off).',
          body: AvailabilityBody,
          response: { 200: AvailabilityResource },
        },
        attachValidation: true,
      },
      async (request) => {
        if (request.validationError) {
          // Report the rule problems (overlaps, dates, zone) of the well-formed parts in the same
          // answer, so a client fixes everything in one round.
          const schemaErrors = fieldErrors(request.validationError.validation as never, 'body');
          const known = new Set(schemaErrors.map((e) => e.field));
          const ruleErrors = availabilityRuleErrors(request.body).filter((e) => !known.has(e.field));
          throw invalidRequest([...schemaErrors, ...ruleErrors], 'The request does not validate; see errors.');
        }
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
