import { notFound } from '../domain/errors.js';
import { HOLD_SECONDS, newHold, type Hold } from '../domain/hold.js';
import type { PageAfter } from '../domain/page.js';
import { rulesToBook, takeTime } from './booking-decision.js';
import type { AppContext, Caller } from './context.js';
import { instantField } from './instants.js';
import { pageOf, type ListScope, type Page } from './paging.js';
import { queryBounds } from './ranges.js';

export interface CreateHoldInput {
  eventTypeId: string;
  start: string | number;
  /** 30–1800 (the schema checks); 300 when absent. */
  expiresInSeconds?: number;
}

/**
 * Reserves a bookable start (contract §9) exactly as a booking would take it: the same judgement
 * and the same write (`occupy`), so a hold and a booking can never both have one time.
 */
export async function createHold(context: AppContext, caller: Caller, input: CreateHoldInput): Promise<Hold> {
  const start = instantField('start', input.start);
  return context.store.transaction(
    async (tx) => {
      const rules = await rulesToBook(tx, caller.holderId, input.eventTypeId);
      const now = context.now();
      const lifeSeconds = input.expiresInSeconds ?? HOLD_SECONDS.default;
      const hold = newHold(context.ids.newId('hld'), rules.eventType, start, lifeSeconds, now);
      await takeTime(tx, context.zones, { rules, start, now, insert: () => tx.holds.insert(hold) });
      return hold;
    },
    { ownerIds: [caller.holderId] },
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
    ownerIds: [caller.holderId],
  });
  if (!ended) throw notFound(`Hold ${id}`);
}

export interface ListHoldsQuery {
  /** Holds starting at or after it; no lower bound when absent. */
  from?: string;
  /** Holds starting before it; no upper bound when absent. */
  to?: string;
  eventTypeId?: string;
  limit: number;
  after: PageAfter | null;
}

/**
 * The holder's live holds (contract §9), or in account scope the account's holders' (§12), by
 * start: API holds and those its booking pages made (`source`), so a holder sees and can release
 * what its pages hold. Unlike bookings, no range is
 * needed: only live holds are listed, each gone within 30 minutes, a page at a time.
 */
export function listHolds(context: AppContext, scope: ListScope, query: ListHoldsQuery): Promise<Page<Hold>> {
  const { from, to } = queryBounds(query);
  const now = context.now();
  return pageOf(
    query.limit,
    (limit) => {
      const filter = {
        from: from ?? null,
        to: to ?? null,
        eventTypeId: query.eventTypeId ?? null,
        limit,
        after: query.after,
      };
      return 'account' in scope
        ? context.store.holds.listLiveOfAccount(scope.account, filter, now)
        : context.store.holds.listLive(scope.caller.holderId, filter, now);
    },
    (hold) => hold.start,
  );
}
