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
