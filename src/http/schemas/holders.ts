import { Type } from 'typebox';
import { SCOPES, type Scope } from '../../domain/api-key.js';
import { HANDLE_PATTERN } from '../../domain/holder.js';
import { NAME_PATTERN } from '../../domain/names.js';
import { TIME_ZONE_FORMAT } from '../formats.js';
import { Nullable, Timestamp, Name, Id, PageQuery } from './common.js';

const HolderName = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: NAME_PATTERN,
  description: "Unique among the account's live holders; one line (control characters are refused)",
});
const Handle = (description = 'Unique among live holders; the booking pages live under `/book/{handle}`') =>
  Type.String({ pattern: HANDLE_PATTERN, description });
const Email = Type.String({ format: 'email', maxLength: 320 });
const DisplayName = Nullable(Name(), { description: 'Shown to guests; null shows the name' });

export const CreateHolderBody = Type.Object(
  {
    name: HolderName,
    handle: Type.Optional(
      Handle(
        'Unique among live holders; the booking pages live under `/book/{handle}`. Default: derived from the name, the first free one (`ada`, `ada-2`, …)',
      ),
    ),
    displayName: Type.Optional(DisplayName),
    email: Type.Optional(Nullable(Email)),
    timeZone: Type.Optional(
      Type.String({
        maxLength: 64,
        format: TIME_ZONE_FORMAT,
        description: "IANA: the zone of the holder's default availability, Mon–Fri 09:00–17:00; default `UTC`",
      }),
    ),
  },
  { $id: 'CreateHolder', additionalProperties: false },
);

export const UpdateHolderBody = Type.Object(
  {
    name: Type.Optional(HolderName),
    handle: Type.Optional(Handle()),
    displayName: Type.Optional(DisplayName),
    email: Type.Optional(Nullable(Email)),
  },
  { $id: 'UpdateHolder', additionalProperties: false },
);

export const HolderResource = Type.Object(
  {
    id: Id('hdr'),
    name: Type.String(),
    handle: Type.String(),
    displayName: Nullable(Type.String(), { description: 'As set; null shows the name to guests' }),
    email: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Holder' },
);

export const ListHoldersQuery = Type.Object(
  {
    handle: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Only the holder with this handle' }),
    ),
    email: Type.Optional(
      Type.String({ minLength: 1, maxLength: 320, description: 'Only holders with this e-mail, exactly as stored' }),
    ),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const HolderKeyParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), keyId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

const Scopes = Type.Array(Type.Unsafe<Scope>({ type: 'string', enum: [...SCOPES] }), {
  minItems: 1,
  uniqueItems: true,
  description: '`read` (GET), `write` (every other method), `*` (both)',
});

export const CreateHolderKeyBody = Type.Object(
  {
    scopes: Scopes,
    expiresInDays: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3650, description: 'Days until the key stops working; never when omitted' }),
    ),
    description: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  },
  { $id: 'CreateHolderKey', additionalProperties: false },
);

const keyFields = {
  id: Id('key'),
  scopes: Type.Array(Type.String({ enum: [...SCOPES] })),
  expiresAt: Nullable(Timestamp),
  description: Nullable(Type.String()),
  createdAt: Timestamp,
};

export const HolderKeyResource = Type.Object(
  { ...keyFields, revokedAt: Nullable(Timestamp, { description: 'When it was revoked; null while it works' }) },
  { $id: 'HolderKey' },
);

export const CreatedHolderKeyResource = Type.Object(
  { ...keyFields, key: Type.String({ description: 'The API key, `sw_…`: shown only in this response' }) },
  { $id: 'HolderKeyWithSecret' },
);

export const ListHolderKeysQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
