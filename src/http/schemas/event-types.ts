import { Type } from 'typebox';
import { MAX_SLUG_LENGTH } from '../../domain/event-type.js';
import {
  MAX_OPTIONS,
  MAX_QUESTIONS,
  QUESTION_ID_PATTERN,
  QUESTION_TYPES,
  type QuestionType,
} from '../../domain/questions.js';
import { Nullable, Timestamp, Name, Id, PageQuery, OwnerHolderId, HolderFilter } from './common.js';

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
    description: "Confirmed bookings per local date of its schedule's zone; null = unlimited",
  }),
  scheduleId: Nullable(Type.String({ minLength: 1, maxLength: 64 }), {
    description:
      "The holder's schedule (`sch_…`) whose hours and zone it is booked in; null = the default schedule (the availability). Another holder's or an unknown schedule is a 400 on `scheduleId`.",
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
    scheduleId: Type.Optional(eventTypeFields.scheduleId),
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
    scheduleId: Nullable(Type.String(), {
      description: 'The schedule it is booked in (`sch_…`); null = the default schedule',
    }),
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

export const ListEventTypesQuery = Type.Object({ ...HolderFilter, ...PageQuery }, { additionalProperties: false });
