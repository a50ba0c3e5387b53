import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { SCOPES } from '../domain/api-key.js';
import { WALL_TIME_PATTERN, WEEKDAYS } from '../domain/availability.js';
import {
  BOOKING_SOURCES,
  BOOKING_STATUSES,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE,
  METADATA_KEY_PATTERN,
  type BookingSource,
  type BookingStatus,
} from '../domain/booking.js';
import { CALENDAR_SOURCE_TYPES, type CalendarSourceType } from '../domain/calendar-source.js';
import { MAX_SLUG_LENGTH } from '../domain/event-type.js';
import {
  MAX_OPTIONS,
  MAX_QUESTIONS,
  MAX_TEXTAREA_ANSWER,
  QUESTION_ID_PATTERN,
  QUESTION_TYPES,
  type QuestionType,
} from '../domain/questions.js';
import { HOLD_SECONDS, HOLD_SOURCES, type HoldSource } from '../domain/hold.js';
import { HANDLE_PATTERN } from '../domain/holder.js';
import { NAME_PATTERN } from '../domain/names.js';
import {
  DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type DeliveryStatus,
  type WebhookEventType,
} from '../domain/webhook.js';
import { INSTANT_FORMAT, QUERY_INSTANT_FORMAT, TIME_ZONE_FORMAT } from './formats.js';
import { PROBLEM_TYPES } from './problems.js';

/**
 * One TypeBox schema per body, query and response: validation, handler types, serialisation and
 * the OpenAPI document all come from here. `x-message` replaces Ajv's wording for a field whose
 * alternatives would otherwise produce several confusing messages.
 *
 * The schemas with an `$id` are shared: `registerSharedSchemas` adds them to the app
 * (`app.addSchema`), routes and other shared schemas point at them with `ref(...)`, and
 * @fastify/swagger emits each as `#/components/schemas/<$id>`. Their `$id` is therefore the name
 * integrators (and generated clients) see.
 */

/**
 * A `$ref` to a shared schema, typed as that schema: `Type.Ref` alone is typed `unknown`, which
 * would leave handlers' bodies and replies unchecked.
 */
export function ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('ref() needs a shared schema, one with an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(id));
}

const Nullable = <T extends TSchema>(schema: T, options: { description?: string } = {}) =>
  Type.Union([schema, Type.Null()], options);
const Timestamp = Type.String({ format: 'date-time', description: 'UTC, e.g. 2026-01-05T08:00:00.000Z' });
/** A name, title or label: one line of up to 200 characters (src/domain/names.ts). */
const Name = (options: { minLength: number } = { minLength: 1 }) =>
  Type.String({
    ...options,
    maxLength: 200,
    pattern: NAME_PATTERN,
    description: 'One line: control characters (line breaks, tabs) are refused',
  });
const Id = (prefix: string) => Type.String({ minLength: 1, maxLength: 64, description: `Opaque id, \`${prefix}_…\`` });

export const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the resource' }) },
  { additionalProperties: false },
);

const EPOCH_MS_MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const QueryInstant = Type.String({
  maxLength: 64,
  format: QUERY_INSTANT_FORMAT,
  description: 'ISO-8601 with an explicit offset, or epoch milliseconds',
});
const TimeZoneName = Type.String({
  maxLength: 64,
  format: TIME_ZONE_FORMAT,
  description: 'IANA time zone name, e.g. Europe/Berlin',
});

export const InstantInput = Type.Union(
  [Type.String({ maxLength: 64, format: INSTANT_FORMAT }), Type.Integer({ minimum: 0, maximum: EPOCH_MS_MAX })],
  {
    $id: 'Instant',
    'x-message': 'must be an ISO-8601 date-time with an explicit offset or integer epoch milliseconds',
    description: 'ISO-8601 with an explicit offset (`Z` or `±hh:mm`), or integer epoch milliseconds',
  },
);

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Items per page' })),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description: 'The `nextCursor` of the previous page; omit for the first page',
    }),
  ),
};

export const listOf = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
  });

// ---- event types

const minutesMultipleOf5 = (min: number) => Type.Integer({ minimum: min, maximum: 1440, multipleOf: 5 });

// In the order of the bodies' properties (and so of their errors and documentation).
const eventTypeFields = {
  title: Name(),
  durationMinutes: minutesMultipleOf5(5),
  slug: Type.String({
    minLength: 1,
    maxLength: MAX_SLUG_LENGTH,
    pattern: '^[a-z0-9-]+$',
    description: 'Unique per holder; derived from the title when omitted',
  }),
  description: Nullable(Type.String({ maxLength: 5000 })),
  slotIntervalMinutes: Nullable(minutesMultipleOf5(5), {
    description: 'Distance between slot starts; null = the duration',
  }),
  bufferBeforeMinutes: Type.Integer({ minimum: 0, maximum: 1440, description: 'Kept free before each booking' }),
  bufferAfterMinutes: Type.Integer({ minimum: 0, maximum: 1440, description: 'Kept free after each booking' }),
  minimumNoticeMinutes: Type.Integer({
    minimum: 0,
    maximum: 525_600,
    description: 'How far ahead of now a start must be',
  }),
  bookingWindowDays: Nullable(Type.Integer({ minimum: 1, maximum: 3650 }), {
    description: 'How far into the future starts may be; null = unlimited',
  }),
  maxBookingsPerDay: Nullable(Type.Integer({ minimum: 1, maximum: 1000 }), {
    description: "Confirmed bookings per local date of the availability's zone; null = unlimited",
  }),
  public: Type.Boolean({ description: 'Whether guests can book it on its booking page (`bookingPageUrl`)' }),
  questions: Type.Array(
    Type.Object(
      {
        id: Type.String({ pattern: QUESTION_ID_PATTERN, description: 'The key of its answer in `answers`' }),
        label: Name(),
        type: Type.Unsafe<QuestionType>({ type: 'string', enum: [...QUESTION_TYPES] }),
        required: Type.Optional(Type.Boolean({ default: false })),
        options: Type.Optional(
          Type.Array(Name(), {
            minItems: 1,
            maxItems: MAX_OPTIONS,
            description: 'The choices; for select and multiselect questions only',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    { maxItems: MAX_QUESTIONS, description: 'What a booking answers (in `answers`), in order' },
  ),
};

export const CreateEventTypeBody = Type.Object(
  {
    title: eventTypeFields.title,
    durationMinutes: eventTypeFields.durationMinutes,
    slug: Type.Optional(eventTypeFields.slug),
    description: Type.Optional(eventTypeFields.description),
    slotIntervalMinutes: Type.Optional(eventTypeFields.slotIntervalMinutes),
    bufferBeforeMinutes: Type.Optional(eventTypeFields.bufferBeforeMinutes),
    bufferAfterMinutes: Type.Optional(eventTypeFields.bufferAfterMinutes),
    minimumNoticeMinutes: Type.Optional(eventTypeFields.minimumNoticeMinutes),
    bookingWindowDays: Type.Optional(eventTypeFields.bookingWindowDays),
    maxBookingsPerDay: Type.Optional(eventTypeFields.maxBookingsPerDay),
    public: Type.Optional(eventTypeFields.public),
    questions: Type.Optional(eventTypeFields.questions),
  },
  { $id: 'CreateEventType', additionalProperties: false },
);

/** Any of the fields of create, with the same rules. */
export const UpdateEventTypeBody = Type.Partial(Type.Object(eventTypeFields), {
  $id: 'UpdateEventType',
  additionalProperties: false,
});

export const EventTypeResource = Type.Object(
  {
    id: Id('evt'),
    title: Type.String(),
    slug: Type.String(),
    description: Nullable(Type.String()),
    durationMinutes: Type.Integer(),
    slotIntervalMinutes: Type.Integer(),
    bufferBeforeMinutes: Type.Integer(),
    bufferAfterMinutes: Type.Integer(),
    minimumNoticeMinutes: Type.Integer(),
    bookingWindowDays: Nullable(Type.Integer()),
    maxBookingsPerDay: Nullable(Type.Integer()),
    public: Type.Boolean(),
    questions: Type.Array(
      Type.Object({
        id: Type.String(),
        label: Type.String(),
        type: Type.Unsafe<QuestionType>({ type: 'string', enum: [...QUESTION_TYPES] }),
        required: Type.Boolean(),
        options: Nullable(Type.Array(Type.String())),
      }),
    ),
    bookingPageUrl: Nullable(Type.String({ description: 'The public booking page; null unless `public`' })),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'EventType' },
);

export const ListEventTypesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

// ---- availability

const WallTime = Type.String({ pattern: WALL_TIME_PATTERN, description: 'HH:MM; end may be 24:00' });
const Interval = Type.Object({ start: WallTime, end: WallTime }, { additionalProperties: false });
const Intervals = Type.Array(Interval, { maxItems: 48 });

export const AvailabilityBody = Type.Object(
  {
    timeZone: TimeZoneName,
    weekly: Type.Object(
      Object.fromEntries(WEEKDAYS.map((day) => [day, Type.Optional(Intervals)])) as Record<
        (typeof WEEKDAYS)[number],
        ReturnType<typeof Type.Optional<typeof Intervals>>
      >,
      { additionalProperties: false },
    ),
    overrides: Type.Optional(
      Type.Array(
        Type.Object(
          { date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }), intervals: Intervals },
          { additionalProperties: false },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  { $id: 'AvailabilityInput', additionalProperties: false },
);

const IntervalOut = Type.Object({ start: Type.String(), end: Type.String() });
export const AvailabilityResource = Type.Object(
  {
    timeZone: Type.String(),
    weekly: Type.Object(
      Object.fromEntries(WEEKDAYS.map((day) => [day, Type.Array(IntervalOut)])) as Record<
        (typeof WEEKDAYS)[number],
        ReturnType<typeof Type.Array<typeof IntervalOut>>
      >,
    ),
    overrides: Type.Array(Type.Object({ date: Type.String(), intervals: Type.Array(IntervalOut) })),
    updatedAt: Timestamp,
  },
  { $id: 'Availability' },
);

// ---- slots

export const SlotsQuery = Type.Object(
  {
    eventTypeId: Type.String({ minLength: 1, maxLength: 64 }),
    from: QueryInstant,
    to: QueryInstant,
    timeZone: Type.Optional(TimeZoneName),
  },
  { additionalProperties: false },
);

export const SlotsResponse = Type.Object({
  data: Type.Array(Type.Object({ start: Type.String(), end: Type.String() })),
});

// ---- bookings

const Answers = Type.Record(
  Type.String(),
  Type.Union([
    Type.String({ maxLength: MAX_TEXTAREA_ANSWER }),
    Type.Number(),
    Type.Boolean(),
    Type.Array(Type.String({ maxLength: 200 }), { maxItems: MAX_OPTIONS }),
  ]),
  {
    maxProperties: MAX_QUESTIONS,
    description: "Question id → answer, checked against the event type's `questions` (errors as `answers.<id>`)",
    'x-message': 'must be an object of answers: text, a number, true or false, or a list of options',
  },
);

const metadataKey = Type.String({ pattern: METADATA_KEY_PATTERN });
const Metadata = Type.Record(metadataKey, Type.String({ maxLength: MAX_METADATA_VALUE }), {
  maxProperties: MAX_METADATA_KEYS,
  additionalProperties: false,
  description: `Your own string values (keys \`[A-Za-z0-9_.-]\`, 1–40; values up to ${MAX_METADATA_VALUE} characters; at most ${MAX_METADATA_KEYS})`,
});

const guestFields = {
  guestName: Name(),
  guestEmail: Type.String({ format: 'email', maxLength: 320 }),
  guestTimeZone: TimeZoneName,
  notes: Type.String({ maxLength: 2000 }),
};

export const CreateBookingBody = Type.Object(
  {
    eventTypeId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Required unless `holdId` is given; with it, if sent, must be the hold’s',
      }),
    ),
    start: Type.Optional(ref(InstantInput)),
    holdId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'Books this live hold’s time (`hld_…`) and ends the hold; `start` and `eventTypeId` may then be left out',
      }),
    ),
    guestName: guestFields.guestName,
    guestEmail: guestFields.guestEmail,
    guestTimeZone: Type.Optional(guestFields.guestTimeZone),
    notes: Type.Optional(guestFields.notes),
    answers: Type.Optional(Answers),
    metadata: Type.Optional(Metadata),
  },
  {
    $id: 'CreateBooking',
    additionalProperties: false,
    // Without a hold, the time is required: missing fields are then reported with the others.
    if: { properties: { holdId: {} }, required: ['holdId'] },
    else: { properties: { eventTypeId: {}, start: {} }, required: ['eventTypeId', 'start'] },
  },
);

export const UpdateBookingBody = Type.Object(
  {
    metadata: Type.Record(metadataKey, Nullable(Type.String({ maxLength: MAX_METADATA_VALUE })), {
      maxProperties: MAX_METADATA_KEYS,
      additionalProperties: false,
      description: 'The keys to set; `null` removes a key',
    }),
  },
  { $id: 'UpdateBooking', additionalProperties: false },
);

export const CancelBookingBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 2000 })) },
  { $id: 'CancelBooking', additionalProperties: false },
);

export const RescheduleBookingBody = Type.Object(
  { start: ref(InstantInput), reason: Type.Optional(Type.String({ maxLength: 2000 })) },
  { $id: 'RescheduleBooking', additionalProperties: false },
);

export const ListBookingsQuery = Type.Object(
  {
    from: Type.Optional(QueryInstant),
    to: Type.Optional(QueryInstant),
    eventTypeId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const BookingResource = Type.Object(
  {
    id: Id('bkg'),
    eventTypeId: Type.String(),
    start: Timestamp,
    end: Timestamp,
    status: Type.Unsafe<BookingStatus>({ type: 'string', enum: [...BOOKING_STATUSES] }),
    guestName: Type.String(),
    guestEmail: Type.String(),
    guestTimeZone: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    cancellationReason: Nullable(Type.String()),
    cancelledAt: Nullable(Timestamp),
    rescheduledFromId: Nullable(Type.String()),
    rescheduledToId: Nullable(Type.String()),
    answers: Type.Record(
      Type.String(),
      Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String())]),
    ),
    metadata: Type.Record(Type.String(), Type.String()),
    source: Type.Unsafe<BookingSource>({
      type: 'string',
      enum: [...BOOKING_SOURCES],
      description: '`api`, or `page` when a guest booked on the booking page',
    }),
    manageUrl: Type.Optional(
      Type.String({
        description:
          "The guest's link to see, cancel and reschedule the booking. Only for keys with the write scope (and in webhooks): whoever has it can cancel.",
      }),
    ),
    icsUrl: Type.Optional(
      Type.String({
        description:
          'The booking as an iCalendar file. Only for keys with the write scope (and in webhooks). Opens in exactly this form; at most `PUBLIC_FILE_RATE_LIMIT_PER_MINUTE` requests a minute (429 with Retry-After past it).',
      }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Booking' },
);

// ---- holds

export const CreateHoldBody = Type.Object(
  {
    eventTypeId: Type.String({ minLength: 1, maxLength: 64 }),
    start: ref(InstantInput),
    expiresInSeconds: Type.Optional(
      Type.Integer({
        minimum: HOLD_SECONDS.min,
        maximum: HOLD_SECONDS.max,
        description: `How long the hold lives, in seconds (default ${HOLD_SECONDS.default})`,
      }),
    ),
  },
  { $id: 'CreateHold', additionalProperties: false },
);

export const HoldResource = Type.Object(
  {
    id: Id('hld'),
    eventTypeId: Type.String(),
    start: Timestamp,
    end: Timestamp,
    expiresAt: Timestamp,
    source: Type.Unsafe<HoldSource>({
      type: 'string',
      enum: [...HOLD_SOURCES],
      description: 'Where the hold was made: by API, or by a guest on a booking page',
    }),
    createdAt: Timestamp,
  },
  { $id: 'Hold' },
);

export const ListHoldsQuery = Type.Object(
  {
    from: Type.Optional(QueryInstant),
    to: Type.Optional(QueryInstant),
    eventTypeId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

// ---- webhooks

const WebhookEvents = Type.Array(Type.Unsafe<WebhookEventType>({ type: 'string', enum: [...WEBHOOK_EVENT_TYPES] }), {
  minItems: 1,
  uniqueItems: true,
});

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'Absolute http(s) URL' }),
    events: Type.Optional(WebhookEvents),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    active: Type.Optional(Type.Boolean()),
  },
  { $id: 'CreateWebhook', additionalProperties: false },
);

const webhookFields = {
  id: Id('whk'),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  active: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const WebhookResource = Type.Object(webhookFields, { $id: 'Webhook' });

export const CreatedWebhookResource = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({ description: 'Signing secret, `whsec_…`; shown only in this response' }),
  },
  { $id: 'WebhookWithSecret' },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(CreateWebhookBody.properties.url),
    events: Type.Optional(WebhookEvents),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    active: Type.Optional(Type.Boolean()),
  },
  { $id: 'UpdateWebhook', additionalProperties: false },
);

export const ListWebhooksQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const DeliveryParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), deliveryId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const DeliveryResource = Type.Object(
  {
    id: Id('dlv'),
    eventId: Type.String({ description: 'The `webhook-id` header of every attempt: stable across retries' }),
    eventType: Type.String(),
    webhookId: Type.String(),
    status: Type.Unsafe<DeliveryStatus>({ type: 'string', enum: [...DELIVERY_STATUSES] }),
    attemptCount: Type.Integer(),
    nextAttemptAt: Nullable(Timestamp),
    attempts: Type.Array(
      Type.Object({
        attempt: Type.Integer(),
        startedAt: Timestamp,
        durationMs: Type.Integer(),
        statusCode: Nullable(Type.Integer()),
        error: Nullable(Type.String()),
        responseExcerpt: Nullable(Type.String({ description: 'Start of the response body, at most 4 KiB' })),
      }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);

/** For actions that take no input: an absent body, an empty body and `{}` are all accepted. */
export const EmptyBody = Type.Object({}, { additionalProperties: false });

export const ListDeliveriesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

// ---- problems

/** The body of every error answer (src/http/problems.ts); only documented, as problems are sent as built. */
export const ProblemDocument = Type.Object(
  {
    type: Type.String({
      enum: Object.keys(PROBLEM_TYPES).map((kind) => `urn:service:problem:${kind}`),
      description: 'What went wrong, as a stable URN: branch on this, not on `title` or `detail`.',
    }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String({ description: 'What went wrong in this request, for people.' }),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'With `invalid-request`: one entry per failing field, e.g. `weekly.monday[0].start`.',
      }),
    ),
  },
  {
    $id: 'Problem',
    description: 'An RFC 9457 problem document; the API description lists when each `type` happens.',
  },
);

// ---- the caller

export const UpdateMeBody = Type.Object(
  {
    displayName: Type.Optional(Nullable(Name())),
    handle: Type.Optional(
      Type.String({
        pattern: HANDLE_PATTERN,
        description: 'Unique on the instance; the booking pages live under `/book/{handle}`',
      }),
    ),
  },
  { $id: 'UpdateMe', additionalProperties: false },
);

export const MeResource = Type.Object({
  holder: Type.Object({
    id: Type.String(),
    name: Type.String(),
    handle: Type.String(),
    displayName: Type.String({ description: 'Shown to guests: the name unless set' }),
    calendarFeedUrl: Type.Optional(
      Type.String({
        description:
          "The holder's bookings as an iCalendar feed; only for keys with the write scope. It answers `If-None-Match` with its `ETag` (304 while nothing it shows changed) and opens at most `PUBLIC_FILE_RATE_LIMIT_PER_MINUTE` times a minute, counted per link (429 with Retry-After past it).",
      }),
    ),
  }),
  key: Type.Object({
    id: Id('key'),
    scopes: Type.Array(Type.String({ enum: [...SCOPES] })),
    createdAt: Timestamp,
    expiresAt: Nullable(Timestamp),
  }),
});

// ---- calendar sources (contract §11)

const SourceName = Nullable(Name({ minLength: 0 }));
const SourceUrl = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'Absolute http, https or webcal URL, without user name or password',
});
const SourceUsername = Type.String({ minLength: 1, maxLength: 200, description: 'CalDAV only (HTTP Basic)' });
const SourcePassword = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: 'CalDAV only; stored encrypted, never shown',
});

export const CreateCalendarSourceBody = Type.Object(
  {
    type: Type.Unsafe<CalendarSourceType>({ type: 'string', enum: [...CALENDAR_SOURCE_TYPES] }),
    url: SourceUrl,
    username: Type.Optional(SourceUsername),
    password: Type.Optional(SourcePassword),
    name: Type.Optional(SourceName),
  },
  { $id: 'CreateCalendarSource', additionalProperties: false },
);

export const UpdateCalendarSourceBody = Type.Object(
  {
    name: Type.Optional(SourceName),
    url: Type.Optional(SourceUrl),
    username: Type.Optional(SourceUsername),
    password: Type.Optional(SourcePassword),
  },
  { $id: 'UpdateCalendarSource', additionalProperties: false },
);

export const CalendarSourceResource = Type.Object(
  {
    id: Id('cal'),
    type: Type.String({ enum: [...CALENDAR_SOURCE_TYPES] }),
    name: Nullable(Type.String()),
    url: Type.String({
      description: 'For `ics` only the origin (the rest of a secret address is a credential); for `caldav` the URL',
    }),
    status: Type.String({ enum: ['pending', 'ok', 'error'] }),
    lastSyncedAt: Nullable(Timestamp, { description: 'When a sync last succeeded' }),
    lastError: Nullable(Type.String(), { description: 'Why the last sync failed; null once one succeeds' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'CalendarSource' },
);

export const ListCalendarSourcesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const BusyQuery = Type.Object(
  { from: QueryInstant, to: QueryInstant, ...PageQuery },
  { additionalProperties: false },
);

export const BusyResource = Type.Object(
  { start: Timestamp, end: Timestamp, sourceId: Id('cal') },
  { $id: 'BusyInterval' },
);

// ---- shared schemas

/** Every schema with an `$id`, in the order the OpenAPI document lists them. */
export const SHARED_SCHEMAS: readonly TSchema[] = [
  ProblemDocument,
  EventTypeResource,
  CreateEventTypeBody,
  UpdateEventTypeBody,
  AvailabilityResource,
  AvailabilityBody,
  BookingResource,
  CreateBookingBody,
  UpdateBookingBody,
  CancelBookingBody,
  RescheduleBookingBody,
  HoldResource,
  CreateHoldBody,
  UpdateMeBody,
  InstantInput,
  WebhookResource,
  CreatedWebhookResource,
  CreateWebhookBody,
  UpdateWebhookBody,
  DeliveryResource,
  CalendarSourceResource,
  CreateCalendarSourceBody,
  UpdateCalendarSourceBody,
  BusyResource,
];

/**
 * Adds the shared schemas to the app (`app.addSchema`), for the serializer and the OpenAPI
 * document; call once, before any route refers to them. The validator knows them already
 * (src/http/validation.ts).
 */
export function registerSharedSchemas(app: FastifyInstance): void {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
}
