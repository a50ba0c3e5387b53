import { Type } from 'typebox';
import {
  BOOKING_SOURCES,
  BOOKING_STATUSES,
  GUEST_LANGUAGES,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE,
  METADATA_KEY_PATTERN,
  type BookingSource,
  type BookingStatus,
  type GuestLanguage,
} from '../../domain/booking.js';
import { MAX_OPTIONS, MAX_QUESTIONS, MAX_TEXTAREA_ANSWER } from '../../domain/questions.js';
import {
  ref,
  Nullable,
  Timestamp,
  Name,
  Id,
  TimeZoneName,
  InstantInput,
  ListInRangeQuery,
  OwnerHolderId,
  HostIds,
  HostIdInput,
  MeetingLocation,
} from './common.js';

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
  guestLanguage: Type.Unsafe<GuestLanguage>({
    type: 'string',
    enum: [...GUEST_LANGUAGES],
    description:
      "The language of the guest's e-mails (contract §16): `en` (default) or `de`; a booking page sets the page's",
  }),
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
    guestLanguage: Type.Optional(guestFields.guestLanguage),
    notes: Type.Optional(guestFields.notes),
    answers: Type.Optional(Answers),
    metadata: Type.Optional(Metadata),
    hostId: Type.Optional(HostIdInput('to book; with `holdId`, if sent, one of the hold’s `hostIds`')),
  },
  {
    $id: 'CreateBooking',
    additionalProperties: false,
    // Without a hold, the time is required: missing fields are then reported with the others.
    if: { properties: { holdId: {} }, required: ['holdId'] },
    else: { properties: { eventTypeId: {}, start: {} }, required: ['eventTypeId', 'start'] },
  },
);

/**
 * The guest's own fields of a booking page's form, under `CreateBookingBody`'s rules: the page
 * checks them before it books and words each failure itself (src/http/pages/form.ts). No `$id`:
 * it is no part of the API's document.
 */
export const GuestForm = Type.Object(
  { guestName: guestFields.guestName, guestEmail: guestFields.guestEmail, notes: Type.Optional(guestFields.notes) },
  { additionalProperties: false },
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
  {
    start: ref(InstantInput),
    reason: Type.Optional(Type.String({ maxLength: 2000 })),
    hostId: Type.Optional(
      HostIdInput(
        'the new booking goes to, with the type’s fixed hosts, also at the same start (a reassignment); without it, the booking keeps its hosts when they are free at the new start, and a round-robin one gets another host by the rule when they are not',
      ),
    ),
  },
  { $id: 'RescheduleBooking', additionalProperties: false },
);

export const ListBookingsQuery = ListInRangeQuery;

export const BookingResource = Type.Object(
  {
    id: Id('bkg'),
    holderId: OwnerHolderId('the booking'),
    hostIds: HostIds('the booking'),
    eventTypeId: Type.String(),
    start: Timestamp,
    end: Timestamp,
    status: Type.Unsafe<BookingStatus>({ type: 'string', enum: [...BOOKING_STATUSES] }),
    guestName: Type.String(),
    guestEmail: Type.String(),
    guestTimeZone: Nullable(Type.String()),
    guestLanguage: Type.Unsafe<GuestLanguage>({ type: 'string', enum: [...GUEST_LANGUAGES] }),
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
    location: Nullable(ref(MeetingLocation), {
      description:
        "The event type's location when the booking was made or last moved (read-only; later edits of the event type leave it); null = none",
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
          'The booking’s appointment as an iCalendar file (contract §16): its latest booking, so after a reschedule this link shows the appointment where it was moved, under the first booking’s UID. Only for keys with the write scope (and in webhooks). Opens in exactly this form; at most `PUBLIC_FILE_RATE_LIMIT_PER_MINUTE` requests a minute (429 with Retry-After past it).',
      }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Booking' },
);
