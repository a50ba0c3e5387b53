import { Type } from 'typebox';
import { QueryInstant, TimeZoneName } from './common.js';

export const SlotsQuery = Type.Object(
  {
    eventTypeId: Type.String({ minLength: 1, maxLength: 64 }),
    from: QueryInstant,
    to: QueryInstant,
    timeZone: Type.Optional(TimeZoneName),
    hostId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'A round-robin team event type only: the slots where this host (`hdr_…`, a host that is not fixed) and every fixed host are free. Any other value is a 400 on `hostId`.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SlotsResponse = Type.Object({
  data: Type.Array(
    Type.Object({
      start: Type.String(),
      end: Type.String(),
      seatsLeft: Type.Optional(
        Type.Integer({
          description:
            'A seated event type only (contract §15): the seats still free at this start, counting live holds as taken',
        }),
      ),
    }),
  ),
});
