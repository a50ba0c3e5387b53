import { defaultAvailability } from '../domain/availability.js';
import { notFound } from '../domain/errors.js';
import type { Instant } from '../domain/instant.js';
import type { Reads, StoredAvailability } from './ports/store.js';

/** The holder's availability; a holder who never set one has Mon–Fri 09:00–17:00 UTC. */
export async function loadAvailability(
  store: Pick<Reads, 'availability' | 'holders'>,
  holderId: string,
): Promise<StoredAvailability> {
  const stored = await store.availability.get(holderId);
  if (stored) return stored;
  const holder = await store.holders.get(holderId);
  if (!holder) throw notFound(`Holder ${holderId}`);
  return orDefault(undefined, holder.createdAt);
}

/** What the holder set, or the default availability, dated from the holder's creation. */
export function orDefault(stored: StoredAvailability | undefined, holderCreatedAt: Instant): StoredAvailability {
  return stored ?? { availability: defaultAvailability(), updatedAt: holderCreatedAt };
}
