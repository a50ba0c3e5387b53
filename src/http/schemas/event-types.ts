import { Type } from 'typebox';
import { MAX_SEATS, MAX_SLUG_LENGTH, MIN_SEATS } from '../../domain/event-type.js';
import {
  MAX_OPTIONS,
  MAX_QUESTIONS,
  QUESTION_ID_PATTERN,
  QUESTION_TYPES,
  type QuestionType,
} from '../../domain/questions.js';
import { MAX_MINUTES_BEFORE, MAX_REMINDERS, MIN_MINUTES_BEFORE } from '../../domain/reminders.js';
import {
  ASSIGNMENTS,
  HOST_DEFAULTS,
  MAX_HOSTS,
  MAX_PRIORITY,
  MAX_WEIGHT,
  MIN_HOSTS,
  MIN_PRIORITY,
  MIN_WEIGHT,
  type Assignment,
} from '../../domain/team-event-type.js';
import {
  Nullable,
  Timestamp,
  Name,
  Id,
  PageQuery,
  OwnerHolderId,
  HolderFilter,
  MeetingLocation,
  ref,
} from './common.js';

const minutesMultipleOf5 = (min: number) => Type.Integer({ minimum: min, maximum: 1440, multipleOf: 5 });

// In the order of the bodies' properties (and so of their errors and documentation).
const eventTypeFields = {
  title: Name(),
  durationMinutes: minutesMultipleOf5(5),
  slug: Type.String({
    minLength: 1,
    maxLength: MAX_SLUG_LENGTH,
    pattern: '^[a-z0-9-]+$',
    description:
      "Unique among the holder's event types (a team event type's: among its account's team event types); derived from the title when omitted",
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
    description: "Confirmed bookings per local date of its schedule's zone; null = unlimited",
  }),
  scheduleId: Nullable(Type.String({ minLength: 1, maxLength: 64 }), {
    description:
      "The holder's schedule (`sch_…`) whose hours and zone it is booked in; null = the default schedule (the availability). Another holder's or an unknown schedule is a 400 on `scheduleId`. A team event type's is null (sending another is a 400): each host names its own.",
  }),
  seats: Nullable(Type.Integer({ minimum: MIN_SEATS, maximum: MAX_SEATS }), {
    description:
      'Guests one time takes (contract §15): each seat is its own booking, the time is free again when the last seat goes, and `/slots` entries carry `seatsLeft`. Null = one guest. Not with `round-robin` (400 on `seats`). Lowered below the seats an occurrence has, its guests stay and no one joins until it is below.',
  }),
  location: Nullable(ref(MeetingLocation), {
    description:
      'Where its meetings take place (contract §16): shown on its booking page, copied to each booking made or moved (later edits leave existing bookings), and written to calendar files and e-mails. Null = not said.',
  }),
  reminders: Type.Array(
    Type.Object(
      {
        minutesBefore: Type.Integer({
          minimum: MIN_MINUTES_BEFORE,
          maximum: MAX_MINUTES_BEFORE,
          description: "Minutes before a booking's start (5 to 10080, a week)",
        }),
      },
      { additionalProperties: false },
    ),
    {
      maxItems: MAX_REMINDERS,
      description:
        "When its bookings are reminded of (contract §16): up to 5, each `minutesBefore` once (else a 400 on `reminders`). At `start − minutesBefore` of each confirmed booking, the `booking.reminder` webhook event. A booking takes the event type's reminders when it is made or moved (a reschedule schedules them afresh for the new time); one whose time is already past then is never sent; a cancelled or moved booking's are not sent. Later edits leave existing bookings. Default none.",
    },
  ),
  notifications: Type.Object(
    {
      guest: Type.Optional(Type.Boolean({ description: 'Whether the guest is e-mailed; default true' })),
      hosts: Type.Optional(
        Type.Boolean({ description: 'Whether every host with an `email` is e-mailed; default true' }),
      ),
    },
    {
      additionalProperties: false,
      description:
        'Who is e-mailed when a booking of it is made, moved or cancelled (contract §16; only when the service has SMTP_URL). A field not sent keeps its value (on creation: true).',
    },
  ),
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
  assignment: Type.Unsafe<Assignment>({
    type: 'string',
    enum: [...ASSIGNMENTS],
    description:
      'Team event types only (account scope, where it is required): `collective` books every host, `round-robin` every fixed host and one other',
  }),
  hosts: Type.Array(
    Type.Object(
      {
        holderId: Id('hdr'),
        scheduleId: Type.Optional(
          Nullable(Id('sch'), {
            description: "The host's schedule offering the times; null (default) = the host's default schedule",
          }),
        ),
        fixed: Type.Optional(
          Type.Boolean({
            default: HOST_DEFAULTS.fixed,
            description: 'Round robin: a fixed host attends every booking, besides the one chosen',
          }),
        ),
        priority: Type.Optional(
          Type.Integer({
            minimum: MIN_PRIORITY,
            maximum: MAX_PRIORITY,
            default: HOST_DEFAULTS.priority,
            description: 'Round robin: hosts of a higher priority are chosen first',
          }),
        ),
        weight: Type.Optional(
          Type.Integer({
            minimum: MIN_WEIGHT,
            maximum: MAX_WEIGHT,
            default: HOST_DEFAULTS.weight,
            description: 'Round robin: hosts of one priority share bookings in proportion to their weights',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    {
      minItems: MIN_HOSTS,
      maxItems: MAX_HOSTS,
      description:
        'Team event types only (account scope, where it is required): holders of the account, each once, in order. A PATCH replaces the whole list; existing bookings keep their hosts.',
    },
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
    scheduleId: Type.Optional(eventTypeFields.scheduleId),
    seats: Type.Optional(eventTypeFields.seats),
    location: Type.Optional(eventTypeFields.location),
    reminders: Type.Optional(eventTypeFields.reminders),
    notifications: Type.Optional(eventTypeFields.notifications),
    public: Type.Optional(eventTypeFields.public),
    questions: Type.Optional(eventTypeFields.questions),
    assignment: Type.Optional(eventTypeFields.assignment),
    hosts: Type.Optional(eventTypeFields.hosts),
  },
  {
    $id: 'CreateEventType',
    additionalProperties: false,
    description:
      'Acting for a holder, an event type of that holder; in account scope (an account key without `Slotwise-Holder`), a team event type of the account, with `assignment` and `hosts`.',
  },
);

/** Any of the fields of create, with the same rules. */
export const UpdateEventTypeBody = Type.Partial(Type.Object(eventTypeFields), {
  $id: 'UpdateEventType',
  additionalProperties: false,
});

export const EventTypeResource = Type.Object(
  {
    id: Id('evt'),
    holderId: OwnerHolderId('the event type'),
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
    seats: Nullable(Type.Integer(), { description: 'Guests one time takes; null = one' }),
    location: Nullable(ref(MeetingLocation), { description: 'Where its meetings take place; null = not said' }),
    reminders: Type.Array(Type.Object({ minutesBefore: Type.Integer() }), {
      description: 'When its bookings are reminded of, as set; `[]` = none',
    }),
    notifications: Type.Object(
      { guest: Type.Boolean(), hosts: Type.Boolean() },
      { description: 'Who is e-mailed when a booking of it is made, moved or cancelled' },
    ),
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
    scheduleId: Nullable(Type.String(), {
      description: "The holder's schedule offering its times; null = the default schedule, and for a team event type",
    }),
    assignment: Nullable(Type.Unsafe<Assignment>({ type: 'string', enum: [...ASSIGNMENTS] }), {
      description: "A team event type's (`collective` or `round-robin`); null for a holder's own",
    }),
    hosts: Nullable(
      Type.Array(
        Type.Object({
          holderId: Type.String(),
          scheduleId: Nullable(Type.String()),
          fixed: Type.Boolean(),
          priority: Type.Integer(),
          weight: Type.Integer(),
        }),
      ),
      { description: "A team event type's hosts, in order, every field filled; null for a holder's own" },
    ),
    bookingPageUrl: Nullable(
      Type.String({
        description:
          "The public booking page (`/book/{holderHandle}/{slug}`, a team event type's `/team/{accountHandle}/{slug}`); null unless `public`",
      }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'EventType' },
);

export const ListEventTypesQuery = Type.Object({ ...HolderFilter, ...PageQuery }, { additionalProperties: false });
