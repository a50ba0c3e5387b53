import {
  availabilityRuleErrors,
  normalizeAvailability,
  WEEKDAYS,
  type DateOverride,
  type TimeInterval,
  type Weekday,
} from '../domain/availability.js';
import { invalidRequest, type DomainError, type FieldError } from '../domain/errors.js';
import { loadAvailability } from './holder-availability.js';
import type { StoredAvailability } from './ports/store.js';
import type { AppContext, Caller } from './context.js';

export function getAvailability(context: AppContext, caller: Caller): Promise<StoredAvailability> {
  return loadAvailability(context.store, caller.holderId);
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

export async function replaceAvailability(
  context: AppContext,
  caller: Caller,
  input: AvailabilityInput,
): Promise<StoredAvailability> {
  const normalized = normalizeAvailability({
    timeZone: input.timeZone,
    weekly: Object.fromEntries(WEEKDAYS.map((day) => [day, input.weekly[day] ?? []])) as Record<
      Weekday,
      TimeInterval[]
    >,
    overrides: input.overrides ?? [],
  });
  if (!normalized.ok) throw invalidRequest(normalized.errors);
  return context.store.transaction(async (tx) => {
    // Queued with the calendar's other locked changes (capped bookings' counts, webhooks). A
    // booking was judged against the availability it read: as if made just before.
    await tx.lockCalendar(caller.holderId);
    const updatedAt = context.now();
    await tx.availability.put(caller.holderId, normalized.value, updatedAt);
    return { availability: normalized.value, updatedAt };
  });
}
