import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../app/context.js';
import { getProfile, rotateCalendarFeed, updateProfile } from '../../app/profile.js';
import { meView } from '../../app/views.js';
import { callerOf } from '../auth.js';
import { MeResource, UpdateMeBody, ref } from '../schemas/index.js';

export const meRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/me',
      {
        schema: {
          operationId: 'getMe',
          summary: 'Who am I',
          description:
            'The holder of the calling key (with `calendarFeedUrl` for a key with the write scope) and the key itself.',
          response: { 200: MeResource },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return meView(caller, await getProfile(context, caller), context.links);
      },
    );

    app.patch(
      '/me',
      {
        schema: {
          operationId: 'updateMe',
          summary: 'Change the public profile',
          description:
            'Sets `displayName` (shown to guests; `null` shows the name) and `handle` (the booking pages live under `/book/{handle}`; old page links stop working). A handle another holder has is a 409 `conflict`.',
          'x-problems': ['conflict'],
          body: ref(UpdateMeBody),
          response: { 200: MeResource },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return meView(caller, await updateProfile(context, caller, request.body), context.links);
      },
    );

    app.post(
      '/me/calendar-feed/rotate',
      {
        // The answer shows the new feed link: its stored replay is encrypted, like a booking's links.
        config: { secretBearing: { stillLive: async () => true, gone: '' } },
        schema: {
          operationId: 'rotateCalendarFeed',
          summary: 'Replace the calendar feed link',
          description: 'Makes a new `calendarFeedUrl`; the old one stops working at once.',
          response: { 200: MeResource },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return meView(caller, await rotateCalendarFeed(context, caller), context.links);
      },
    );
  };
