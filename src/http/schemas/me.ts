import { Type } from 'typebox';
import { SCOPES } from '../../domain/api-key.js';
import { HANDLE_PATTERN } from '../../domain/holder.js';
import { Nullable, Timestamp, Name, Id } from './common.js';

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
