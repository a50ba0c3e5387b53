import { compileAvailability } from '../domain/availability.js';
import { invalidRequest } from '../domain/errors.js';
import type { EventType } from '../domain/event-type.js';
import { formatUtc, formatWithOffset, type Instant } from '../domain/instant.js';
import { listSlots as computeSlots, occupancyWindow, type Slot } from '../domain/slots.js';
import { Zone } from '../domain/zone.js';
import type { StoreReads } from '../storage/store.js';
import { loadAvailability } from './availability.js';
import type { AppContext, Caller } from './context.js';
import { timeZoneField } from './instants.js';
import { queryRange } from './ranges.js';

export interface SlotsQuery {
  eventTypeId: string;
  from?: string;
  to?: string;
  timeZone?: string;
}

export async function listSlots(
  context: AppContext,
  caller: Caller,
  query: SlotsQuery,
): Promise<Array<{ start: string; end: string }>> {
  const { from, to } = queryRange(query);
  const zone = query.timeZone === undefined ? undefined : Zone.of(timeZoneField('timeZone', query.timeZone));
  const eventType = await bookableEventType(context.store, caller.holderId, query.eventTypeId);
  const slots = await slotsFor(context.store, eventType, from, to, context.now());
  const format = zone ? (instant: Instant) => formatWithOffset(instant, zone.offsetMsAt(instant)) : formatUtc;
  return slots.map((slot) => ({ start: format(slot.start), end: format(slot.end) }));
}

/** A live event type of the holder, or a 400 on `eventTypeId`: a reference in the input, not the addressed resource. */
export async function bookableEventType(store: StoreReads, holderId: string, eventTypeId: string): Promise<EventType> {
  const eventType = await store.getEventType(holderId, eventTypeId);
  if (!eventType) throw invalidRequest([{ field: 'eventTypeId', message: 'is not an event type of this account' }]);
  return eventType;
}

async function slotsFor(
  store: StoreReads,
  eventType: EventType,
  from: Instant,
  to: Instant,
  now: Instant,
): Promise<Slot[]> {
  const window = occupancyWindow(from, to);
  const [{ availability }, bookings] = await Promise.all([
    loadAvailability(store, eventType.holderId),
    store.occupanciesOverlapping(eventType.holderId, window.from, window.to),
  ]);
  return computeSlots(
    { availability: compileAvailability(availability), eventTypeId: eventType.id, policy: eventType, bookings, now },
    from,
    to,
  );
}
