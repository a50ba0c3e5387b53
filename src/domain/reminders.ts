import type { FieldError } from './errors.js';
import { MINUTE_MS, type Instant } from './instant.js';

/** A reminder of an event type (contract §16): told `minutesBefore` a booking's start. */
export interface Reminder {
  minutesBefore: number;
}

export const MAX_REMINDERS = 5;
export const MIN_MINUTES_BEFORE = 5;
/** A week. */
export const MAX_MINUTES_BEFORE = 10_080;

/** What the schema does not say: each `minutesBefore` once (the count and the range it checks). */
export function reminderErrors(reminders: readonly Reminder[]): FieldError[] {
  const offsets = reminders.map((reminder) => reminder.minutesBefore);
  if (new Set(offsets).size === offsets.length) return [];
  return [{ field: 'reminders', message: 'must name each minutesBefore once' }];
}

/** A reminder of one booking, due at `dueAt` (its start less `minutesBefore`). */
export interface DueReminder {
  minutesBefore: number;
  dueAt: Instant;
}

/**
 * The reminders a booking starting at `start`, made or moved at `now`, is to get: those still
 * ahead. One whose time is already past (a booking made a minute before its start, or moved close
 * to it) is never sent late.
 */
export function remindersAhead(start: Instant, reminders: readonly Reminder[], now: Instant): DueReminder[] {
  return reminders
    .map(({ minutesBefore }) => ({ minutesBefore, dueAt: start - minutesBefore * MINUTE_MS }))
    .filter((reminder) => reminder.dueAt > now);
}
