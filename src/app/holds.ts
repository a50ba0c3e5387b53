import { notFound } from '../domain/errors.js';
import { HOLD_SECONDS, newHold, type Hold } from '../domain/hold.js';
import { assertBookable, occupy, rulesToBook } from './bookings.js';
import type { AppContext, Caller } from './context.js';
import { instantField } from './instants.js';

export interface CreateHoldInput {
  eventTypeId: string;
  start: string | number;
  /** 30–1800 (the schema checks); 300 when absent. */
  expiresInSeconds?: number;
}

/**
 * Reserves a bookable start (contract §9) exactly as a booking would take it: the same judgement
 * and the same serialised write, so a hold and a booking can never both have one time.
 */
export async function createHold(context: AppContext, caller: Caller, input: CreateHoldInput): Promise<Hold> {
  const start = instantField('start', input.start);
  return context.store.transaction(
    async (tx) => {
      const rules = await rulesToBook(tx, caller.holderId, input.eventTypeId);
      const eventType = rules.eventType;
      const now = context.now();
      const judged = await assertBookable(tx, context.zones, rules, start, now, null);
      const hold = newHold(
        context.ids.newId('hld'),
        eventType,
        start,
        input.expiresInSeconds ?? HOLD_SECONDS.default,
        now,
      );
      await occupy(tx, eventType, judged, now, () => tx.holds.insert(hold));
      return hold;
    },
    { holderId: caller.holderId },
  );
}

/** A hold is found only while it is live: expired, released and converted ones are gone. */
export async function getHold(context: AppContext, caller: Caller, id: string): Promise<Hold> {
  const hold = await context.store.holds.get(caller.holderId, id, context.now());
  if (!hold) throw notFound(`Hold ${id}`);
  return hold;
}

/** Frees a live hold's time at once. */
export async function releaseHold(context: AppContext, caller: Caller, id: string): Promise<void> {
  const ended = await context.store.transaction((tx) => tx.holds.end(caller.holderId, id, context.now()), {
    holderId: caller.holderId,
  });
  if (!ended) throw notFound(`Hold ${id}`);
}
