import type { Holder } from '../domain/api-key.js';
import type { EventType } from '../domain/event-type.js';
import type { AppContext } from './context.js';

/** What a holder's booking page shows: who, and the event types guests may book. */
export interface PublicProfile {
  holder: Holder;
  /** Live public event types, by title. */
  eventTypes: EventType[];
}

/**
 * The holder behind `/book/{handle}`, with its public event types; undefined when there is no
 * such handle or nothing public to book (contract §10: both look the same to a guest).
 */
export async function publicProfile(context: AppContext, handle: string): Promise<PublicProfile | undefined> {
  const holder = await context.store.holders.findByHandle(handle);
  if (!holder) return undefined;
  const eventTypes = (await context.store.eventTypes.live(holder.id))
    .filter((eventType) => eventType.public)
    .sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
  return eventTypes.length > 0 ? { holder, eventTypes } : undefined;
}

/** The name guests see. */
export function shownName(holder: Holder): string {
  return holder.displayName ?? holder.name;
}
