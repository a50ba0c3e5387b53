import { defaultAvailability, normalizeAvailability, type Availability } from '../domain/availability.js';
import { invalidRequest, notFound } from '../domain/errors.js';
import type { StoreReads, StoredAvailability } from '../storage/store.js';
import type { AppContext, Caller } from './context.js';

/** The holder's availability; a holder who never set one has Mon–Fri 09:00–17:00 UTC. */
export async function loadAvailability(store: StoreReads, holderId: string): Promise<StoredAvailability> {
  const stored = await store.getAvailability(holderId);
  if (stored) return stored;
  const holder = await store.getHolder(holderId);
  if (!holder) throw notFound(`Holder ${holderId}`);
  return { availability: defaultAvailability(), updatedAt: holder.createdAt };
}

export function getAvailability(context: AppContext, caller: Caller): Promise<StoredAvailability> {
  return loadAvailability(context.store, caller.holderId);
}

export async function replaceAvailability(
  context: AppContext,
  caller: Caller,
  input: Availability,
): Promise<StoredAvailability> {
  const normalized = normalizeAvailability(input);
  if (!normalized.ok) throw invalidRequest(normalized.errors);
  return context.store.transaction(async (tx) => {
    // Queued with the calendar's other locked changes (capped bookings, reschedules, cancellations).
    // A booking that takes no lock was judged against the availability it read: as if made just before.
    await tx.lockCalendar(caller.holderId);
    const updatedAt = context.now();
    await tx.putAvailability(caller.holderId, normalized.value, updatedAt);
    return { availability: normalized.value, updatedAt };
  });
}
