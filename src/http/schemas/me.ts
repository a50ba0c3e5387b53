import { Type } from 'typebox';
import { SCOPES } from '../../domain/api-key.js';
import { HANDLE_PATTERN } from '../../domain/holder.js';
import { Nullable, Timestamp, Name, Id, ref } from './common.js';

export const UpdateMeBody = Type.Object(
  {
    displayName: Type.Optional(Nullable(Name())),
    handle: Type.Optional(
      Type.String({
        pattern: HANDLE_PATTERN,
        description:
          "A holder's: unique among holders, its booking pages live under `/book/{handle}`. An account's (account scope): unique among accounts.",
      }),
    ),
  },
  { $id: 'UpdateMe', additionalProperties: false },
);

const CallingKey = Type.Object({
  id: Id('key'),
  scopes: Type.Array(Type.String({ enum: [...SCOPES] })),
  createdAt: Timestamp,
  expiresAt: Nullable(Timestamp),
});

/** `/me` for a holder key, or an account key acting for a holder (`Slotwise-Holder`). */
export const HolderMeResource = Type.Object(
  {
    holder: Type.Object({
      id: Type.String(),
      name: Type.String(),
      handle: Type.String(),
      displayName: Type.String({ description: 'Shown to guests: the name unless set' }),
      calendarFeedUrl: Type.Optional(
        Type.String({
          description:
            "The holder's bookings as an iCalendar feed, one event per appointment (a booking and the bookings it was rescheduled into, contract §16); only for keys with the write scope. It answers `If-None-Match` with its `ETag` (304 while nothing it shows changed) and opens at most `PUBLIC_FILE_RATE_LIMIT_PER_MINUTE` times a minute, counted per link (429 with Retry-After past it).",
        }),
      ),
    }),
    key: CallingKey,
  },
  {
    $id: 'HolderMe',
    description:
      'Acting for a holder (a holder key, or an account key with `Slotwise-Holder`): the holder and the key.',
  },
);

/** `/me` for an account key without `Slotwise-Holder` (account scope, contract §12). */
export const AccountMeResource = Type.Object(
  {
    account: Type.Object({
      id: Id('acc'),
      name: Type.String({ description: 'What `keys create --account` names' }),
      handle: Type.String({ description: 'Unique among accounts' }),
      displayName: Type.String({ description: 'Shown to guests: the name unless set' }),
    }),
    key: CallingKey,
  },
  {
    $id: 'AccountMe',
    description: 'In account scope (an account key without `Slotwise-Holder`): the account and the key.',
  },
);

export const MeResource = Type.Union([ref(HolderMeResource), ref(AccountMeResource)], {
  $id: 'Me',
  description:
    'One of two shapes, by whom the request acts for: `HolderMe` (with `holder`) when it acts for a holder, `AccountMe` (with `account`) in account scope.',
});
