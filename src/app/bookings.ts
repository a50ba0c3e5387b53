import {
  confirmedBooking,
  type Booking,
  type BookingDetails,
  type GuestLanguage,
  type Metadata,
} from '../domain/booking.js';
import { answerErrors, type Answers } from '../domain/questions.js';
import { DomainError, invalidRequest, notFound } from '../domain/errors.js';
import { bookingFromHold } from '../domain/hold.js';
import type { EventTypeSettings } from '../domain/event-type.js';
import { DAY_MS, type Instant } from '../domain/instant.js';
import type { PageAfter } from '../domain/page.js';
import type { TeamEventType } from '../domain/team-event-type.js';
import { subscribedTo } from '../domain/webhook.js';
import type { AppContext, Caller } from './context.js';
import { instantField, timeZoneField } from './instants.js';
import { rulesToBook, takeTime, takeTimeForEach, unbookable } from './booking-decision.js';
import type { Settled } from './booking-batches.js';
import { StoreUnavailable } from './ports/storage-errors.js';
import { unknownEventType } from './event-types.js';
import { transactionOfOwners } from './owner-scope.js';
import { pageOf, type ListScope, type Page } from './paging.js';
import type { DecisionRules, Ownership, Reach, TeamDecisionRules, Transaction } from './ports/store.js';
import { queryRange } from './ranges.js';
import { scheduleReminders } from './reminders.js';
import { announce, type Actor } from './booking-announcements.js';

export interface CreateBookingInput {
  /** Required unless `holdId` is given; then, if sent, it must be the hold's. */
  eventTypeId?: string;
  /** Required unless `holdId` is given; then, if sent, it must be the hold's. */
  start?: string | number;
  /** Books a live hold's time (contract §9). */
  holdId?: string;
  guestName: string;
  guestEmail: string;
  guestTimeZone?: string;
  /** The language of the guest's e-mails (contract §16); default `en`. */
  guestLanguage?: GuestLanguage;
  notes?: string;
  /** Checked against the event type's questions (contract §10). */
  answers?: Answers;
  metadata?: Metadata;
  /** A round-robin team event type's host to book (contract §14); else the service chooses. */
  hostId?: string;
}

/**
 * Who books (contract §12, §14): a holder, its own event types; or an account, its team event
 * types, with the hosts its transaction expects to write (the type's or the hold's, as last read).
 */
export type Booker = Pick<Caller, 'holderId' | 'accountId'> | TeamBooker;
export interface TeamBooker {
  holderId: null;
  accountId: string;
  hostIds: readonly string[];
}

export async function createBooking(
  context: AppContext,
  booker: Booker,
  input: CreateBookingInput,
  actor: Actor = 'api',
): Promise<Booking> {
  if (input.holdId !== undefined) return bookHold(context, booker, input.holdId, input, actor);
  const missing = (['eventTypeId', 'start'] as const).filter((field) => input[field] === undefined);
  if (missing.length > 0) {
    throw invalidRequest(missing.map((field) => ({ field, message: 'is required (or a holdId)' })));
  }
  const start = instantField('start', input.start!);
  const eventTypeId = input.eventTypeId!;
  if (booker.holderId !== null) {
    const holder = { holderId: booker.holderId, accountId: booker.accountId };
    return context.bookingBatches.decide(
      `${holder.holderId}\n${eventTypeId}\n${start}`,
      { input, actor },
      (requests: HolderBookingRequest[]) => bookHolderStart(context, holder, eventTypeId, start, requests),
    );
  }
  return transactionOfOwners(context, expectedOwnersOf(booker), async (tx, events, needs) => {
    const now = context.now();
    const id = context.ids.newId('bkg');
    let booking: Booking | undefined;
    const rules = await teamRulesToBook(tx, booker.accountId, eventTypeId, now);
    needs(ownersOfTeam(booker.accountId, rules));
    const hostId = hostIdFor(rules.eventType, input.hostId);
    const details = detailsOf(input, rules.eventType, actor);
    await takeTime(tx, context.zones, {
      rules,
      start,
      now,
      hostId,
      insert: (taken) => tx.bookings.insert((booking = confirmedBooking(id, taken.time, details, now)), taken.seat),
    });
    await announce(context, tx, events, booker.accountId, booking!, 'booking.created', { actor }, now);
    await scheduleReminders(tx, booking!, booker.accountId, rules.eventType.reminders, now);
    return booking!;
  });
}

/** One booking of a holder's own event type, as `createBooking` was asked for it. */
interface HolderBookingRequest {
  input: CreateBookingInput;
  actor: Actor;
}

/**
 * Books each of `requests` (bookings of the holder's event type at `start`, in the order they
 * arrived) as if each had its own transaction after the one before it committed, in one
 * transaction (`BookingBatches`): what refuses one request (its answers, the time taken, no seat
 * left) is its own answer; the others are booked, each announced with its own events, e-mails and
 * reminders. What would refuse all of them at once, or fails the transaction, is found again by
 * deciding each alone, so every request gets the answer it would have had by itself.
 */
async function bookHolderStart(
  context: AppContext,
  holder: Pick<Caller, 'holderId' | 'accountId'>,
  eventTypeId: string,
  start: Instant,
  requests: readonly HolderBookingRequest[],
): Promise<Array<Settled<Booking>>> {
  try {
    return await transactionOfOwners(context, [holder.holderId], async (tx, events) => {
      const now = context.now();
      const rules = await holderRulesToBook(tx, holder, eventTypeId);
      const settled: Array<Settled<Booking>> = [];
      // Those whose answers pass, in order: each the booking it would be, once written.
      const deciding: Array<{ index: number; details: BookingDetails; id: string; booking?: Booking }> = [];
      for (const [index, { input, actor }] of requests.entries()) {
        try {
          if (input.hostId !== undefined) throw hostIdOfHolderType();
          deciding.push({ index, details: detailsOf(input, rules.eventType, actor), id: context.ids.newId('bkg') });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          settled[index] = { ok: false, error };
        }
      }
      if (deciding.length === 0) throw new NothingBooked(settled);
      const refusals = await takeTimeForEach(tx, context.zones, {
        rules,
        start,
        now,
        count: deciding.length,
        write: (writes) =>
          tx.bookings.insertEach(
            writes.map(({ index, taken }) => {
              const decided = deciding[index]!;
              decided.booking = confirmedBooking(decided.id, taken.time, decided.details, now);
              return { booking: decided.booking, seat: taken.seat };
            }),
          ),
      });
      const webhookIds = subscribedTo(rules.webhooks, 'booking.created');
      const sourceCounts = new Map([[holder.holderId, rules.sources]]);
      for (const [position, { index, booking }] of deciding.entries()) {
        const refusal = refusals[position];
        if (refusal) {
          settled[index] = { ok: false, error: unbookable(refusal) };
          continue;
        }
        const { actor } = requests[index]!;
        await announce(
          context,
          tx,
          events,
          holder.accountId,
          booking!,
          'booking.created',
          { actor },
          now,
          webhookIds,
          sourceCounts,
        );
        await scheduleReminders(tx, booking!, holder.accountId, rules.eventType.reminders, now);
        settled[index] = { ok: true, value: booking! };
      }
      // Nothing booked: nothing is kept either (expired holds removed on the way), as when each is refused alone.
      if (!settled.some((outcome) => outcome.ok)) throw new NothingBooked(settled);
      return settled;
    });
  } catch (error) {
    if (error instanceof NothingBooked) return error.settled;
    // Alone, each would fail the same way: not asked again of a store that is unavailable.
    if (requests.length === 1 || error instanceof StoreUnavailable) return requests.map(() => ({ ok: false, error }));
    const alone: Array<Settled<Booking>> = [];
    for (const request of requests)
      alone.push(...(await bookHolderStart(context, holder, eventTypeId, start, [request])));
    return alone;
  }
}

/** Ends a transaction of `bookHolderStart` that booked nothing, with each request's refusal. */
class NothingBooked extends Error {
  constructor(readonly settled: Array<Settled<Booking>>) {
    super('no request of the batch was booked');
  }
}

/**
 * The rules of a booking or hold of the holder's own live event type; a team type the holder hosts
 * is booked in account scope only (contract §14: 403), any other is an unknown `eventTypeId` (400).
 */
export async function holderRulesToBook(
  tx: Transaction,
  holder: Pick<Caller, 'holderId' | 'accountId'>,
  eventTypeId: string,
): Promise<DecisionRules> {
  const rules = await tx.decisions.rulesFor(holder.holderId, eventTypeId);
  if (rules) return rules;
  const team = await tx.teamEventTypes.get(eventTypeId);
  if (team?.accountId === holder.accountId && team.hosts.some((host) => host.holderId === holder.holderId))
    throw new DomainError(
      'forbidden',
      `Event type ${eventTypeId} is a team event type: only account scope (an account key without Slotwise-Holder) books and holds it, choosing among its hosts.`,
    );
  throw unknownEventType();
}

/** Round robin's choice counts a host's bookings of the type created in these last days (contract §14). */
const LOAD_DAYS = 30;

/** The rules of a booking or hold of the account's live team event type, else `missing()` (by default a 400 on `eventTypeId`). */
export async function teamRulesToBook(
  tx: Transaction,
  accountId: string,
  eventTypeId: string,
  now: Instant,
  missing: () => DomainError = unknownEventType,
): Promise<TeamDecisionRules> {
  const rules = await tx.decisions.teamRulesFor(accountId, eventTypeId, now - LOAD_DAYS * DAY_MS);
  if (!rules) throw missing();
  return rules;
}

/**
 * The round-robin host a booking, hold or reschedule asks for (contract §14): null when none is
 * asked for; a 400 on `hostId` when it is no host of the type that is not fixed (a collective
 * type has none).
 */
export function hostIdFor(eventType: TeamEventType, hostId: string | undefined): string | null {
  if (hostId === undefined) return null;
  const chosen =
    eventType.assignment === 'round-robin' && eventType.hosts.some((h) => h.holderId === hostId && !h.fixed);
  if (!chosen)
    throw invalidRequest([
      {
        field: 'hostId',
        message:
          eventType.assignment === 'collective'
            ? 'is only for round-robin event types: a collective booking takes every host'
            : 'is not a host of this event type that is not fixed',
      },
    ]);
  return hostId;
}

export function hostIdOfHolderType(): DomainError {
  return invalidRequest([
    { field: 'hostId', message: 'is only for round-robin team event types: this one books its holder' },
  ]);
}

/** The owners a team decision writes: the account (its event) and every host of the type. */
export function ownersOfTeam(accountId: string, rules: TeamDecisionRules): string[] {
  return [accountId, ...rules.hosts.map((host) => host.holderId)];
}

/** The owners a booker's transaction is scoped to at first. */
export function expectedOwnersOf(booker: Booker | ActingOn): string[] {
  return booker.holderId === null ? [booker.accountId, ...booker.hostIds] : [booker.holderId];
}

/**
 * Books a live hold's time as it was reserved (contract §9: notice, window and busy time are not
 * judged again) on the hosts it holds, and ends the hold, in one transaction: ending it is one
 * conditional statement, so of a conversion and anything racing it for the hold (another
 * conversion, a release, a booking of its time just after it expired) exactly one wins.
 */
async function bookHold(
  context: AppContext,
  booker: Booker,
  holdId: string,
  input: CreateBookingInput,
  actor: Actor,
): Promise<Booking> {
  const start = input.start === undefined ? undefined : instantField('start', input.start);
  return transactionOfOwners(context, expectedOwnersOf(booker), async (tx, events, needs) => {
    const now = context.now();
    const reach: Reach = booker.holderId === null ? { accountId: booker.accountId } : { holderId: booker.holderId };
    const hold = await tx.holds.get(reach, holdId, now);
    if (!hold) throw holdExpired(holdId);
    // Deleting an event type ends its holds, so a live hold's event type is there.
    const expired = () => holdExpired(holdId);
    const rules =
      booker.holderId === null
        ? await teamRulesToBook(tx, booker.accountId, hold.eventTypeId, now, expired)
        : await rulesToBook(tx, booker.holderId, hold.eventTypeId, expired);
    needs(booker.holderId === null ? [booker.accountId, ...hold.hostIds] : [booker.holderId]);
    const mismatched = [
      ...(input.eventTypeId !== undefined && input.eventTypeId !== hold.eventTypeId ? ['eventTypeId'] : []),
      ...(start !== undefined && start !== hold.start ? ['start'] : []),
    ];
    if (mismatched.length > 0) {
      throw invalidRequest(mismatched.map((field) => ({ field, message: `is not the ${field} of hold ${holdId}` })));
    }
    if (input.hostId !== undefined) {
      if (rules.eventType.holderId !== null) throw hostIdOfHolderType();
      if (hostIdFor(rules.eventType, input.hostId) !== null && !hold.hostIds.includes(input.hostId))
        throw invalidRequest([{ field: 'hostId', message: `is not a host of hold ${holdId}` }]);
    }
    const details = detailsOf(input, rules.eventType, actor);
    const ended = await tx.holds.end(
      hold.holderId === null ? { accountId: booker.accountId, hostIds: hold.hostIds } : { holderId: hold.holderId },
      holdId,
      now,
    );
    if (!ended) throw holdExpired(holdId);
    const booking = bookingFromHold(context.ids.newId('bkg'), ended, details, now);
    // The hold kept its time from every other booking and hold, so nothing can refuse it here.
    await takeTime(tx, context.zones, {
      rules,
      start: hold.start,
      now,
      held: ended,
      insert: (taken) => tx.bookings.insert(booking, taken.seat),
    });
    const webhookIds = 'webhooks' in rules ? subscribedTo(rules.webhooks, 'booking.created') : undefined;
    await announce(context, tx, events, booker.accountId, booking, 'booking.created', { actor }, now, webhookIds);
    await scheduleReminders(tx, booking, booker.accountId, rules.eventType.reminders, now);
    return booking;
  });
}

/** The booking's details from the input, its answers checked against the event type's questions (400 per failing answer). */
function detailsOf(input: CreateBookingInput, eventType: EventTypeSettings, actor: Actor): BookingDetails {
  const answers = input.answers ?? {};
  const errors = answerErrors(eventType.questions, answers);
  if (errors.length > 0) throw invalidRequest(errors);
  return {
    guestName: input.guestName,
    guestEmail: input.guestEmail,
    guestTimeZone: input.guestTimeZone === undefined ? null : timeZoneField('guestTimeZone', input.guestTimeZone),
    guestLanguage: input.guestLanguage ?? 'en',
    notes: input.notes ?? null,
    answers,
    metadata: input.metadata ?? {},
    source: actor === 'guest' ? 'page' : 'api',
    location: eventType.location,
  };
}

export function holdExpired(holdId: string): DomainError {
  return new DomainError(
    'hold-expired',
    `Hold ${holdId} is not live: it expired, was released or booked, or never existed for this account.`,
  );
}

/**
 * Who acts on a booking or hold by id (contract §12, §14): a holder, on its own and (bookings) the
 * team bookings it hosts; or the account, on its team booking or hold (with its hosts, as read to
 * find it).
 */
export type ActingOn = Pick<Caller, 'holderId' | 'accountId'> | Extract<Ownership, { holderId: null }>;

export function reachOf(actor: ActingOn): Reach {
  return actor.holderId === null ? { accountId: actor.accountId } : { holderId: actor.holderId };
}

/** Whose rows a change of the booking writes: its holder's, or the account's (its event) and its hosts'. */
export function ownersOfBooking(booking: Booking, accountId: string): string[] {
  return booking.holderId === null ? [accountId, ...booking.hostIds] : [booking.holderId];
}

export async function getBooking(context: AppContext, actor: ActingOn, id: string): Promise<Booking> {
  const booking = await context.store.bookings.get(reachOf(actor), id);
  if (!booking) throw notFound(`Booking ${id}`);
  return booking;
}

export interface ListBookingsQuery {
  from?: string;
  to?: string;
  eventTypeId?: string;
  limit: number;
  after: PageAfter | null;
}

/** By start: the holder's confirmed bookings, or in account scope those of the account's holders, deleted ones too. */
export function listBookings(context: AppContext, scope: ListScope, query: ListBookingsQuery): Promise<Page<Booking>> {
  const { from, to } = queryRange(query, context.now());
  return pageOf(
    query.limit,
    (limit) => {
      const filter = { from, to, eventTypeId: query.eventTypeId ?? null, limit, after: query.after };
      return 'account' in scope
        ? context.store.bookings.listConfirmedOfAccount(scope.account, filter)
        : context.store.bookings.listConfirmed(scope.caller.holderId, filter);
    },
    (booking) => booking.start,
  );
}
