import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { invalidAvailability } from '../../app/availability.js';
import type { AppContext } from '../../app/context.js';
import { createSchedule, deleteSchedule, getSchedule, listSchedules, replaceSchedule } from '../../app/schedules.js';
import { scheduleView } from '../../app/views.js';
import { callerOf } from '../auth.js';
import { listBody, pageRequestOf } from '../paging.js';
import { IdParams, ListSchedulesQuery, ScheduleBody, ScheduleResource, listOf, ref } from '../schemas/index.js';
import { fieldErrors } from '../validation.js';

const DOCUMENT_RULES =
  'Times are local `HH:MM` in `timeZone` (`end` may be `24:00`); intervals of a day must not overlap; omitted weekdays are days off. An override replaces the weekly intervals of its local date (`[]` = day off).';

/** A body that failed its schema: every schema error, and the rule problems of its well-formed parts (as `/availability`). */
function assertValidBody(request: FastifyRequest): void {
  if (request.validationError)
    throw invalidAvailability(fieldErrors(request.validationError.validation as never, 'body'), request.body);
}

export const scheduleRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/schedules',
      {
        schema: {
          operationId: 'listSchedules',
          summary: 'List schedules',
          description:
            "The holder's weekly schedules: the default one (its availability) first, then the others oldest first, a page at a time.",
          querystring: ListSchedulesQuery,
          response: { 200: listOf(ref(ScheduleResource)) },
        },
      },
      async (request) =>
        listBody(await listSchedules(context, callerOf(request), pageRequestOf(request.query)), scheduleView),
    );

    app.post(
      '/schedules',
      {
        schema: {
          operationId: 'createSchedule',
          summary: 'Create a schedule',
          description: `Another set of weekly hours in its own zone, for event types to book in (\`scheduleId\`). ${DOCUMENT_RULES} A holder may have at most \`SCHEDULES_PER_HOLDER\` schedules, the default one included (50 by default); past that, 409 \`limit-reached\`.`,
          'x-problems': ['limit-reached'],
          body: ref(ScheduleBody),
          response: { 201: ref(ScheduleResource) },
        },
        attachValidation: true,
      },
      async (request, reply) => {
        assertValidBody(request);
        const schedule = await createSchedule(context, callerOf(request), request.body);
        return reply.code(201).header('location', `/api/v1/schedules/${schedule.id}`).send(scheduleView(schedule));
      },
    );

    app.get(
      '/schedules/:id',
      {
        schema: {
          operationId: 'getSchedule',
          summary: 'Get a schedule',
          params: IdParams,
          response: { 200: ref(ScheduleResource) },
        },
      },
      async (request) => scheduleView(await getSchedule(context, callerOf(request), request.params.id)),
    );

    app.put(
      '/schedules/:id',
      {
        schema: {
          operationId: 'replaceSchedule',
          summary: 'Replace a schedule',
          description: `Replaces the whole schedule, its name too. ${DOCUMENT_RULES} The slots of the event types booked in it follow at once; existing bookings stay. The default schedule is the holder's availability: replacing it replaces \`/availability\`.`,
          params: IdParams,
          body: ref(ScheduleBody),
          response: { 200: ref(ScheduleResource) },
        },
        attachValidation: true,
      },
      async (request) => {
        assertValidBody(request);
        return scheduleView(await replaceSchedule(context, callerOf(request), request.params.id, request.body));
      },
    );

    app.delete(
      '/schedules/:id',
      {
        schema: {
          operationId: 'deleteSchedule',
          summary: 'Delete a schedule',
          description:
            'The default schedule, and a schedule a live event type books in (`scheduleId`), cannot be deleted: 409 `conflict`.',
          'x-problems': ['conflict'],
          params: IdParams,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await deleteSchedule(context, callerOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
