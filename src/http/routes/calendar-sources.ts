import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  createCalendarSource,
  deleteCalendarSource,
  getCalendarSource,
  listBusy,
  listCalendarSources,
  updateCalendarSource,
} from '../../app/calendar-sources.js';
import { syncCalendarSourceNow } from '../../app/calendar-sync.js';
import type { AppContext } from '../../app/context.js';
import { busyView, calendarSourceView } from '../../app/views.js';
import { MANUAL_SYNC_INTERVAL_MS } from '../../app/sync-limits.js';
import { callerOf } from '../auth.js';
import { HttpProblem, problem } from '../problems.js';
import { listBody, pageRequestOf } from '../paging.js';
import {
  BusyQuery,
  BusyResource,
  CalendarSourceResource,
  CreateCalendarSourceBody,
  EmptyBody,
  IdParams,
  ListCalendarSourcesQuery,
  UpdateCalendarSourceBody,
  listOf,
  ref,
} from '../schemas/index.js';

export const calendarSourceRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/calendar-sources',
      {
        schema: {
          operationId: 'listCalendarSources',
          summary: 'List calendar sources',
          description:
            "The key holder's calendar sources, oldest first, a page at a time. An ICS source shows only its address's origin; no source shows a password.",
          querystring: ListCalendarSourcesQuery,
          response: { 200: listOf(ref(CalendarSourceResource)) },
        },
      },
      async (request) =>
        listBody(
          await listCalendarSources(context, callerOf(request), pageRequestOf(request.query)),
          calendarSourceView,
        ),
    );

    app.post(
      '/calendar-sources',
      {
        schema: {
          operationId: 'createCalendarSource',
          summary: 'Add a calendar source',
          description:
            "Its events become busy time (contract §11). `ics`: a calendar's secret address (`https://` or `webcal://`, as Google, Outlook and Apple publish it). `caldav`: a calendar collection's URL with `username` and `password` (Nextcloud, Radicale, Fastmail, iCloud). The address and credentials are stored encrypted and never shown again. The source is `pending` until its first sync, which starts at once. Loopback, private and metadata addresses are refused unless `CALENDAR_ALLOW_PRIVATE_TARGETS=true`. A holder may have at most `CALENDAR_SOURCES_PER_HOLDER` sources (10 by default); past that, 409 `limit-reached`.",
          body: ref(CreateCalendarSourceBody),
          'x-problems': ['limit-reached'],
          response: { 201: ref(CalendarSourceResource) },
        },
      },
      async (request, reply) => {
        const source = await createCalendarSource(context, callerOf(request), request.body);
        return reply
          .code(201)
          .header('location', `/api/v1/calendar-sources/${source.id}`)
          .send(calendarSourceView(source));
      },
    );

    app.get(
      '/calendar-sources/:id',
      {
        schema: {
          operationId: 'getCalendarSource',
          summary: 'Get a calendar source',
          description: 'One calendar source of the key holder, with how its last sync went.',
          params: IdParams,
          response: { 200: ref(CalendarSourceResource) },
        },
      },
      async (request) => calendarSourceView(await getCalendarSource(context, callerOf(request), request.params.id)),
    );

    app.patch(
      '/calendar-sources/:id',
      {
        schema: {
          operationId: 'updateCalendarSource',
          summary: 'Update a calendar source',
          description:
            'Changes only the fields sent: `name`, `url`, `username`, `password`. A new address or new credentials make the source `pending` and sync it at once; its busy time stays until that sync replaces it.',
          params: IdParams,
          body: ref(UpdateCalendarSourceBody),
          response: { 200: ref(CalendarSourceResource) },
        },
      },
      async (request) =>
        calendarSourceView(await updateCalendarSource(context, callerOf(request), request.params.id, request.body)),
    );

    app.delete(
      '/calendar-sources/:id',
      {
        schema: {
          operationId: 'deleteCalendarSource',
          summary: 'Delete a calendar source',
          description: 'Removes the source and its busy time: its events no longer keep slots from being offered.',
          params: IdParams,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await deleteCalendarSource(context, callerOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/calendar-sources/:id/sync',
      {
        schema: {
          operationId: 'syncCalendarSource',
          summary: 'Sync a calendar source now',
          description:
            "Reads the source now and answers with it: `status`, `lastSyncedAt` and `lastError` tell how it went. The body may be omitted. A call while a sync of the source is under way on the same server (the periodic one or another call's) answers with that sync's result instead of reading the source again; one under way on another instance is waited for. Otherwise a source is read on request at most once every 30 seconds: sooner, 429 `rate-limited` with `Retry-After`, and nothing is read. A server's syncs take turns (`CALENDAR_SYNC_CONCURRENCY` reads at once, their parses one at a time, holders in turn; docs/api.md, \"Limits\"), so the answer may wait for other syncs.",
          params: IdParams,
          body: EmptyBody,
          response: { 200: ref(CalendarSourceResource) },
        },
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => {
        const caller = callerOf(request);
        await getCalendarSource(context, caller, request.params.id);
        const refused = await syncCalendarSourceNow(context, caller.holderId, request.params.id);
        if (refused) {
          throw new HttpProblem(
            problem(
              'rate-limited',
              `This calendar source was synced on request less than ${MANUAL_SYNC_INTERVAL_MS / 1000} s ago; retry in ${refused.retryAfterSeconds} s.`,
            ),
            { 'retry-after': String(refused.retryAfterSeconds) },
          );
        }
        return calendarSourceView(await getCalendarSource(context, caller, request.params.id));
      },
    );

    app.get(
      '/busy',
      {
        schema: {
          operationId: 'listBusy',
          summary: 'List busy time',
          description:
            "The busy intervals the holder's calendar sources contribute in [`from`, `to`) (at most 62 days), by start, a page at a time. Slots and bookings leave them out (with each event type's buffers).",
          querystring: BusyQuery,
          response: { 200: listOf(ref(BusyResource)) },
        },
      },
      async (request) =>
        listBody(await listBusy(context, callerOf(request), request.query, pageRequestOf(request.query)), busyView),
    );
  };
