import type { Holder } from '../domain/api-key.js';
import type { Booking } from '../domain/booking.js';
import type { AppContext } from './context.js';
import type { PageOwner } from './page-owners.js';

/** A booking a guest's link opens, with whose it is, who attends it and its event type's title. */
export interface LinkedBooking {
  /** Whose pages it belongs to: its holder's, or (a team booking, contract §14) its account's team pages. */
  owner: PageOwner;
  booking: Booking;
  /** Its hosts, in `hostIds` order (a holder's own booking: its holder). */
  hosts: Holder[];
  /** Event type id → title (a deleted event type's too: its bookings stay). */
  titles: Map<string, string>;
}

/**
 * The booking a `manage`, `ics` or embedded `confirmation` link was made for (in any status); undefined for a link that
 * opens nothing. The link names the booking only, so whose it is is looked up first.
 */
export async function linkedBooking(
  context: AppContext,
  use: 'manage' | 'ics' | 'confirmation',
  token: string,
): Promise<LinkedBooking | undefined> {
  const bookingId =
    use === 'confirmation' ? context.links.confirmationOf(token, context.now()) : context.links.bookingOf(use, token);
  if (bookingId === undefined) return undefined;
  const ownership = await context.store.bookings.ownerOf(bookingId);
  if (!ownership) return undefined;
  const reach = ownership.holderId === null ? { accountId: ownership.accountId } : { holderId: ownership.holderId };
  const [booking, owner] = await Promise.all([
    context.store.bookings.get(reach, bookingId),
    ownership.holderId === null
      ? context.store.accounts.get(ownership.accountId).then((account) => account && { kind: 'team' as const, account })
      : context.store.holders.get(ownership.holderId).then((holder) => holder && { kind: 'holder' as const, holder }),
  ]);
  if (!booking || !owner) return undefined;
  // A holder's own booking has its holder as its one host, just read.
  const hosts = owner.kind === 'holder' ? [owner.holder] : await hostsOf(context, booking.hostIds);
  if (!hosts) return undefined;
  // A holder's titles reach its own event types and its account's team types: a host's, a team booking's.
  const titles = await context.store.eventTypes.titles(booking.hostIds[0]!, [booking.eventTypeId]);
  return { owner, booking, hosts, titles };
}

/** The holders of `ids` (deleted ones too: a booking keeps its hosts), in that order; undefined if one is not stored. */
export async function hostsOf(context: AppContext, ids: readonly string[]): Promise<Holder[] | undefined> {
  const hosts = await Promise.all(ids.map((id) => context.store.holders.get(id)));
  return hosts.every((host): host is Holder => host !== undefined) ? hosts : undefined;
}
