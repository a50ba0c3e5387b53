import { Type } from 'typebox';
import { CALENDAR_SOURCE_TYPES, type CalendarSourceType } from '../../domain/calendar-source.js';
import { Nullable, Timestamp, Name, Id, QueryInstant, PageQuery } from './common.js';

const SourceName = Nullable(Name({ minLength: 0 }));
const SourceUrl = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'Absolute http, https or webcal URL, without user name or password',
});
const SourceUsername = Type.String({ minLength: 1, maxLength: 200, description: 'CalDAV only (HTTP Basic)' });
const WriteBookings = Type.Boolean({
  description:
    "CalDAV only: every booking the holder hosts is written to this calendar (created, moved, removed), through the outbox with retries; at most one source per holder (else 409 `conflict`). Switching it on writes the holder's future confirmed bookings; switching it off leaves what was written.",
});
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
    writeBookings: Type.Optional(WriteBookings),
  },
  { $id: 'CreateCalendarSource', additionalProperties: false },
);

export const UpdateCalendarSourceBody = Type.Object(
  {
    name: Type.Optional(SourceName),
    url: Type.Optional(SourceUrl),
    username: Type.Optional(SourceUsername),
    password: Type.Optional(SourcePassword),
    writeBookings: Type.Optional(WriteBookings),
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
    writeBookings: WriteBookings,
    lastWriteError: Nullable(Type.String(), {
      description: 'Why the last write of a booking to this calendar failed; null when it succeeded (or none was made)',
    }),
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
