// Whom a request acts for, resource by resource (contract §12). A request acting for a holder (a
// holder key, or an account key with `Slotwise-Holder`) acts for that holder, and the use cases
// find only its resources, as before accounts. An account key without the header (account scope)
// acts for the holder that owns the resource it names, if that holder is one of its account's;
// anything else gets the answer an unknown id gets.
import { DomainError, invalidRequest, notFound } from '../domain/errors.js';
import { actingForOwner, type OwnerCaller } from './acting.js';
import { holdExpired, type Booker, type ActingOn } from './bookings.js';
import { callerFor, type AppContext, type Caller, type Principal } from './context.js';
import { unknownEventType } from './event-types.js';
import type { ListScope } from './paging.js';
import type { Ownership } from './ports/store.js';

type Context = Pick<AppContext, 'store' | 'holders'>;

/** Who acts on a booking or hold by id, with the scopes its answer is shown under. */
export type ActorById = ActingOn & Pick<Caller, 'scopes'>;

/** `GET /bookings/:id`: a deleted holder's bookings too, and the account's team bookings (contract §14). */
export async function actorForBooking(context: Context, principal: Principal, id: string): Promise<ActorById> {
  const acting = await actingOn(context, principal, () => context.store.bookings.ownerOf(id));
  if (!acting) throw notFound(`Booking ${id}`);
  return acting.actor;
}

/** `GET` and `DELETE /holds/:id`: a holder's own holds, and in account scope the account's team holds too. */
export async function actorForHold(context: Context, principal: Principal, id: string): Promise<ActorById> {
  const acting = await actingOn(context, principal, () => context.store.holds.ownerOf(id));
  if (!acting) throw notFound(`Hold ${id}`);
  return acting.actor;
}

/**
 * `PATCH /bookings/:id`, its cancellation and its rescheduling. A deleted holder's bookings stay
 * readable by the account, and nothing changes them any more: 409 `invalid-state`.
 */
export async function actorToChangeBooking(context: Context, principal: Principal, id: string): Promise<ActorById> {
  const acting = await actingOn(context, principal, () => context.store.bookings.ownerOf(id));
  if (!acting) throw notFound(`Booking ${id}`);
  if (acting.holderDeleted) {
    throw new DomainError('invalid-state', `Booking ${id} is of a deleted holder: it stays readable, and unchanged.`);
  }
  return acting.actor;
}

/**
 * Who acts on a booking or hold by id (contract §12, §14). Acting for a holder: that holder (the use
 * case finds its own, and the team bookings it hosts). In account scope: the holder that owns it
 * when it is one of the account's (deleted ones too), or the account itself for its team booking
 * or hold. Undefined for anything else, which answers as an unknown id.
 */
async function actingOn(
  context: Context,
  principal: Principal,
  ownerOf: () => Promise<Ownership | undefined>,
): Promise<{ actor: ActorById; holderDeleted: boolean } | undefined> {
  if (principal.actingFor !== null) return { actor: callerFor(principal, principal.actingFor), holderDeleted: false };
  const owner = await ownerOf();
  if (!owner) return undefined;
  if (owner.holderId === null) {
    if (owner.accountId !== principal.accountId) return undefined;
    return { actor: { ...owner, scopes: principal.scopes }, holderDeleted: false };
  }
  const holder = await actingForOwner(context, principal, async () => owner.holderId);
  return holder && { actor: holder.caller, holderDeleted: holder.holderDeleted };
}

/**
 * Who takes time of the event type (`GET /slots`): its holder in account scope,
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
 * Who books or holds (`POST /bookings`, `POST /holds`). Acting for a holder: that holder. In
 * account scope: the holder of the hold it converts or of the event type, or the account itself
 * for its team event type or team hold (contract §14), with their hosts as read here (what its
 * transaction expects to write). Another account's hold (or a deleted holder's) is a hold that is
 * not live (409 `hold-expired`), another account's event type an unknown `eventTypeId` (400), as
 * for ids that do not exist.
 */
export async function bookerOf(
  context: Context,
  principal: Principal,
  input: { holdId?: string; eventTypeId?: string },
): Promise<Booker & Pick<Caller, 'scopes'>> {
  if (principal.actingFor !== null) return callerFor(principal, principal.actingFor);
  if (input.holdId !== undefined) {
    const holdId = input.holdId;
    const owner = await context.store.holds.ownerOf(holdId);
    if (owner?.holderId === null) {
      if (owner.accountId !== principal.accountId) throw holdExpired(holdId);
      return { ...owner, scopes: principal.scopes };
    }
    const acting = owner && (await actingForOwner(context, principal, async () => owner.holderId));
    if (!acting || acting.holderDeleted) throw holdExpired(holdId);
    return acting.caller;
  }
  // The bodies' schemas require an eventTypeId without a holdId.
  const eventTypeId = input.eventTypeId;
  if (eventTypeId === undefined) throw unknownEventType();
  const acting = await actingForOwner(context, principal, () => context.store.eventTypes.holderOf(eventTypeId));
  if (acting) return acting.caller;
  const team = await context.store.teamEventTypes.get(eventTypeId);
  if (team?.accountId !== principal.accountId) throw unknownEventType();
  return {
    holderId: null,
    accountId: principal.accountId,
    hostIds: team.hosts.map((host) => host.holderId),
    scopes: principal.scopes,
  };
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
