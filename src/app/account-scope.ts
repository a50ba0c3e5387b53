// Whom a request acts for, resource by resource (contract §12). A request acting for a holder (a
// holder key, or an account key with `Slotwise-Holder`) acts for that holder, and the use cases
// find only its resources, as before accounts. An account key without the header (account scope)
// acts for the holder that owns the resource it names, if that holder is one of its account's;
// anything else gets the answer an unknown id gets.
import { DomainError, invalidRequest, notFound } from '../domain/errors.js';
import { actingForOwner, callerForOwner, type OwnerCaller } from './acting.js';
import { holdExpired } from './bookings.js';
import { callerFor, type AppContext, type Caller, type Principal } from './context.js';
import { unknownEventType } from './event-types.js';
import type { ListScope } from './paging.js';

type Context = Pick<AppContext, 'store' | 'holders'>;

/** `GET /bookings/:id`: a deleted holder's bookings too. */
export function callerForBooking(context: Context, principal: Principal, id: string): Promise<Caller> {
  return callerForOwner(context, principal, () => context.store.bookings.holderOf(id), `Booking ${id}`);
}

/** `GET` and `DELETE /holds/:id`. */
export function callerForHold(context: Context, principal: Principal, id: string): Promise<Caller> {
  return callerForOwner(context, principal, () => context.store.holds.holderOf(id), `Hold ${id}`);
}

/**
 * `PATCH /bookings/:id`, its cancellation and its rescheduling. A deleted holder's bookings stay
 * readable by the account, and nothing changes them any more: 409 `invalid-state`.
 */
export async function callerToChangeBooking(context: Context, principal: Principal, id: string): Promise<Caller> {
  const owner = await actingForOwner(context, principal, () => context.store.bookings.holderOf(id));
  if (!owner) throw notFound(`Booking ${id}`);
  if (owner.holderDeleted) {
    throw new DomainError('invalid-state', `Booking ${id} is of a deleted holder: it stays readable, and unchanged.`);
  }
  return owner.caller;
}

/**
 * Who takes time of the event type (`POST /holds`, `GET /slots`): its holder in account scope,
 * with the holder's calendar version as read for it (null when the request acts for a holder and
 * read it with the key). Another account's event type, or none, is an unknown `eventTypeId` (400).
 */
export async function callerForEventTypeTime(
  context: Context,
  principal: Principal,
  eventTypeId: string,
): Promise<OwnerCaller> {
  // A deleted holder's event types are not found.
  const owner = await actingForOwner(context, principal, () => context.store.eventTypes.holderOf(eventTypeId));
  if (!owner) throw unknownEventType();
  return owner;
}

/**
 * Who books (`POST /bookings`): in account scope the holder of the hold it converts, else of its
 * event type. Another account's hold (or a deleted holder's) is a hold that is not live (409
 * `hold-expired`), another account's event type an unknown `eventTypeId` (400), as for ids that
 * do not exist.
 */
export async function callerToBook(
  context: Context,
  principal: Principal,
  input: { holdId?: string; eventTypeId?: string },
): Promise<Caller> {
  if (input.holdId !== undefined) {
    const holdId = input.holdId;
    const owner = await actingForOwner(context, principal, () => context.store.holds.holderOf(holdId));
    if (!owner || owner.holderDeleted) throw holdExpired(input.holdId);
    return owner.caller;
  }
  // The body's schema requires an eventTypeId without a holdId.
  if (input.eventTypeId === undefined) throw unknownEventType();
  return (await callerForEventTypeTime(context, principal, input.eventTypeId)).caller;
}

/**
 * Whose items a list shows (`GET /event-types`, `/bookings`, `/holds`): acting for a holder, that
 * holder's; in account scope, those of every holder of the account, or of the holder `holderId`
 * names (a deleted one too: its past bookings stay readable). A `holderId` the request cannot see
 * (unknown, another account's, or acting for a holder any other) is a 400 on `holderId`, the same
 * for each, as Stripe answers a list filtered by an object that is not there.
 */
export async function listScopeOf(
  context: Context,
  principal: Principal,
  holderId: string | undefined,
): Promise<ListScope> {
  if (principal.actingFor !== null) {
    if (holderId !== undefined && holderId !== principal.actingFor.id) throw unknownHolder();
    return { caller: callerFor(principal, principal.actingFor) };
  }
  if (holderId === undefined) return { account: { accountId: principal.accountId, holderId: null } };
  const holder = await context.holders.find(holderId);
  if (!holder || holder.accountId !== principal.accountId) throw unknownHolder();
  return { account: { accountId: principal.accountId, holderId } };
}

function unknownHolder(): DomainError {
  return invalidRequest([{ field: 'holderId', message: 'is not a holder this key can see' }]);
}
