import { defaultAvailability, type Availability } from './availability.js';
import type { Instant } from './instant.js';

/**
 * One of a holder's weekly schedules (contract §13): an availability document with a name. Every
 * holder has exactly one default schedule, made with the holder: its availability
 * (`/availability` reads and replaces it). Which schedule is the default never changes.
 */
export interface Schedule extends Availability {
  id: string;
  holderId: string;
  name: string;
  isDefault: boolean;
  createdAt: Instant;
  updatedAt: Instant;
}

export const MAX_SCHEDULE_NAME_LENGTH = 100;

/** What the default schedule is called until a `PUT` of the schedule renames it. */
export const DEFAULT_SCHEDULE_NAME = 'Default';

/** The availability document of a schedule: what the slot engine and `/availability` read. */
export function availabilityOf(schedule: Availability): Availability {
  return { timeZone: schedule.timeZone, weekly: schedule.weekly, overrides: schedule.overrides };
}

/**
 * A new holder's default schedule: Mon–Fri 09:00–17:00 in `timeZone` (a canonical IANA name),
 * dated from the holder's creation.
 */
export function newDefaultSchedule(id: string, holderId: string, timeZone: string, at: Instant): Schedule {
  return {
    ...defaultAvailability(),
    timeZone,
    id,
    holderId,
    name: DEFAULT_SCHEDULE_NAME,
    isDefault: true,
    createdAt: at,
    updatedAt: at,
  };
}
