import { DomainError, notFound } from '../domain/errors.js';
import type { PageRequest } from '../domain/page.js';
import type { Schedule } from '../domain/schedule.js';
import { normalizedAvailability, type AvailabilityInput } from './availability.js';
import type { AppContext, Caller } from './context.js';
import { pageOf, type Page } from './paging.js';

// A holder's weekly schedules (contract §13). Each change runs under the holder's calendar lock,
// as the availability's did: queued with booking decisions that count a daily cap, and with the
// event type changes that name a schedule, so a schedule is never deleted while an event type
// that is being moved onto it commits.

/** What a client sends: a whole availability document with a name. */
export type ScheduleInput = AvailabilityInput & { name: string };

/** The default schedule first, then the others oldest first, a page at a time. */
export function listSchedules(context: AppContext, caller: Caller, page: PageRequest): Promise<Page<Schedule>> {
  return pageOf(
    page.limit,
    (limit) => context.store.schedules.list(caller.holderId, { limit, after: page.after }),
    // The list's order as a number (see `ScheduleReads.list`): the default before every instant.
    (schedule) => (schedule.isDefault ? 0 : schedule.createdAt),
  );
}

export async function getSchedule(context: AppContext, caller: Caller, id: string): Promise<Schedule> {
  const schedule = await context.store.schedules.get(caller.holderId, id);
  if (!schedule) throw notFound(`Schedule ${id}`);
  return schedule;
}

/** A new schedule of the holder; past `SCHEDULES_PER_HOLDER` schedules (the default included), 409 `limit-reached`. */
export async function createSchedule(context: AppContext, caller: Caller, input: ScheduleInput): Promise<Schedule> {
  const availability = normalizedAvailability(input);
  return context.store.transaction(
    async (tx) => {
      // Held until the commit, so two creations at once cannot both take the last place.
      await tx.lockCalendar(caller.holderId);
      const limit = context.accounts.schedulesPerHolder;
      if ((await tx.schedules.count(caller.holderId)) >= limit) {
        throw new DomainError(
          'limit-reached',
          `This holder has ${limit} schedules, the most it may have (SCHEDULES_PER_HOLDER); delete one to make another.`,
        );
      }
      const now = context.now();
      const schedule: Schedule = {
        ...availability,
        id: context.ids.newId('sch'),
        holderId: caller.holderId,
        name: input.name,
        isDefault: false,
        createdAt: now,
        updatedAt: now,
      };
      await tx.schedules.insert(schedule);
      return schedule;
    },
    { ownerIds: [caller.holderId] },
  );
}

/** Replaces the whole schedule, its name too; the event types booked in it follow at once. */
export async function replaceSchedule(
  context: AppContext,
  caller: Caller,
  id: string,
  input: ScheduleInput,
): Promise<Schedule> {
  const availability = normalizedAvailability(input);
  return context.store.transaction(
    async (tx) => {
      await tx.lockCalendar(caller.holderId);
      const current = await tx.schedules.get(caller.holderId, id);
      if (!current) throw notFound(`Schedule ${id}`);
      const replaced: Schedule = { ...current, ...availability, name: input.name, updatedAt: context.now() };
      await tx.schedules.update(replaced);
      return replaced;
    },
    { ownerIds: [caller.holderId] },
  );
}

/** Deletes a schedule; the default one, or one a live event type books in, is 409 `conflict`. */
export async function deleteSchedule(context: AppContext, caller: Caller, id: string): Promise<void> {
  await context.store.transaction(
    async (tx) => {
      await tx.lockCalendar(caller.holderId);
      const schedule = await tx.schedules.get(caller.holderId, id);
      if (!schedule) throw notFound(`Schedule ${id}`);
      if (schedule.isDefault) {
        throw new DomainError(
          'conflict',
          `Schedule ${id} is the holder's default schedule, its availability; it cannot be deleted.`,
        );
      }
      if (await tx.schedules.inUse(caller.holderId, id)) {
        throw new DomainError(
          'conflict',
          `Schedule ${id} is in use by an event type; give the event type another scheduleId (or delete it) first.`,
        );
      }
      await tx.schedules.delete(caller.holderId, id);
    },
    { ownerIds: [caller.holderId] },
  );
}
