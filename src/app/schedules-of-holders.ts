import type { Transaction } from './ports/store.js';

/**
 * Whether `scheduleId` names one of the holder's schedules (contract §13): what an event type's
 * `scheduleId` and a team host's (§14) must be; every such check asks here. The holder's calendar
 * lock is held from here to the commit, as a schedule's deletion holds it while it checks that no
 * event type or team host uses the schedule: a schedule is never deleted while something moves
 * onto it. Callers checking several holders ask in sorted id order (one lock order).
 */
export async function isScheduleOfHolder(tx: Transaction, holderId: string, scheduleId: string): Promise<boolean> {
  await tx.lockCalendar(holderId);
  return (await tx.schedules.get(holderId, scheduleId)) !== undefined;
}
