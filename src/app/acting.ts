import { callerFor, type AppContext, type Caller, type Principal } from './context.js';

/** A caller acting for a holder, with what was read of the holder for it. */
export interface OwnerCaller {
  caller: Caller;
  /** Null when the request acts for the holder already (the request read it with the key or the header). */
  calendarVersion: number | null;
  /** Only in account scope: a request acting for a deleted holder is refused before. */
  holderDeleted: boolean;
}

/**
 * The caller that acts on a resource for `principal` (contract §12): a request acting for a
 * holder acts for that holder, and the use case finds only its resources (nothing is looked up);
 * an account key in account scope acts for the holder `ownerOf` reads, when it is one of its
 * account's, deleted ones too (their past bookings stay readable). Undefined for anything else,
 * which the route answers as it answers an unknown id. The holder is read through the holder
 * cache: a warm request reads nothing for it.
 */
export async function actingForOwner(
  context: Pick<AppContext, 'holders'>,
  principal: Principal,
  ownerOf: () => Promise<string | undefined>,
): Promise<OwnerCaller | undefined> {
  if (principal.actingFor !== null)
    return { caller: callerFor(principal, principal.actingFor), calendarVersion: null, holderDeleted: false };
  const holderId = await ownerOf();
  if (holderId === undefined) return undefined;
  const holder = await context.holders.find(holderId);
  if (!holder || holder.accountId !== principal.accountId) return undefined;
  return {
    caller: callerFor(principal, holder),
    calendarVersion: holder.calendarVersion,
    holderDeleted: holder.deletedAt !== null,
  };
}
