import { Type } from 'typebox';
import { QueryInstant, TimeZoneName } from './common.js';

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
