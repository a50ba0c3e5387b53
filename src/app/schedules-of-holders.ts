import type { Transaction } from './ports/store.js';

/**
 * Whether `scheduleId` names one of the holder's schedules (contract §13): what an event type's
 * `scheduleId` and a team host's (§14) must be; every such check asks here. No schedule is stored
 * yet besides each holder's default, which has no id (a null `scheduleId` names it): no id is one.
 */
export async function isScheduleOfHolder(_tx: Transaction, _holderId: string, _scheduleId: string): Promise<boolean> {
  return false;
}
