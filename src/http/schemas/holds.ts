import { Type } from 'typebox';
import { HOLD_SECONDS, HOLD_SOURCES, type HoldSource } from '../../domain/hold.js';
import { ref, Timestamp, Id, InstantInput, ListInRangeQuery, OwnerHolderId, HostIds, HostIdInput } from './common.js';

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
    hostId: Type.Optional(HostIdInput('to hold (and book when the hold is converted)')),
  },
  { $id: 'CreateHold', additionalProperties: false },
);

export const HoldResource = Type.Object(
  {
    id: Id('hld'),
    holderId: OwnerHolderId('the hold'),
    hostIds: HostIds('the hold'),
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

export const ListHoldsQuery = ListInRangeQuery;
