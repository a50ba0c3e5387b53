import { notFound } from '../domain/errors.js';
import { HOLD_SECONDS, newHold, type Hold } from '../domain/hold.js';
import type { PageAfter } from '../domain/page.js';
import { takeTime, type TakenTime } from './booking-decision.js';
import {
  expectedOwnersOf,
  holderRulesToBook,
  hostIdFor,
  hostIdOfHolderType,
  ownersOfTeam,
  reachOf,
  teamRulesToBook,
  type ActingOn,
  type Booker,
} from './bookings.js';
import type { AppContext } from './context.js';
import { instantField } from './instants.js';
import { transactionOfOwners } from './owner-scope.js';
import { pageOf, type ListScope, type Page } from './paging.js';
import { queryBounds } from './ranges.js';

export interface CreateHoldInput {
  eventTypeId: string;
  start: string | number;
  /** 30–1800 (the schema checks); 300 when absent. */
  expiresInSeconds?: number;
  /** A round-robin team event type's host to hold (contract §14); else the service chooses, as for a booking. */
  hostId?: string;
}

/**
 * Reserves a bookable start (contract §9) exactly as a booking would take it: the same judgement
 * and the same write (`occupy`), so a hold and a booking can never both have one time. A team
 * type's hold (in account scope, contract §14) occupies the hosts a booking would take, chosen
 * the same way, and is converted onto them.
 */
export async function createHold(context: AppContext, holder: Booker, input: CreateHoldInput): Promise<Hold> {
  const start = instantField('start', input.start);
  return transactionOfOwners(context, expectedOwnersOf(holder), async (tx, _events, needs) => {
    const now = context.now();
    const id = context.ids.newId('hld');
    const lifeSeconds = input.expiresInSeconds ?? HOLD_SECONDS.default;
    let hold: Hold | undefined;
    const insert = (taken: TakenTime) =>
      tx.holds.insert((hold = newHold(id, taken.time, lifeSeconds, now)), taken.seat);
    if (holder.holderId === null) {
      const rules = await teamRulesToBook(tx, holder.accountId, input.eventTypeId, now);
      needs(ownersOfTeam(holder.accountId, rules));
      const hostId = hostIdFor(rules.eventType, input.hostId);
      await takeTime(tx, context.zones, {
        rules,
        start,
        now,
        hostId,
        insert,
      });
    } else {
      const rules = await holderRulesToBook(tx, holder, input.eventTypeId);
      if (input.hostId !== undefined) throw hostIdOfHolderType();
      await takeTime(tx, context.zones, { rules, start, now, insert });
    }
    return hold!;
  });
}

/** A hold is found only while it is live: expired, released and converted ones are gone. */
export async function getHold(context: AppContext, by: ActingOn, id: string): Promise<Hold> {
  const hold = await context.store.holds.get(reachOf(by), id, context.now());
  if (!hold) throw notFound(`Hold ${id}`);
  return hold;
}

/** Frees a live hold's time at once. */
export async function releaseHold(context: AppContext, by: ActingOn, id: string): Promise<void> {
  const owner = by.holderId === null ? { accountId: by.accountId, hostIds: by.hostIds } : { holderId: by.holderId };
  const ended = await transactionOfOwners(context, expectedOwnersOf(by), (tx) =>
    tx.holds.end(owner, id, context.now()),
  );
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
