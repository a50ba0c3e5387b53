import { Type } from 'typebox';
import { WALL_TIME_PATTERN, WEEKDAYS } from '../../domain/availability.js';
import { Timestamp, TimeZoneName } from './common.js';

const WallTime = Type.String({ pattern: WALL_TIME_PATTERN, description: 'HH:MM; end may be 24:00' });
const Interval = Type.Object({ start: WallTime, end: WallTime }, { additionalProperties: false });
const Intervals = Type.Array(Interval, { maxItems: 48 });

/** The fields of an availability document as sent: the availability's, and a schedule's besides its name. */
export const availabilityInputFields = {
  timeZone: TimeZoneName,
  weekly: Type.Object(
    Object.fromEntries(WEEKDAYS.map((day) => [day, Type.Optional(Intervals)])) as Record<
      (typeof WEEKDAYS)[number],
      ReturnType<typeof Type.Optional<typeof Intervals>>
    >,
    { additionalProperties: false },
  ),
  overrides: Type.Optional(
    Type.Array(
      Type.Object(
        { date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }), intervals: Intervals },
        { additionalProperties: false },
      ),
      { maxItems: 1000 },
    ),
  ),
};

export const AvailabilityBody = Type.Object(availabilityInputFields, {
  $id: 'AvailabilityInput',
  additionalProperties: false,
});

const IntervalOut = Type.Object({ start: Type.String(), end: Type.String() });
/** The fields of an availability document as shown: the availability's, and a schedule's. */
export const availabilityFields = {
  timeZone: Type.String(),
  weekly: Type.Object(
    Object.fromEntries(WEEKDAYS.map((day) => [day, Type.Array(IntervalOut)])) as Record<
      (typeof WEEKDAYS)[number],
      ReturnType<typeof Type.Array<typeof IntervalOut>>
    >,
  ),
  overrides: Type.Array(Type.Object({ date: Type.String(), intervals: Type.Array(IntervalOut) })),
};

export const AvailabilityResource = Type.Object(
  { ...availabilityFields, updatedAt: Timestamp },
  { $id: 'Availability' },
);
