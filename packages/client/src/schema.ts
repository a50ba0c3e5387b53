// Generated from GET /api/v1/openapi.json by openapi-typescript (test/openapi/client.test.ts); do not edit.
// SLOTWISE_UPDATE_CLIENT_TYPES=1 npx vitest run --project sqlite test/openapi/client.test.ts rewrites it.
export interface paths {
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who am I
         * @description Acting for a holder (`HolderMe`): the holder (with `calendarFeedUrl` for a key with the write scope) and the calling key. In account scope, an account key without `Slotwise-Holder` (`AccountMe`): the account and the calling key.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the public profile
         * @description Acting for a holder: sets the holder's `displayName` (shown to guests; `null` shows the name) and `handle` (the booking pages live under `/book/{handle}`; old page links stop working); a handle another holder has is a 409 `conflict`. In account scope: sets the account's `handle` (unique among accounts: another account's is a 409 `conflict`) and `displayName`.
         *
         *     Needs an API key with the `write` scope.
         */
        patch: operations["updateMe"];
        trace?: never;
    };
    "/api/v1/me/calendar-feed/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the calendar feed link
         * @description Makes a new `calendarFeedUrl`; the old one stops working at once. A holder has the feed: in account scope, name it in `Slotwise-Holder` (else 400).
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["rotateCalendarFeed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List event types
         * @description Oldest first, a page at a time. Acting for a holder: its own event types and the team event types it hosts. In account scope (an account key without `Slotwise-Holder`): every event type of the account, its team event types and every holder’s own; with `holderId`, what that holder would list (its own and the team event types it hosts).
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listEventTypes"];
        put?: never;
        /**
         * Create an event type
         * @description Acting for a holder (its key, or an account key with `Slotwise-Holder`): an event type of that holder; only `title` and `durationMinutes` are required, and `assignment` and `hosts` are refused (400). In account scope (an account key without `Slotwise-Holder`): a **team event type** of the account, which also requires `assignment` and `hosts` (1–100 holders of the account, each once; a round-robin type needs one that is not fixed), takes its hosts’ time and shows `holderId: null`; at most `TEAM_EVENT_TYPES_PER_ACCOUNT` live ones per account (1,000 by default; past that, 409 `limit-reached`). Without a `slug` one is derived from the title (with a numeric suffix when taken); an explicit `slug` that is taken (among the holder’s event types, or the account’s team event types) is a 409 `conflict`.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["createEventType"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/event-types/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an event type
         * @description One event type of the holder the request acts for, or a team event type it hosts; in account scope, any event type of the account.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["getEventType"];
        put?: never;
        post?: never;
        /**
         * Delete an event type
         * @description Its bookings stay readable; slots and new bookings for it answer as if it never existed. Only account scope deletes a team event type: its hosts get 403.
         *
         *     Needs an API key with the `write` scope.
         */
        delete: operations["deleteEventType"];
        options?: never;
        head?: never;
        /**
         * Update an event type
         * @description Changes only the fields sent, with the same rules as on create; a team event type’s `hosts` are replaced as a whole. Existing bookings keep their times, buffers and hosts. Only account scope changes a team event type: its hosts get 403.
         *
         *     Needs an API key with the `write` scope.
         */
        patch: operations["updateEventType"];
        trace?: never;
    };
    "/api/v1/availability": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the availability
         * @description The weekly hours and date overrides of the holder's default schedule (see `/schedules`). A new holder has Monday to Friday 09:00–17:00 in UTC.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["getAvailability"];
        /**
         * Replace the availability
         * @description Replaces the whole document of the holder's default schedule (its name stays): omitted weekdays are days off. Times are local `HH:MM` in `timeZone` (`end` may be `24:00`); intervals of a day must not overlap. An override replaces the weekly intervals of its local date (`[]` = day off). Event types without a `scheduleId` follow it at once.
         *
         *     Needs an API key with the `write` scope.
         */
        put: operations["replaceAvailability"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List schedules
         * @description The holder's weekly schedules: the default one (its availability) first, then the others oldest first, a page at a time.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listSchedules"];
        put?: never;
        /**
         * Create a schedule
         * @description Another set of weekly hours in its own zone, for event types to book in (`scheduleId`). Times are local `HH:MM` in `timeZone` (`end` may be `24:00`); intervals of a day must not overlap; omitted weekdays are days off. An override replaces the weekly intervals of its local date (`[]` = day off). A holder may have at most `SCHEDULES_PER_HOLDER` schedules, the default one included (50 by default); past that, 409 `limit-reached`.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a schedule
         * @description Needs an API key with the `read` scope.
         */
        get: operations["getSchedule"];
        /**
         * Replace a schedule
         * @description Replaces the whole schedule, its name too. Times are local `HH:MM` in `timeZone` (`end` may be `24:00`); intervals of a day must not overlap; omitted weekdays are days off. An override replaces the weekly intervals of its local date (`[]` = day off). The slots of the event types booked in it follow at once; existing bookings stay. The default schedule is the holder's availability: replacing it replaces `/availability`.
         *
         *     Needs an API key with the `write` scope.
         */
        put: operations["replaceSchedule"];
        post?: never;
        /**
         * Delete a schedule
         * @description The default schedule, and a schedule a live event type books in (`scheduleId`), cannot be deleted: 409 `conflict`.
         *
         *     Needs an API key with the `write` scope.
         */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/slots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bookable slots
         * @description Every bookable start of the event type in `[from, to)` (at most 62 days), ascending: on the availability grid, after the minimum notice, inside the booking window, under the daily cap, and clear of other bookings and their buffers. With `timeZone`, `start` and `end` carry that zone's offset; without, they are UTC. In account scope (an account key without `Slotwise-Holder`), the slots of the event type's holder, or of a team event type of the account (contract §14: each host's own schedule, bookings and holds of every event type, and busy time; collective: every host free; round robin: every fixed host and at least one other, or with `hostId` that one). A host reads the slots of the team event types it hosts.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listSlots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/holds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List live holds
         * @description The live holds, ascending by start: those made by API and those the booking pages made for guests picking a time (`source`), so the holder can see and release them. `from` and `to` bound the start (each optional, `to` after `from`); without them, every live hold. Expired, released and booked holds are gone. In account scope (an account key without `Slotwise-Holder`), those of every holder of the account and the account’s team holds, or the own holds of the one `holderId` names.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listHolds"];
        put?: never;
        /**
         * Hold a slot
         * @description Reserves a bookable start while the guest finishes (a form, a payment): until `expiresAt` it occupies its time exactly like a confirmed booking (buffers, daily limit), so `GET /slots` leaves it out and every overlapping booking or hold gets 409 `slot-unavailable`. Book it with `POST /bookings` and its `holdId`; release it with `DELETE /holds/{id}`. At `expiresAt` the time is free again. The start must be bookable, as for a booking. In account scope (an account key without `Slotwise-Holder`), holds for the holder of the event type, or for a **team event type** for the account: the hold occupies the hosts a booking would take (chosen the same way, or the round-robin host `hostId` names) and is booked onto them; it shows `holderId: null` and its `hostIds`, and is reached in account scope only.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["createHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/holds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a hold
         * @description A live hold. One that expired, was released or was booked is gone: 404.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["getHold"];
        put?: never;
        post?: never;
        /**
         * Release a hold
         * @description Frees the held time at once. A hold that expired, was released or was booked is gone: 404.
         *
         *     Needs an API key with the `write` scope.
         */
        delete: operations["releaseHold"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bookings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bookings
         * @description Confirmed bookings whose start is in `[from, to)`, ascending by start. `from` defaults to now, `to` to 62 days after `from`. Acting for a holder: its own bookings and the team bookings it hosts (`hostIds`). In account scope (an account key without `Slotwise-Holder`), every booking of the account (deleted holders' too, and the team bookings, `holderId: null`), or what the holder `holderId` names would list.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listBookings"];
        put?: never;
        /**
         * Book a slot
         * @description Succeeds exactly when `start` is bookable at this moment (as `GET /slots` would list it); otherwise a 409 `slot-unavailable` says why. Two requests never both get the same time, nor any host two overlapping bookings or holds. With `holdId`, books the live hold’s time as it was reserved (on its hosts) and ends the hold, in one step; a hold that expired, was released or was booked already is a 409 `hold-expired`. In account scope (an account key without `Slotwise-Holder`), books for the holder of the event type (or of the hold), or, for a **team event type**, for the account: a collective type takes every host, a round-robin type every fixed host and one other, the one `hostId` names or else the one the rule chooses (highest `priority`, then lowest load ÷ `weight` over the last 30 days, then booked longest ago, then smallest id); the booking shows `holderId: null` and its `hostIds`.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["createBooking"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bookings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a booking
         * @description One booking of the holder the request acts for, or a team booking it hosts, in any status; in account scope, any booking of the account (a deleted holder’s too, and its team bookings).
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["getBooking"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a booking's metadata
         * @description Sets the `metadata` keys sent and removes those sent as `null`; the others stay. Allowed in any status; at most 50 keys in all. Nothing else of a booking changes this way: cancel and reschedule are their own operations. A deleted holder’s bookings stay readable and unchanged: 409 `invalid-state`.
         *
         *     Needs an API key with the `write` scope.
         */
        patch: operations["updateBookingMetadata"];
        trace?: never;
    };
    "/api/v1/bookings/{id}/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a booking's notifications
         * @description The e-mails its changes sent or are sending (contract §16), oldest first: one per recipient and change, with how far each got. Seen by whoever sees the booking (`GET /bookings/:id`). Empty when the service sends no e-mail (no `SMTP_URL`). Kept as long as webhook deliveries (`WEBHOOK_RETENTION_DAYS` after they finished).
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listBookingNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bookings/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a booking
         * @description Cancels a `confirmed` booking (a host may cancel a team booking it hosts); the body (and `reason`) may be omitted. Any other status, or a booking of a deleted holder, is a 409 `invalid-state`.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["cancelBooking"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bookings/{id}/reschedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reschedule a booking
         * @description Creates a new `confirmed` booking at `start` (with `rescheduledFromId`) and marks the old one `rescheduled` (with `rescheduledToId`), in one transaction. The new start is judged as if the old booking were gone. A team booking keeps its hosts when they are all free at the new start; a round-robin one whose hosts are not gets the type’s fixed hosts and another by the rule, or with `hostId` that host (also at the same start: a reassignment); a 409 `slot-unavailable` only when no assignment is possible. A host may reschedule a team booking it hosts. A booking that is not `confirmed`, or of a deleted holder, is a 409 `invalid-state`.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["rescheduleBooking"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description The webhooks the request reaches, oldest first, a page at a time: acting for a holder (a holder key, or an account key with `Slotwise-Holder`), that holder’s; in account scope, every webhook of the account, the account webhooks and every holder’s, which `holderId` narrows to one holder’s (one the key cannot see: 400 on `holderId`). Secrets are never listed.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook
         * @description Acting for a holder, registers a webhook of that holder, which hears its events; in account scope (an account key without `Slotwise-Holder`), an account webhook (`holderId` null), which hears every event of the account, every holder’s. Deliveries are signed per Standard Webhooks with the `secret`, which only this response shows. `events` defaults to every event type (bookings and calendar sources). Loopback, private and metadata addresses are refused unless the server allows them. A holder may have at most `WEBHOOK_LIMIT_PER_HOLDER` webhooks and an account at most `WEBHOOK_LIMIT_PER_ACCOUNT` account webhooks (25 each by default); past that, 409 `limit-reached`. Replayed under its `Idempotency-Key` (secret included) only while the webhook exists: after it was deleted, the replay is a 409 `invalid-state` without the secret.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description One webhook the request reaches (acting for a holder: that holder’s; in account scope: any of the account), without its secret. Any other id is 404.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Stops all deliveries to it, pending retries included.
         *
         *     Needs an API key with the `write` scope.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Update a webhook
         * @description Changes only the fields sent: `url`, `events`, `active`, `description`.
         *
         *     Needs an API key with the `write` scope.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a signed `webhook.test` event to the webhook and returns its delivery; the body may be omitted. An inactive webhook is a 409 `invalid-state`.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["sendWebhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deliveries of a webhook
         * @description Its deliveries, newest first, each with its attempts: status code, duration, error, response excerpt and next retry.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a delivery
         * @description Sends a finished (succeeded or failed) delivery again now, with a fresh retry schedule. A pending delivery or an inactive webhook is a 409 `invalid-state`.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/calendar-sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List calendar sources
         * @description The key holder's calendar sources, oldest first, a page at a time. An ICS source shows only its address's origin; no source shows a password.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listCalendarSources"];
        put?: never;
        /**
         * Add a calendar source
         * @description Its events become busy time (contract §11). `ics`: a calendar's secret address (`https://` or `webcal://`, as Google, Outlook and Apple publish it). `caldav`: a calendar collection's URL with `username` and `password` (Nextcloud, Radicale, Fastmail, iCloud). The address and credentials are stored encrypted and never shown again. The source is `pending` until its first sync, which starts at once. Loopback, private and metadata addresses are refused unless `CALENDAR_ALLOW_PRIVATE_TARGETS=true`. A holder may have at most `CALENDAR_SOURCES_PER_HOLDER` sources (10 by default); past that, 409 `limit-reached`.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["createCalendarSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/calendar-sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a calendar source
         * @description One calendar source of the key holder, with how its last sync went.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["getCalendarSource"];
        put?: never;
        post?: never;
        /**
         * Delete a calendar source
         * @description Removes the source and its busy time: its events no longer keep slots from being offered.
         *
         *     Needs an API key with the `write` scope.
         */
        delete: operations["deleteCalendarSource"];
        options?: never;
        head?: never;
        /**
         * Update a calendar source
         * @description Changes only the fields sent: `name`, `url`, `username`, `password`. A new address or new credentials make the source `pending` and sync it at once; its busy time stays until that sync replaces it.
         *
         *     Needs an API key with the `write` scope.
         */
        patch: operations["updateCalendarSource"];
        trace?: never;
    };
    "/api/v1/calendar-sources/{id}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync a calendar source now
         * @description Reads the source now and answers with it: `status`, `lastSyncedAt` and `lastError` tell how it went. The body may be omitted. A call while a sync of the source is under way on the same server (the periodic one or another call's) answers with that sync's result instead of reading the source again; one under way on another instance is waited for. Otherwise a source is read on request at most once every 30 seconds: sooner, 429 `rate-limited` with `Retry-After`, and nothing is read. A server's syncs take turns (`CALENDAR_SYNC_CONCURRENCY` reads at once, their parses one at a time, holders in turn; docs/api.md, "Limits"), so the answer may wait for other syncs.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["syncCalendarSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/busy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List busy time
         * @description The busy intervals the holder's calendar sources contribute in [`from`, `to`) (at most 62 days), by start, a page at a time. Slots and bookings leave them out (with each event type's buffers).
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listBusy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/holders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List holders
         * @description The account's live holders, oldest first, a page at a time; `handle` and `email` narrow the list to the holders with exactly that value. Account scope only: acting for a holder, this route does not exist (404, as an unknown route).
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listHolders"];
        put?: never;
        /**
         * Create a holder
         * @description A holder of the account, with its default availability (Mon–Fri 09:00–17:00 in `timeZone`, `UTC` by default). A `name` taken among the account's live holders, or a `handle` taken among all live holders, is a 409 `conflict` whose `errors` name the field. An account may have at most `HOLDERS_PER_ACCOUNT` live holders (10,000 by default); past that, 409 `limit-reached`. Account scope only: acting for a holder, this route does not exist (404, as an unknown route).
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["createHolder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/holders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a holder
         * @description A live holder of the account; a deleted one, or another account’s, is not found.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["getHolder"];
        put?: never;
        post?: never;
        /**
         * Delete a holder
         * @description Refused with 409 `invalid-state` while the holder has a confirmed booking that has not ended. Otherwise, at once and together: its keys answer 401, its booking pages and calendar feed 404, `Slotwise-Holder` naming it 404; its live holds are released, its webhooks (with their pending deliveries), calendar sources (with their busy time) and event types deleted. Its name and handle are free again. Its bookings stay, readable by the account's keys by id.
         *
         *     Needs an API key with the `write` scope.
         */
        delete: operations["deleteHolder"];
        options?: never;
        head?: never;
        /**
         * Update a holder
         * @description Changes only the fields sent: `name`, `handle` (the booking pages move with it; old page links stop working), `displayName` (`null` shows the name), `email` (`null` removes it). A name or handle another live holder has is a 409 `conflict` naming the field.
         *
         *     Needs an API key with the `write` scope.
         */
        patch: operations["updateHolder"];
        trace?: never;
    };
    "/api/v1/holders/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a holder's keys
         * @description Its keys, revoked ones too (with `revokedAt`), oldest first; never the key itself.
         *
         *     Needs an API key with the `read` scope.
         */
        get: operations["listHolderKeys"];
        put?: never;
        /**
         * Create a key for a holder
         * @description A key that acts for this holder only. The `key` is shown in this response only (the server keeps its SHA-256); replayed under its `Idempotency-Key` only while the key is not revoked, after that a 409 `invalid-state` without it. A holder may have at most `KEYS_PER_HOLDER` keys that are not revoked (50 by default; expired ones count until revoked); past that, 409 `limit-reached`.
         *
         *     Needs an API key with the `write` scope. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["createHolderKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/holders/{id}/keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a holder's key
         * @description The key answers 401 from the next request on this instance, and within a second on every other. An unknown key, another holder’s, or one revoked already is not found.
         *
         *     Needs an API key with the `write` scope.
         */
        delete: operations["revokeHolderKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An RFC 9457 problem document; the API description lists when each `type` happens. */
        Problem: {
            /**
             * @description What went wrong, as a stable URN: branch on this, not on `title` or `detail`.
             * @enum {string}
             */
            type: "urn:service:problem:invalid-request" | "urn:service:problem:unauthorized" | "urn:service:problem:forbidden" | "urn:service:problem:not-found" | "urn:service:problem:method-not-allowed" | "urn:service:problem:slot-unavailable" | "urn:service:problem:invalid-state" | "urn:service:problem:conflict" | "urn:service:problem:limit-reached" | "urn:service:problem:hold-expired" | "urn:service:problem:idempotency-conflict" | "urn:service:problem:payload-too-large" | "urn:service:problem:unsupported-media-type" | "urn:service:problem:idempotency-key-reused" | "urn:service:problem:rate-limited" | "urn:service:problem:internal" | "urn:service:problem:unavailable";
            title: string;
            status: number;
            /** @description What went wrong in this request, for people. */
            detail: string;
            /** @description With `invalid-request`: one entry per failing field, e.g. `weekly.monday[0].start`. */
            errors?: {
                field: string;
                message: string;
            }[];
        };
        Location: {
            /**
             * @description `address`, `link` (an online meeting), `phone` or `text` (anything else)
             * @enum {string}
             */
            type: "address" | "link" | "phone" | "text";
            /** @description For a `link`, an absolute https URL (else a 400 on `location.value`) */
            value: string;
        };
        EventType: {
            /** @description Opaque id, `evt_…` */
            id: string;
            /** @description The holder the event type belongs to (`hdr_…`), or null for what the account itself owns (team event types and their bookings and holds). Read-only. */
            holderId: string | null;
            title: string;
            slug: string;
            description: string | null;
            durationMinutes: number;
            slotIntervalMinutes: number;
            bufferBeforeMinutes: number;
            bufferAfterMinutes: number;
            minimumNoticeMinutes: number;
            bookingWindowDays: number | null;
            maxBookingsPerDay: number | null;
            /** @description Guests one time takes; null = one */
            seats: number | null;
            /** @description Where its meetings take place; null = not said */
            location: components["schemas"]["Location"] | null;
            /** @description When its bookings are reminded of, as set; `[]` = none */
            reminders: {
                minutesBefore: number;
            }[];
            /** @description Who is e-mailed when a booking of it is made, moved or cancelled */
            notifications: {
                guest: boolean;
                hosts: boolean;
            };
            public: boolean;
            questions: {
                id: string;
                label: string;
                /** @enum {string} */
                type: "text" | "textarea" | "email" | "phone" | "number" | "select" | "multiselect" | "checkbox";
                required: boolean;
                options: string[] | null;
            }[];
            /** @description The holder's schedule offering its times; null = the default schedule, and for a team event type */
            scheduleId: string | null;
            /** @description A team event type's (`collective` or `round-robin`); null for a holder's own */
            assignment: ("collective" | "round-robin") | null;
            /** @description A team event type's hosts, in order, every field filled; null for a holder's own */
            hosts: {
                holderId: string;
                scheduleId: string | null;
                fixed: boolean;
                priority: number;
                weight: number;
            }[] | null;
            bookingPageUrl: string | null;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            updatedAt: string;
        };
        /** @description Acting for a holder, an event type of that holder; in account scope (an account key without `Slotwise-Holder`), a team event type of the account, with `assignment` and `hosts`. */
        CreateEventType: {
            /** @description One line: control characters (line breaks, tabs) are refused */
            title: string;
            durationMinutes: number;
            /** @description Unique among the holder's event types (a team event type's: among its account's team event types); derived from the title when omitted */
            slug?: string;
            description?: string | null;
            /** @description Distance between slot starts; null = the duration */
            slotIntervalMinutes?: number | null;
            /** @description Kept free before each booking */
            bufferBeforeMinutes?: number;
            /** @description Kept free after each booking */
            bufferAfterMinutes?: number;
            /** @description How far ahead of now a start must be */
            minimumNoticeMinutes?: number;
            /** @description How far into the future starts may be; null = unlimited */
            bookingWindowDays?: number | null;
            /** @description Confirmed bookings per local date of its schedule's zone; null = unlimited */
            maxBookingsPerDay?: number | null;
            /** @description The holder's schedule (`sch_…`) whose hours and zone it is booked in; null = the default schedule (the availability). Another holder's or an unknown schedule is a 400 on `scheduleId`. A team event type's is null (sending another is a 400): each host names its own. */
            scheduleId?: string | null;
            /** @description Guests one time takes (contract §15): each seat is its own booking, the time is free again when the last seat goes, and `/slots` entries carry `seatsLeft`. Null = one guest. Not with `round-robin` (400 on `seats`). Lowered below the seats an occurrence has, its guests stay and no one joins until it is below. */
            seats?: number | null;
            /** @description Where its meetings take place (contract §16): shown on its booking page, copied to each booking made or moved (later edits leave existing bookings), and written to calendar files and e-mails. Null = not said. */
            location?: components["schemas"]["Location"] | null;
            /** @description When its bookings are reminded of (contract §16): up to 5, each `minutesBefore` once (else a 400 on `reminders`). At `start − minutesBefore` of each confirmed booking, the `booking.reminder` webhook event. A booking takes the event type's reminders when it is made or moved (a reschedule schedules them afresh for the new time); one whose time is already past then is never sent; a cancelled or moved booking's are not sent. Later edits leave existing bookings. Default none. */
            reminders?: {
                /** @description Minutes before a booking's start (5 to 10080, a week) */
                minutesBefore: number;
            }[];
            /** @description Who is e-mailed when a booking of it is made, moved or cancelled (contract §16; only when the service has SMTP_URL). A field not sent keeps its value (on creation: true). */
            notifications?: {
                /** @description Whether the guest is e-mailed; default true */
                guest?: boolean;
                /** @description Whether every host with an `email` is e-mailed; default true */
                hosts?: boolean;
            };
            /** @description Whether guests can book it on its booking page (`bookingPageUrl`) */
            public?: boolean;
            /** @description What a booking answers (in `answers`), in order */
            questions?: {
                /** @description The key of its answer in `answers` */
                id: string;
                /** @description One line: control characters (line breaks, tabs) are refused */
                label: string;
                /** @enum {string} */
                type: "text" | "textarea" | "email" | "phone" | "number" | "select" | "multiselect" | "checkbox";
                /** @default false */
                required: boolean;
                /** @description The choices; for select and multiselect questions only */
                options?: string[];
            }[];
            /**
             * @description Team event types only (account scope, where it is required): `collective` books every host, `round-robin` every fixed host and one other
             * @enum {string}
             */
            assignment?: "collective" | "round-robin";
            /** @description Team event types only (account scope, where it is required): holders of the account, each once, in order. A PATCH replaces the whole list; existing bookings keep their hosts. */
            hosts?: {
                /** @description Opaque id, `hdr_…` */
                holderId: string;
                /** @description The host's schedule offering the times; null (default) = the host's default schedule */
                scheduleId?: string | null;
                /**
                 * @description Round robin: a fixed host attends every booking, besides the one chosen
                 * @default false
                 */
                fixed: boolean;
                /**
                 * @description Round robin: hosts of a higher priority are chosen first
                 * @default 2
                 */
                priority: number;
                /**
                 * @description Round robin: hosts of one priority share bookings in proportion to their weights
                 * @default 100
                 */
                weight: number;
            }[];
        };
        UpdateEventType: {
            /** @description One line: control characters (line breaks, tabs) are refused */
            title?: string;
            durationMinutes?: number;
            /** @description Unique among the holder's event types (a team event type's: among its account's team event types); derived from the title when omitted */
            slug?: string;
            description?: string | null;
            /** @description Distance between slot starts; null = the duration */
            slotIntervalMinutes?: number | null;
            /** @description Kept free before each booking */
            bufferBeforeMinutes?: number;
            /** @description Kept free after each booking */
            bufferAfterMinutes?: number;
            /** @description How far ahead of now a start must be */
            minimumNoticeMinutes?: number;
            /** @description How far into the future starts may be; null = unlimited */
            bookingWindowDays?: number | null;
            /** @description Confirmed bookings per local date of its schedule's zone; null = unlimited */
            maxBookingsPerDay?: number | null;
            /** @description The holder's schedule (`sch_…`) whose hours and zone it is booked in; null = the default schedule (the availability). Another holder's or an unknown schedule is a 400 on `scheduleId`. A team event type's is null (sending another is a 400): each host names its own. */
            scheduleId?: string | null;
            /** @description Guests one time takes (contract §15): each seat is its own booking, the time is free again when the last seat goes, and `/slots` entries carry `seatsLeft`. Null = one guest. Not with `round-robin` (400 on `seats`). Lowered below the seats an occurrence has, its guests stay and no one joins until it is below. */
            seats?: number | null;
            /** @description Where its meetings take place (contract §16): shown on its booking page, copied to each booking made or moved (later edits leave existing bookings), and written to calendar files and e-mails. Null = not said. */
            location?: components["schemas"]["Location"] | null;
            /** @description When its bookings are reminded of (contract §16): up to 5, each `minutesBefore` once (else a 400 on `reminders`). At `start − minutesBefore` of each confirmed booking, the `booking.reminder` webhook event. A booking takes the event type's reminders when it is made or moved (a reschedule schedules them afresh for the new time); one whose time is already past then is never sent; a cancelled or moved booking's are not sent. Later edits leave existing bookings. Default none. */
            reminders?: {
                /** @description Minutes before a booking's start (5 to 10080, a week) */
                minutesBefore: number;
            }[];
            /** @description Who is e-mailed when a booking of it is made, moved or cancelled (contract §16; only when the service has SMTP_URL). A field not sent keeps its value (on creation: true). */
            notifications?: {
                /** @description Whether the guest is e-mailed; default true */
                guest?: boolean;
                /** @description Whether every host with an `email` is e-mailed; default true */
                hosts?: boolean;
            };
            /** @description Whether guests can book it on its booking page (`bookingPageUrl`) */
            public?: boolean;
            /** @description What a booking answers (in `answers`), in order */
            questions?: {
                /** @description The key of its answer in `answers` */
                id: string;
                /** @description One line: control characters (line breaks, tabs) are refused */
                label: string;
                /** @enum {string} */
                type: "text" | "textarea" | "email" | "phone" | "number" | "select" | "multiselect" | "checkbox";
                /** @default false */
                required: boolean;
                /** @description The choices; for select and multiselect questions only */
                options?: string[];
            }[];
            /**
             * @description Team event types only (account scope, where it is required): `collective` books every host, `round-robin` every fixed host and one other
             * @enum {string}
             */
            assignment?: "collective" | "round-robin";
            /** @description Team event types only (account scope, where it is required): holders of the account, each once, in order. A PATCH replaces the whole list; existing bookings keep their hosts. */
            hosts?: {
                /** @description Opaque id, `hdr_…` */
                holderId: string;
                /** @description The host's schedule offering the times; null (default) = the host's default schedule */
                scheduleId?: string | null;
                /**
                 * @description Round robin: a fixed host attends every booking, besides the one chosen
                 * @default false
                 */
                fixed: boolean;
                /**
                 * @description Round robin: hosts of a higher priority are chosen first
                 * @default 2
                 */
                priority: number;
                /**
                 * @description Round robin: hosts of one priority share bookings in proportion to their weights
                 * @default 100
                 */
                weight: number;
            }[];
        };
        Availability: {
            timeZone: string;
            weekly: {
                monday: {
                    start: string;
                    end: string;
                }[];
                tuesday: {
                    start: string;
                    end: string;
                }[];
                wednesday: {
                    start: string;
                    end: string;
                }[];
                thursday: {
                    start: string;
                    end: string;
                }[];
                friday: {
                    start: string;
                    end: string;
                }[];
                saturday: {
                    start: string;
                    end: string;
                }[];
                sunday: {
                    start: string;
                    end: string;
                }[];
            };
            overrides: {
                date: string;
                intervals: {
                    start: string;
                    end: string;
                }[];
            }[];
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            updatedAt: string;
        };
        AvailabilityInput: {
            /**
             * Format: iana-time-zone
             * @description IANA time zone name, e.g. Europe/Berlin
             */
            timeZone: string;
            weekly: {
                monday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                tuesday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                wednesday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                thursday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                friday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                saturday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                sunday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
            };
            overrides?: {
                /** @description YYYY-MM-DD */
                date: string;
                intervals: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
            }[];
        };
        Schedule: {
            /** @description Opaque id, `sch_…` */
            id: string;
            name: string;
            timeZone: string;
            weekly: {
                monday: {
                    start: string;
                    end: string;
                }[];
                tuesday: {
                    start: string;
                    end: string;
                }[];
                wednesday: {
                    start: string;
                    end: string;
                }[];
                thursday: {
                    start: string;
                    end: string;
                }[];
                friday: {
                    start: string;
                    end: string;
                }[];
                saturday: {
                    start: string;
                    end: string;
                }[];
                sunday: {
                    start: string;
                    end: string;
                }[];
            };
            overrides: {
                date: string;
                intervals: {
                    start: string;
                    end: string;
                }[];
            }[];
            /** @description Whether it is the holder's default schedule: its availability (`/availability`), listed first */
            default: boolean;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            updatedAt: string;
        };
        ScheduleInput: {
            /** @description One line: control characters (line breaks, tabs) are refused */
            name: string;
            /**
             * Format: iana-time-zone
             * @description IANA time zone name, e.g. Europe/Berlin
             */
            timeZone: string;
            weekly: {
                monday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                tuesday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                wednesday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                thursday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                friday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                saturday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
                sunday?: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
            };
            overrides?: {
                /** @description YYYY-MM-DD */
                date: string;
                intervals: {
                    /** @description HH:MM; end may be 24:00 */
                    start: string;
                    /** @description HH:MM; end may be 24:00 */
                    end: string;
                }[];
            }[];
        };
        Booking: {
            /** @description Opaque id, `bkg_…` */
            id: string;
            /** @description The holder the booking belongs to (`hdr_…`), or null for what the account itself owns (team event types and their bookings and holds). Read-only. */
            holderId: string | null;
            /** @description The holders whose time the booking occupies (`hdr_…`), fixed when it was made: for a personal event type, its holder; for a team type, the hosts it was assigned. Read-only. */
            hostIds: string[];
            eventTypeId: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            start: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            end: string;
            /** @enum {string} */
            status: "confirmed" | "cancelled" | "rescheduled";
            guestName: string;
            guestEmail: string;
            guestTimeZone: string | null;
            /** @enum {string} */
            guestLanguage: "en" | "de";
            notes: string | null;
            cancellationReason: string | null;
            cancelledAt: string | null;
            rescheduledFromId: string | null;
            rescheduledToId: string | null;
            answers: {
                [key: string]: string | number | boolean | string[];
            };
            metadata: {
                [key: string]: string;
            };
            /**
             * @description `api`, or `page` when a guest booked on the booking page
             * @enum {string}
             */
            source: "api" | "page";
            /** @description The event type's location when the booking was made or last moved (read-only; later edits of the event type leave it); null = none */
            location: components["schemas"]["Location"] | null;
            /** @description The guest's link to see, cancel and reschedule the booking. Only for keys with the write scope (and in webhooks): whoever has it can cancel. */
            manageUrl?: string;
            /** @description The booking’s appointment as an iCalendar file (contract §16): its latest booking, so after a reschedule this link shows the appointment where it was moved, under the first booking’s UID. Only for keys with the write scope (and in webhooks). Opens in exactly this form; at most `PUBLIC_FILE_RATE_LIMIT_PER_MINUTE` requests a minute (429 with Retry-After past it). */
            icsUrl?: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            updatedAt: string;
        };
        CreateBooking: {
            /** @description Required unless `holdId` is given; with it, if sent, must be the hold’s */
            eventTypeId?: string;
            start?: components["schemas"]["Instant"];
            /** @description Books this live hold’s time (`hld_…`) and ends the hold; `start` and `eventTypeId` may then be left out */
            holdId?: string;
            /** @description One line: control characters (line breaks, tabs) are refused */
            guestName: string;
            /** Format: email */
            guestEmail: string;
            /**
             * Format: iana-time-zone
             * @description IANA time zone name, e.g. Europe/Berlin
             */
            guestTimeZone?: string;
            /**
             * @description The language of the guest's e-mails (contract §16): `en` (default) or `de`; a booking page sets the page's
             * @enum {string}
             */
            guestLanguage?: "en" | "de";
            notes?: string;
            /** @description Question id → answer, checked against the event type's `questions` (errors as `answers.<id>`) */
            answers?: {
                [key: string]: string | number | boolean | string[];
            };
            /** @description Your own string values (keys `[A-Za-z0-9_.-]`, 1–40; values up to 500 characters; at most 50) */
            metadata?: {
                [key: string]: string;
            };
            /** @description Round-robin team event types only (contract §14): the host (`hdr_…`) to book; with `holdId`, if sent, one of the hold’s `hostIds`, instead of the one the service would choose; it must be a host of the type that is not fixed (else 400 on `hostId`), and if it is not free, the answer is 409 `slot-unavailable`. A holder's own or a collective event type takes none (400). */
            hostId?: string;
        };
        UpdateBooking: {
            /** @description The keys to set; `null` removes a key */
            metadata: {
                [key: string]: string | null;
            };
        };
        CancelBooking: {
            reason?: string;
        };
        RescheduleBooking: {
            start: components["schemas"]["Instant"];
            reason?: string;
            /** @description Round-robin team event types only (contract §14): the host (`hdr_…`) the new booking goes to, with the type’s fixed hosts, also at the same start (a reassignment); without it, the booking keeps its hosts when they are free at the new start, and a round-robin one gets another host by the rule when they are not, instead of the one the service would choose; it must be a host of the type that is not fixed (else 400 on `hostId`), and if it is not free, the answer is 409 `slot-unavailable`. A holder's own or a collective event type takes none (400). */
            hostId?: string;
        };
        Notification: {
            /** @description Opaque id, `ntf_…` */
            id: string;
            /**
             * @description `email`, or `calendar` (a write to the host’s own calendar)
             * @enum {string}
             */
            channel: "email" | "calendar";
            /**
             * @description What it tells: the booking was made, moved or cancelled, or is coming up
             * @enum {string}
             */
            kind: "created" | "rescheduled" | "cancelled" | "reminder";
            /** @description An e-mail address, or a calendar source’s id */
            recipient: string;
            /**
             * @description `pending` (not yet sent, or to be retried), `sent` (the SMTP server accepted it) or `failed` (refused with a 5xx reply, retried to the end of the schedule, or over `EMAIL_PER_RECIPIENT_PER_HOUR`)
             * @enum {string}
             */
            status: "pending" | "sent" | "failed";
            /** @description Attempts so far */
            attempts: number;
            /** @description The last attempt’s error (the SMTP server’s reply, or the connection’s failure); null once sent */
            lastError: string | null;
            /** @description When it was sent; null until then */
            sentAt: string | null;
        };
        Hold: {
            /** @description Opaque id, `hld_…` */
            id: string;
            /** @description The holder the hold belongs to (`hdr_…`), or null for what the account itself owns (team event types and their bookings and holds). Read-only. */
            holderId: string | null;
            /** @description The holders whose time the hold occupies (`hdr_…`), fixed when it was made: for a personal event type, its holder; for a team type, the hosts it was assigned. Read-only. */
            hostIds: string[];
            eventTypeId: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            start: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            end: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            expiresAt: string;
            /**
             * @description Where the hold was made: by API, or by a guest on a booking page
             * @enum {string}
             */
            source: "api" | "page";
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
        };
        CreateHold: {
            eventTypeId: string;
            start: components["schemas"]["Instant"];
            /** @description How long the hold lives, in seconds (default 300) */
            expiresInSeconds?: number;
            /** @description Round-robin team event types only (contract §14): the host (`hdr_…`) to hold (and book when the hold is converted), instead of the one the service would choose; it must be a host of the type that is not fixed (else 400 on `hostId`), and if it is not free, the answer is 409 `slot-unavailable`. A holder's own or a collective event type takes none (400). */
            hostId?: string;
        };
        UpdateMe: {
            displayName?: string | null;
            /** @description A holder's: unique among holders, its booking pages live under `/book/{handle}`. An account's (account scope): unique among accounts. */
            handle?: string;
        };
        /** @description Acting for a holder (a holder key, or an account key with `Slotwise-Holder`): the holder and the key. */
        HolderMe: {
            holder: {
                id: string;
                name: string;
                handle: string;
                /** @description Shown to guests: the name unless set */
                displayName: string;
                /** @description The holder's bookings as an iCalendar feed, one event per appointment (a booking and the bookings it was rescheduled into, contract §16); only for keys with the write scope. It answers `If-None-Match` with its `ETag` (304 while nothing it shows changed) and opens at most `PUBLIC_FILE_RATE_LIMIT_PER_MINUTE` times a minute, counted per link (429 with Retry-After past it). */
                calendarFeedUrl?: string;
            };
            key: {
                /** @description Opaque id, `key_…` */
                id: string;
                scopes: ("read" | "write" | "*")[];
                /**
                 * Format: date-time
                 * @description UTC, e.g. 2026-01-05T08:00:00.000Z
                 */
                createdAt: string;
                expiresAt: string | null;
            };
        };
        /** @description In account scope (an account key without `Slotwise-Holder`): the account and the key. */
        AccountMe: {
            account: {
                /** @description Opaque id, `acc_…` */
                id: string;
                /** @description What `keys create --account` names */
                name: string;
                /** @description Unique among accounts */
                handle: string;
                /** @description Shown to guests: the name unless set */
                displayName: string;
            };
            key: {
                /** @description Opaque id, `key_…` */
                id: string;
                scopes: ("read" | "write" | "*")[];
                /**
                 * Format: date-time
                 * @description UTC, e.g. 2026-01-05T08:00:00.000Z
                 */
                createdAt: string;
                expiresAt: string | null;
            };
        };
        /** @description One of two shapes, by whom the request acts for: `HolderMe` (with `holder`) when it acts for a holder, `AccountMe` (with `account`) in account scope. */
        Me: components["schemas"]["HolderMe"] | components["schemas"]["AccountMe"];
        Holder: {
            /** @description Opaque id, `hdr_…` */
            id: string;
            name: string;
            handle: string;
            /** @description As set; null shows the name to guests */
            displayName: string | null;
            email: string | null;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            updatedAt: string;
        };
        CreateHolder: {
            /** @description Unique among the account's live holders; one line (control characters are refused) */
            name: string;
            /** @description Unique among live holders; the booking pages live under `/book/{handle}`. Default: derived from the name, the first free one (`ada`, `ada-2`, …) */
            handle?: string;
            /** @description Shown to guests; null shows the name */
            displayName?: string | null;
            email?: string | null;
            /**
             * Format: iana-time-zone
             * @description IANA: the zone of the holder's default availability, Mon–Fri 09:00–17:00; default `UTC`
             */
            timeZone?: string;
        };
        UpdateHolder: {
            /** @description Unique among the account's live holders; one line (control characters are refused) */
            name?: string;
            /** @description Unique among live holders; the booking pages live under `/book/{handle}` */
            handle?: string;
            /** @description Shown to guests; null shows the name */
            displayName?: string | null;
            email?: string | null;
        };
        HolderKey: {
            /** @description Opaque id, `key_…` */
            id: string;
            scopes: ("read" | "write" | "*")[];
            expiresAt: string | null;
            description: string | null;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /** @description When it was revoked; null while it works */
            revokedAt: string | null;
        };
        HolderKeyWithSecret: {
            /** @description Opaque id, `key_…` */
            id: string;
            scopes: ("read" | "write" | "*")[];
            expiresAt: string | null;
            description: string | null;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /** @description The API key, `sw_…`: shown only in this response */
            key: string;
        };
        CreateHolderKey: {
            /** @description `read` (GET), `write` (every other method), `*` (both) */
            scopes: ("read" | "write" | "*")[];
            /** @description Days until the key stops working; never when omitted */
            expiresInDays?: number;
            description?: string | null;
        };
        /** @description ISO-8601 with an explicit offset (`Z` or `±hh:mm`), or integer epoch milliseconds */
        Instant: string | number;
        Webhook: {
            /** @description Opaque id, `whk_…` */
            id: string;
            /** @description Read-only. The holder whose webhook it is: it hears that holder’s events. Null for an account webhook (registered in account scope), which hears every event of the account. */
            holderId: string | null;
            url: string;
            events: string[];
            description: string | null;
            active: boolean;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            updatedAt: string;
        };
        WebhookWithSecret: {
            /** @description Opaque id, `whk_…` */
            id: string;
            /** @description Read-only. The holder whose webhook it is: it hears that holder’s events. Null for an account webhook (registered in account scope), which hears every event of the account. */
            holderId: string | null;
            url: string;
            events: string[];
            description: string | null;
            active: boolean;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            updatedAt: string;
            /** @description Signing secret, `whsec_…`; shown only in this response */
            secret: string;
        };
        CreateWebhook: {
            /** @description Absolute http(s) URL */
            url: string;
            events?: ("booking.created" | "booking.cancelled" | "booking.rescheduled" | "booking.reminder" | "calendar_source.failed" | "calendar_source.recovered")[];
            description?: string | null;
            active?: boolean;
        };
        UpdateWebhook: {
            /** @description Absolute http(s) URL */
            url?: string;
            events?: ("booking.created" | "booking.cancelled" | "booking.rescheduled" | "booking.reminder" | "calendar_source.failed" | "calendar_source.recovered")[];
            description?: string | null;
            active?: boolean;
        };
        WebhookDelivery: {
            /** @description Opaque id, `dlv_…` */
            id: string;
            /** @description The `webhook-id` header of every attempt: stable across retries */
            eventId: string;
            eventType: string;
            webhookId: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attemptCount: number;
            nextAttemptAt: string | null;
            attempts: {
                attempt: number;
                /**
                 * Format: date-time
                 * @description UTC, e.g. 2026-01-05T08:00:00.000Z
                 */
                startedAt: string;
                durationMs: number;
                statusCode: number | null;
                error: string | null;
                responseExcerpt: string | null;
            }[];
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            updatedAt: string;
        };
        CalendarSource: {
            /** @description Opaque id, `cal_…` */
            id: string;
            /** @enum {string} */
            type: "ics" | "caldav";
            name: string | null;
            /** @description For `ics` only the origin (the rest of a secret address is a credential); for `caldav` the URL */
            url: string;
            /** @enum {string} */
            status: "pending" | "ok" | "error";
            /** @description When a sync last succeeded */
            lastSyncedAt: string | null;
            /** @description Why the last sync failed; null once one succeeds */
            lastError: string | null;
            /** @description CalDAV only: every booking the holder hosts is written to this calendar (created, moved, removed), through the outbox with retries; at most one source per holder (else 409 `conflict`). Switching it on writes the holder's future confirmed bookings; switching it off leaves what was written. */
            writeBookings: boolean;
            /** @description Why the last write of a booking to this calendar failed; null when it succeeded (or none was made) */
            lastWriteError: string | null;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            updatedAt: string;
        };
        CreateCalendarSource: {
            /** @enum {string} */
            type: "ics" | "caldav";
            /** @description Absolute http, https or webcal URL, without user name or password */
            url: string;
            /** @description CalDAV only (HTTP Basic) */
            username?: string;
            /** @description CalDAV only; stored encrypted, never shown */
            password?: string;
            name?: string | null;
            /** @description CalDAV only: every booking the holder hosts is written to this calendar (created, moved, removed), through the outbox with retries; at most one source per holder (else 409 `conflict`). Switching it on writes the holder's future confirmed bookings; switching it off leaves what was written. */
            writeBookings?: boolean;
        };
        UpdateCalendarSource: {
            name?: string | null;
            /** @description Absolute http, https or webcal URL, without user name or password */
            url?: string;
            /** @description CalDAV only (HTTP Basic) */
            username?: string;
            /** @description CalDAV only; stored encrypted, never shown */
            password?: string;
            /** @description CalDAV only: every booking the holder hosts is written to this calendar (created, moved, removed), through the outbox with retries; at most one source per holder (else 409 `conflict`). Switching it on writes the holder's future confirmed bookings; switching it off leaves what was written. */
            writeBookings?: boolean;
        };
        BusyInterval: {
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            start: string;
            /**
             * Format: date-time
             * @description UTC, e.g. 2026-01-05T08:00:00.000Z
             */
            end: string;
            /** @description Opaque id, `cal_…` */
            sourceId: string;
        };
    };
    responses: never;
    parameters: {
        /**
         * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
         * @example hdr_0k3m9x2q7v5t1w8r4y6z
         */
        SlotwiseHolder: string;
    };
    requestBodies: never;
    headers: {
        /** @description Identifies the request in the server log; echoes a sent `x-request-id`. */
        RequestId: string;
        /** @description The rate limit of the API key (IETF draft `RateLimit-Policy`), e.g. `"per-key";q=600;w=60`. */
        RateLimitPolicy: string;
        /** @description What is left of the limit (IETF draft `RateLimit`), e.g. `"per-key";r=599;t=42`. */
        RateLimit: string;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
        /** @description The Bearer challenge, with the error and the scope needed. */
        WwwAuthenticate: string;
        /** @description The path of the created resource. */
        Location: string;
        /** @description `true` when this answer is the replay of an earlier request with the same `Idempotency-Key`. */
        IdempotentReplayed: "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMe: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One of two shapes, by whom the request acts for: `HolderMe` (with `holder`) when it acts for a holder, `AccountMe` (with `account`) in account scope. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateMe: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMe"];
            };
        };
        responses: {
            /** @description One of two shapes, by whom the request acts for: `HolderMe` (with `holder`) when it acts for a holder, `AccountMe` (with `account`) in account scope. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: A unique field is taken (an event type's explicit `slug`, a holder's `name` in its account, a holder's or an account's `handle`; the `errors` entry names the field), or a schedule cannot be deleted (the default one, or one an event type books in). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateCalendarFeed: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Acting for a holder (a holder key, or an account key with `Slotwise-Holder`): the holder and the key. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HolderMe"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEventTypes: {
        parameters: {
            query?: {
                /** @description Account scope (an account key without `Slotwise-Holder`): only that holder's items; without it, every holder's of the account. A holder this key cannot see (unknown, another account's; with a holder key or the header, any other holder) is a 400 on `holderId`. */
                holderId?: string;
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EventType"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createEventType: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEventType"];
            };
        };
        responses: {
            /** @description Created; `Location` is the path of the new resource. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `conflict`: A unique field is taken (an event type's explicit `slug`, a holder's `name` in its account, a holder's or an account's `handle`; the `errors` entry names the field), or a schedule cannot be deleted (the default one, or one an event type books in).
             *     - `limit-reached`: A cap on a collection is reached (webhooks per holder `WEBHOOK_LIMIT_PER_HOLDER` and per account `WEBHOOK_LIMIT_PER_ACCOUNT`, holders per account `HOLDERS_PER_ACCOUNT`, live keys per holder `KEYS_PER_HOLDER`, schedules per holder `SCHEDULES_PER_HOLDER`, calendar sources per holder); delete one to make room.
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEventType: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteEventType: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. Or: the request acts for a host of the team event type it names, which only account scope changes (contract §14). */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateEventType: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateEventType"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. Or: the request acts for a host of the team event type it names, which only account scope changes (contract §14). */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: A unique field is taken (an event type's explicit `slug`, a holder's `name` in its account, a holder's or an account's `handle`; the `errors` entry names the field), or a schedule cannot be deleted (the default one, or one an event type books in). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAvailability: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Availability"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replaceAvailability: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AvailabilityInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Availability"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSchedules: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Schedule"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleInput"];
            };
        };
        responses: {
            /** @description Created; `Location` is the path of the new resource. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `limit-reached`: A cap on a collection is reached (webhooks per holder `WEBHOOK_LIMIT_PER_HOLDER` and per account `WEBHOOK_LIMIT_PER_ACCOUNT`, holders per account `HOLDERS_PER_ACCOUNT`, live keys per holder `KEYS_PER_HOLDER`, schedules per holder `SCHEDULES_PER_HOLDER`, calendar sources per holder); delete one to make room.
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replaceSchedule: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: A unique field is taken (an event type's explicit `slug`, a holder's `name` in its account, a holder's or an account's `handle`; the `errors` entry names the field), or a schedule cannot be deleted (the default one, or one an event type books in). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSlots: {
        parameters: {
            query: {
                eventTypeId: string;
                /** @description ISO-8601 with an explicit offset, or epoch milliseconds */
                from: string;
                /** @description ISO-8601 with an explicit offset, or epoch milliseconds */
                to: string;
                /** @description IANA time zone name, e.g. Europe/Berlin */
                timeZone?: string;
                /** @description A round-robin team event type only: the slots where this host (`hdr_…`, a host that is not fixed) and every fixed host are free. Any other value is a 400 on `hostId`. */
                hostId?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            start: string;
                            end: string;
                            /** @description A seated event type only (contract §15): the seats still free at this start, counting live holds as taken */
                            seatsLeft?: number;
                        }[];
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listHolds: {
        parameters: {
            query?: {
                /** @description ISO-8601 with an explicit offset, or epoch milliseconds */
                from?: string;
                /** @description ISO-8601 with an explicit offset, or epoch milliseconds */
                to?: string;
                eventTypeId?: string;
                /** @description Account scope (an account key without `Slotwise-Holder`): only that holder's items; without it, every holder's of the account. A holder this key cannot see (unknown, another account's; with a holder key or the header, any other holder) is a 400 on `holderId`. */
                holderId?: string;
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Hold"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createHold: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateHold"];
            };
        };
        responses: {
            /** @description Created; `Location` is the path of the new resource. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. Or: the request acts for a host of the team event type it names, which only account scope holds (contract §14). */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `slot-unavailable`: The requested start is not bookable at this moment (off the grid, too soon, outside the booking window, day full, or overlapping another booking); `detail` says why.
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHold: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    releaseHold: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listBookings: {
        parameters: {
            query?: {
                /** @description ISO-8601 with an explicit offset, or epoch milliseconds */
                from?: string;
                /** @description ISO-8601 with an explicit offset, or epoch milliseconds */
                to?: string;
                eventTypeId?: string;
                /** @description Account scope (an account key without `Slotwise-Holder`): only that holder's items; without it, every holder's of the account. A holder this key cannot see (unknown, another account's; with a holder key or the header, any other holder) is a 400 on `holderId`. */
                holderId?: string;
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Booking"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createBooking: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateBooking"];
            };
        };
        responses: {
            /** @description Created; `Location` is the path of the new resource. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Booking"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. Or: the request acts for a host of the team event type it names, which only account scope books (contract §14). */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `slot-unavailable`: The requested start is not bookable at this moment (off the grid, too soon, outside the booking window, day full, or overlapping another booking); `detail` says why.
             *     - `hold-expired`: The `holdId` of a booking names no live hold of this account: it expired, was released or already booked, or never existed.
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBooking: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Booking"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateBookingMetadata: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateBooking"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Booking"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid-state`: The resource is not in a state that allows this (a booking that is not `confirmed`, an inactive webhook, a delivery still pending), or the answer stored for an `Idempotency-Key` shows a secret that is no longer shown (the webhook it registered was deleted) or can no longer be read (the server key that encrypted it was retired). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listBookingNotifications: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Opaque id, `ntf_…` */
                            id: string;
                            /**
                             * @description `email`, or `calendar` (a write to the host’s own calendar)
                             * @enum {string}
                             */
                            channel: "email" | "calendar";
                            /**
                             * @description What it tells: the booking was made, moved or cancelled, or is coming up
                             * @enum {string}
                             */
                            kind: "created" | "rescheduled" | "cancelled" | "reminder";
                            /** @description An e-mail address, or a calendar source’s id */
                            recipient: string;
                            /**
                             * @description `pending` (not yet sent, or to be retried), `sent` (the SMTP server accepted it) or `failed` (refused with a 5xx reply, retried to the end of the schedule, or over `EMAIL_PER_RECIPIENT_PER_HOUR`)
                             * @enum {string}
                             */
                            status: "pending" | "sent" | "failed";
                            /** @description Attempts so far */
                            attempts: number;
                            /** @description The last attempt’s error (the SMTP server’s reply, or the connection’s failure); null once sent */
                            lastError: string | null;
                            /** @description When it was sent; null until then */
                            sentAt: string | null;
                        }[];
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelBooking: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CancelBooking"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Booking"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid-state`: The resource is not in a state that allows this (a booking that is not `confirmed`, an inactive webhook, a delivery still pending), or the answer stored for an `Idempotency-Key` shows a secret that is no longer shown (the webhook it registered was deleted) or can no longer be read (the server key that encrypted it was retired).
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rescheduleBooking: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RescheduleBooking"];
            };
        };
        responses: {
            /** @description Created; `Location` is the path of the new resource. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Booking"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `slot-unavailable`: The requested start is not bookable at this moment (off the grid, too soon, outside the booking window, day full, or overlapping another booking); `detail` says why.
             *     - `invalid-state`: The resource is not in a state that allows this (a booking that is not `confirmed`, an inactive webhook, a delivery still pending), or the answer stored for an `Idempotency-Key` shows a secret that is no longer shown (the webhook it registered was deleted) or can no longer be read (the server key that encrypted it was retired).
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
                /** @description A holder id, `hdr_…`: only that holder’s webhooks (not the account webhooks, which hear it too). A holder the key cannot see (unknown, another account’s, or acting for another holder): 400 on `holderId`. */
                holderId?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhook"];
            };
        };
        responses: {
            /** @description Created; `Location` is the path of the new resource. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid-state`: The resource is not in a state that allows this (a booking that is not `confirmed`, an inactive webhook, a delivery still pending), or the answer stored for an `Idempotency-Key` shows a secret that is no longer shown (the webhook it registered was deleted) or can no longer be read (the server key that encrypted it was retired).
             *     - `limit-reached`: A cap on a collection is reached (webhooks per holder `WEBHOOK_LIMIT_PER_HOLDER` and per account `WEBHOOK_LIMIT_PER_ACCOUNT`, holders per account `HOLDERS_PER_ACCOUNT`, live keys per holder `KEYS_PER_HOLDER`, schedules per holder `SCHEDULES_PER_HOLDER`, calendar sources per holder); delete one to make room.
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhook"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendWebhookTestEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid-state`: The resource is not in a state that allows this (a booking that is not `confirmed`, an inactive webhook, a delivery still pending), or the answer stored for an `Idempotency-Key` shows a secret that is no longer shown (the webhook it registered was deleted) or can no longer be read (the server key that encrypted it was retired).
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid-state`: The resource is not in a state that allows this (a booking that is not `confirmed`, an inactive webhook, a delivery still pending), or the answer stored for an `Idempotency-Key` shows a secret that is no longer shown (the webhook it registered was deleted) or can no longer be read (the server key that encrypted it was retired).
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCalendarSources: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalendarSource"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCalendarSource: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCalendarSource"];
            };
        };
        responses: {
            /** @description Created; `Location` is the path of the new resource. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalendarSource"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `limit-reached`: A cap on a collection is reached (webhooks per holder `WEBHOOK_LIMIT_PER_HOLDER` and per account `WEBHOOK_LIMIT_PER_ACCOUNT`, holders per account `HOLDERS_PER_ACCOUNT`, live keys per holder `KEYS_PER_HOLDER`, schedules per holder `SCHEDULES_PER_HOLDER`, calendar sources per holder); delete one to make room.
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCalendarSource: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalendarSource"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteCalendarSource: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCalendarSource: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCalendarSource"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalendarSource"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    syncCalendarSource: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalendarSource"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listBusy: {
        parameters: {
            query: {
                /** @description ISO-8601 with an explicit offset, or epoch milliseconds */
                from: string;
                /** @description ISO-8601 with an explicit offset, or epoch milliseconds */
                to: string;
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BusyInterval"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listHolders: {
        parameters: {
            query?: {
                /** @description Only the holder with this handle */
                handle?: string;
                /** @description Only holders with this e-mail, exactly as stored */
                email?: string;
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Holder"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createHolder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateHolder"];
            };
        };
        responses: {
            /** @description Created; `Location` is the path of the new resource. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Holder"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `conflict`: A unique field is taken (an event type's explicit `slug`, a holder's `name` in its account, a holder's or an account's `handle`; the `errors` entry names the field), or a schedule cannot be deleted (the default one, or one an event type books in).
             *     - `limit-reached`: A cap on a collection is reached (webhooks per holder `WEBHOOK_LIMIT_PER_HOLDER` and per account `WEBHOOK_LIMIT_PER_ACCOUNT`, holders per account `HOLDERS_PER_ACCOUNT`, live keys per holder `KEYS_PER_HOLDER`, schedules per holder `SCHEDULES_PER_HOLDER`, calendar sources per holder); delete one to make room.
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHolder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Holder"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteHolder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid-state`: The resource is not in a state that allows this (a booking that is not `confirmed`, an inactive webhook, a delivery still pending), or the answer stored for an `Idempotency-Key` shows a secret that is no longer shown (the webhook it registered was deleted) or can no longer be read (the server key that encrypted it was retired). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateHolder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateHolder"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Holder"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: A unique field is taken (an event type's explicit `slug`, a holder's `name` in its account, a holder's or an account's `handle`; the `errors` entry names the field), or a schedule cannot be deleted (the default one, or one an event type books in). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listHolderKeys: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description The `nextCursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HolderKey"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `read` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createHolderKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
                /**
                 * @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer; with a different request it is a 422, while the first is in flight a 409. Keys are scoped to the API key and the holder it acts for (`Slotwise-Holder`).
                 * @example 5f0c8a4e-3c1b-4b7a-9d1e-2f6a7b8c9d0e
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The id of the resource */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateHolderKey"];
            };
        };
        responses: {
            /** @description Created; `Location` is the path of the new resource. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HolderKeyWithSecret"];
                };
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid-state`: The resource is not in a state that allows this (a booking that is not `confirmed`, an inactive webhook, a delivery still pending), or the answer stored for an `Idempotency-Key` shows a secret that is no longer shown (the webhook it registered was deleted) or can no longer be read (the server key that encrypted it was retired).
             *     - `limit-reached`: A cap on a collection is reached (webhooks per holder `WEBHOOK_LIMIT_PER_HOLDER` and per account `WEBHOOK_LIMIT_PER_ACCOUNT`, holders per account `HOLDERS_PER_ACCOUNT`, live keys per holder `KEYS_PER_HOLDER`, schedules per holder `SCHEDULES_PER_HOLDER`, calendar sources per holder); delete one to make room.
             *     - `idempotency-conflict`: A request with the same `Idempotency-Key` is still in flight; retry after it finished.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload-too-large`: The body is larger than 128 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported-media-type`: A body was sent, but not as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency-key-reused`: The `Idempotency-Key` was already used, within 24 hours, with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeHolderKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description With an account key: act for this holder of the account, exactly as its own key would with the account key’s scopes. Required by what exists once per holder (`/availability`, `/calendar-sources`, `/busy`, `/me/calendar-feed/rotate`) when an account key calls them. A holder of another account, a deleted or unknown holder: 404 `not-found`; a value that is no holder id: 400 with an `errors` entry on `Slotwise-Holder`. With a holder key it may only name that key’s own holder. `/holders` routes exist only without it (account scope).
                 * @example hdr_0k3m9x2q7v5t1w8r4y6z
                 */
                "Slotwise-Holder"?: components["parameters"]["SlotwiseHolder"];
            };
            path: {
                id: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid-request`: The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: The API key lacks the `write` scope. */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not-found`: No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate-limited`: The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unavailable`: The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
