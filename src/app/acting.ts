import { notFound } from '../domain/errors.js';
import { callerFor, type AppContext, type Caller, type Principal } from './context.js';

/**
 * The caller that acts on a resource of `holderId` for `principal` (contract §12): a request
 * acting for a holder reaches only that holder's resources; an account key in account scope
 * reaches those of every holder of its account, deleted ones too (their past bookings stay
 * readable). Anything else is `notFound(what)`: the same answer as for an unknown id.
 */
export async function callerForOwner(
  context: Pick<AppContext, 'store'>,
  principal: Principal,
  holderId: string | undefined,
  what: string,
): Promise<Caller> {
  if (holderId === undefined) throw notFound(what);
  if (principal.actingFor !== null) {
    if (principal.actingFor.id !== holderId) throw notFound(what);
    return callerFor(principal, principal.actingFor);
  }
  const holder = await context.store.holders.get(holderId);
  if (!holder || holder.accountId !== principal.accountId) throw notFound(what);
  return callerFor(principal, holder);
}
