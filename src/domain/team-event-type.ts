import type { FieldError } from './errors.js';
import type { EventTypeSettings } from './event-type.js';

/**
 * Contract §14: who attends a booking of a team event type. `collective`: every host;
 * `round-robin`: every fixed host and one of the others, chosen per booking.
 */
export const ASSIGNMENTS = ['collective', 'round-robin'] as const;
export type Assignment = (typeof ASSIGNMENTS)[number];

/** One host of a team event type, as stored: every field filled. */
export interface TeamHost {
  holderId: string;
  /** The host's schedule offering the type's times; null for the host's default schedule. */
  scheduleId: string | null;
  /** Round robin: a fixed host attends every booking besides the chosen one. */
  fixed: boolean;
  /** Round robin: hosts of a higher priority are chosen first (0–4). */
  priority: number;
  /** Round robin: hosts share bookings in proportion to their weights (1–1000). */
  weight: number;
}

export const MIN_HOSTS = 1;
export const MAX_HOSTS = 100;
export const MIN_PRIORITY = 0;
export const MAX_PRIORITY = 4;
export const MIN_WEIGHT = 1;
export const MAX_WEIGHT = 1_000;
/** What a host entry that leaves them out gets. */
export const HOST_DEFAULTS = { scheduleId: null, fixed: false, priority: 2, weight: 100 } as const;

/** An event type of the account, booked with its hosts' time (contract §14); it has no holder. */
export interface TeamEventType extends EventTypeSettings {
  holderId: null;
  accountId: string;
  assignment: Assignment;
  /** In the order given, each holder once. */
  hosts: TeamHost[];
}

/** A host entry as sent: what it leaves out takes `HOST_DEFAULTS`. */
export interface TeamHostInput {
  holderId: string;
  scheduleId?: string | null;
  fixed?: boolean;
  priority?: number;
  weight?: number;
}

export function teamHostOf(input: TeamHostInput): TeamHost {
  return {
    holderId: input.holderId,
    scheduleId: input.scheduleId ?? HOST_DEFAULTS.scheduleId,
    fixed: input.fixed ?? HOST_DEFAULTS.fixed,
    priority: input.priority ?? HOST_DEFAULTS.priority,
    weight: input.weight ?? HOST_DEFAULTS.weight,
  };
}

/**
 * Seats (contract §15) with round robin: each booking of a round-robin type chooses its own host,
 * so its guests cannot share one occurrence.
 */
export function seatErrors(assignment: Assignment | undefined, seats: number | null): FieldError[] {
  return assignment === 'round-robin' && seats !== null
    ? [{ field: 'seats', message: 'is not possible with round-robin: each booking chooses its own host' }]
    : [];
}

/**
 * What is wrong with a host list whatever the store holds: a holder named twice (the later entry
 * is wrong), and a round-robin type whose hosts are all fixed (there is no one to choose among).
 */
export function teamHostErrors(assignment: Assignment, hosts: readonly TeamHost[]): FieldError[] {
  const errors: FieldError[] = [];
  const firstAt = new Map<string, number>();
  hosts.forEach((host, index) => {
    const first = firstAt.get(host.holderId);
    if (first === undefined) firstAt.set(host.holderId, index);
    else errors.push({ field: `hosts[${index}].holderId`, message: `is hosts[${first}] again: each host once` });
  });
  if (assignment === 'round-robin' && hosts.length > 0 && hosts.every((host) => host.fixed)) {
    errors.push({
      field: 'hosts',
      message: 'needs at least one host that is not fixed: round robin chooses among those',
    });
  }
  return errors;
}
