import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountMeView } from '../../app/account-views.js';
import type { AppContext } from '../../app/context.js';
import {
  getAccountProfile,
  getProfile,
  rotateCalendarFeed,
  updateAccountProfile,
  updateProfile,
} from '../../app/profile.js';
import { meView } from '../../app/views.js';
import { callerOf, principalOf } from '../auth.js';
import { HolderMeResource, MeResource, UpdateMeBody, ref } from '../schemas/index.js';

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
            'Acting for a holder (`HolderMe`): the holder (with `calendarFeedUrl` for a key with the write scope) and the calling key. In account scope, an account key without `Slotwise-Holder` (`AccountMe`): the account and the calling key.',
          response: { 200: ref(MeResource) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        if (principal.actingFor === null)
          return accountMeView(principal, await getAccountProfile(context, principal.accountId));
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
            "Acting for a holder: sets the holder's `displayName` (shown to guests; `null` shows the name) and `handle` (the booking pages live under `/book/{handle}`; old page links stop working); a handle another holder has is a 409 `conflict`. In account scope: sets the account's `handle` (unique among accounts: another account's is a 409 `conflict`) and `displayName`.",
          'x-problems': ['conflict'],
          body: ref(UpdateMeBody),
          response: { 200: ref(MeResource) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        if (principal.actingFor === null)
          return accountMeView(principal, await updateAccountProfile(context, principal.accountId, request.body));
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
          description:
            'Makes a new `calendarFeedUrl`; the old one stops working at once. A holder has the feed: in account scope, name it in `Slotwise-Holder` (else 400).',
          response: { 200: ref(HolderMeResource) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return meView(caller, await rotateCalendarFeed(context, caller), context.links);
      },
    );
  };
