import {
  availabilityRuleErrors,
  normalizeAvailability,
  WEEKDAYS,
  type Availability,
  type DateOverride,
  type TimeInterval,
  type Weekday,
} from '../domain/availability.js';
import { invalidRequest, notFound, type DomainError, type FieldError } from '../domain/errors.js';
import type { Schedule } from '../domain/schedule.js';
import type { AppContext, Caller } from './context.js';
import type { Reads } from './ports/store.js';

// The base specification's availability (contract §4): the holder's default schedule (§13), read
// and replaced as one document. The schedules' own use cases are in `schedules.ts`.

/** The holder's default schedule: its availability. */
export async function defaultSchedule(store: Pick<Reads, 'schedules'>, holderId: string): Promise<Schedule> {
  const schedule = await store.schedules.defaultOf(holderId);
  if (!schedule) throw notFound(`Holder ${holderId}`);
  return schedule;
}

export function getAvailability(context: AppContext, caller: Caller): Promise<Schedule> {
  return defaultSchedule(context.store, caller.holderId);
}

/** The document a client sends: the whole availability, where an omitted weekday is a day off. */
export interface AvailabilityInput {
  timeZone: string;
  weekly: Partial<Record<Weekday, TimeInterval[]>>;
  overrides?: DateOverride[];
}

/**
 * A document that failed its schema: the schema's errors, and with them the rule problems
 * (overlaps, dates, zone) of its well-formed parts, so a client fixes everything in one round.
 */
export function invalidAvailability(schemaErrors: FieldError[], document: unknown): DomainError {
  const known = new Set(schemaErrors.map((e) => e.field));
  const ruleErrors = availabilityRuleErrors(document).filter((e) => !known.has(e.field));
  return invalidRequest([...schemaErrors, ...ruleErrors], 'The request does not validate; see errors.');
}

/** The document as stored: every weekday present, the zone canonical, intervals and overrides sorted; else 400. */
export function normalizedAvailability(input: AvailabilityInput): Availability {
  const normalized = normalizeAvailability({
    timeZone: input.timeZone,
    weekly: Object.fromEntries(WEEKDAYS.map((day) => [day, input.weekly[day] ?? []])) as Record<
      Weekday,
      TimeInterval[]
    >,
    overrides: input.overrides ?? [],
  });
  if (!normalized.ok) throw invalidRequest(normalized.errors);
  return normalized.value;
}

/** Replaces the default schedule's hours, zone and overrides; its name stays. */
export async function replaceAvailability(
  context: AppContext,
  caller: Caller,
  input: AvailabilityInput,
): Promise<Schedule> {
  const availability = normalizedAvailability(input);
  return context.store.transaction(
    async (tx) => {
      // Queued with the calendar's other locked changes (capped bookings' counts, webhooks). A
      // booking was judged against the availability it read: as if made just before.
      await tx.lockCalendar(caller.holderId);
      const replaced = { ...(await defaultSchedule(tx, caller.holderId)), ...availability, updatedAt: context.now() };
      await tx.schedules.update(replaced);
      return replaced;
    },
    { ownerIds: [caller.holderId] },
  );
}
