import { Type } from 'typebox';
import { NAME_PATTERN } from '../../domain/names.js';
import { MAX_SCHEDULE_NAME_LENGTH } from '../../domain/schedule.js';
import { availabilityFields, availabilityInputFields } from './availability.js';
import { Id, PageQuery, Timestamp } from './common.js';

/** POST and PUT: a whole schedule, its name and an availability document (contract §13). */
export const ScheduleBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: MAX_SCHEDULE_NAME_LENGTH,
      pattern: NAME_PATTERN,
      description: 'One line: control characters (line breaks, tabs) are refused',
    }),
    ...availabilityInputFields,
  },
  { $id: 'ScheduleInput', additionalProperties: false },
);

export const ScheduleResource = Type.Object(
  {
    id: Id('sch'),
    name: Type.String(),
    ...availabilityFields,
    default: Type.Boolean({
      description: "Whether it is the holder's default schedule: its availability (`/availability`), listed first",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Schedule' },
);

export const ListSchedulesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
