import { canonicalTimeZone } from '../domain/zone.js';
import type { Holder } from '../domain/api-key.js';
import { DomainError, invalidRequest, notFound } from '../domain/errors.js';
import { firstFreeSlug } from '../domain/event-type.js';
import { handleFrom } from '../domain/holder.js';
import { newDefaultSchedule, type Schedule } from '../domain/schedule.js';
import type { PageRequest } from '../domain/page.js';
import type { AppContext } from './context.js';
import { pageOf, type Page } from './paging.js';
import type { HolderFilter, Transaction } from './ports/store.js';
import { UniqueViolation } from './ports/storage-errors.js';

// The holders of an account, managed in account scope (contract §12): an account key without
// `Slotwise-Holder`. Every use case here takes the account's id; a holder of another account is
// not found, exactly as an unknown id.

export interface HolderFields {
  name?: string;
  handle?: string;
  /** `null` shows the name to guests. */
  displayName?: string | null;
  email?: string | null;
}

export type CreateHolderInput = HolderFields & {
  name: string;
  /** The zone of the new holder's default availability (Mon–Fri 09:00–17:00); `UTC` when omitted. */
  timeZone?: string;
};

/** Tries for a free derived handle this often when other holders take the candidates meanwhile. */
const HANDLE_ATTEMPTS = 5;

/**
 * A new holder of the account, with its default schedule, its availability (Mon–Fri 09:00–17:00
 * in `timeZone`), in the same transaction: there is never a holder without it. The handle is the
 * one sent, or the first free one derived from the name. A name taken among the account's live
 * holders, or a handle taken among all live holders, is a 409 `conflict` on that field; past
 * `HOLDERS_PER_ACCOUNT` live holders, 409 `limit-reached`.
 */
export async function createHolder(context: AppContext, accountId: string, input: CreateHolderInput): Promise<Holder> {
  const timeZone = canonicalTimeZone(input.timeZone ?? 'UTC');
  if (!timeZone) throw invalidRequest([{ field: 'timeZone', message: 'must be an IANA time zone name' }]);
  const now = context.now();
  const holder: Holder = {
    id: context.ids.newId('hdr'),
    accountId,
    name: input.name,
    handle: input.handle ?? handleFrom(input.name),
    displayName: input.displayName ?? null,
    email: input.email ?? null,
    feedGeneration: 0,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  return context.store.transaction(
    async (tx) => {
      // Holding the account, so two creations at once cannot both take the last place or one name.
      await tx.accounts.lock(accountId);
      const limit = context.accounts.holdersPerAccount;
      if ((await tx.holders.countLive(accountId)) >= limit) {
        throw new DomainError(
          'limit-reached',
          `This account has ${limit} holders, the most it may have (HOLDERS_PER_ACCOUNT); delete one to make another.`,
        );
      }
      const schedule = newDefaultSchedule(context.ids.newId('sch'), holder.id, timeZone, now);
      return insertWithFreeHandle(tx, holder, schedule, input.handle === undefined);
    },
    { ownerIds: [holder.id] },
  );
}

/** Inserts the holder; a derived handle that another holder takes meanwhile is derived again. */
async function insertWithFreeHandle(
  tx: Transaction,
  holder: Holder,
  defaultSchedule: Schedule,
  handleDerived: boolean,
): Promise<Holder> {
  const base = holder.handle;
  for (let attempt = 0; attempt < HANDLE_ATTEMPTS; attempt++) {
    if (await tx.holders.findByName(holder.accountId, holder.name)) throw nameTaken(holder.name);
    const handle = handleDerived ? firstFreeSlug(base, await tx.holders.handlesLike(base)) : base;
    if (!handleDerived && (await tx.holders.findByHandle(handle))) throw handleTaken(handle);
    const candidate = { ...holder, handle };
    if (await tx.holders.insert(candidate, defaultSchedule)) return candidate;
    // Refused: a concurrent holder took the name or the handle (committed by now); the next round
    // says which, or derives another handle.
  }
  throw new Error(`no free handle for holder ${holder.name} after ${HANDLE_ATTEMPTS} attempts`);
}

export function listHolders(
  context: AppContext,
  accountId: string,
  filter: HolderFilter,
  page: PageRequest,
): Promise<Page<Holder>> {
  return pageOf(
    page.limit,
    (limit) => context.store.holders.list(accountId, filter, { limit, after: page.after }),
    (holder) => holder.createdAt,
  );
}

/** A live holder of the account; anything else (unknown, another account's, deleted) is not found. */
export async function getHolder(context: Pick<AppContext, 'store'>, accountId: string, id: string): Promise<Holder> {
  return liveHolderOf(await context.store.holders.get(id), accountId, id);
}

function liveHolderOf(holder: Holder | undefined, accountId: string, id: string): Holder {
  if (!holder || holder.accountId !== accountId || holder.deletedAt !== null) throw notFound(`Holder ${id}`);
  return holder;
}

/**
 * Changes only the fields sent. A new handle moves the booking pages (old page links stop
 * working); a name or handle another live holder has is a 409 `conflict` on that field.
 */
export async function updateHolder(
  context: AppContext,
  accountId: string,
  id: string,
  changes: HolderFields,
): Promise<Holder> {
  try {
    return await context.store.transaction(
      async (tx) => {
        await tx.accounts.lock(accountId);
        const current = liveHolderOf(await tx.holders.get(id), accountId, id);
        const updated: Holder = {
          ...current,
          name: changes.name ?? current.name,
          handle: changes.handle ?? current.handle,
          displayName: changes.displayName === undefined ? current.displayName : changes.displayName,
          email: changes.email === undefined ? current.email : changes.email,
          updatedAt: context.now(),
        };
        if (updated.name !== current.name && (await tx.holders.findByName(accountId, updated.name)))
          throw nameTaken(updated.name);
        if (updated.handle !== current.handle && (await tx.holders.findByHandle(updated.handle)))
          throw handleTaken(updated.handle);
        await tx.holders.update(updated);
        return updated;
      },
      { ownerIds: [id] },
    );
  } catch (error) {
    // Another holder claiming the same free name or handle at once: the unique index decided.
    if (!(error instanceof UniqueViolation)) throw error;
    const namesake =
      changes.name === undefined ? undefined : await context.store.holders.findByName(accountId, changes.name);
    throw namesake && namesake.id !== id ? nameTaken(changes.name!) : handleTaken(changes.handle ?? '');
  }
}

/**
 * Deletes the holder (contract §12), refused with 409 `invalid-state` while it has a confirmed
 * booking that has not ended or hosts a live team event type (a team type being given it as a
 * host meanwhile keeps it from deletion until that commits, and is then seen). In one transaction: the holder is marked deleted (its name and
 * handle are free again, its pages and `Slotwise-Holder` answer 404), its keys are revoked (401),
 * its live holds released, its webhooks (with their deliveries) and calendar sources (with their
 * busy time) deleted, its calendar feed link ended and its event types deleted. Its bookings stay,
 * readable by the account by id. The scope names the holder and its account, so this process's
 * caches drop their keys at the commit.
 */
export async function deleteHolder(context: AppContext, accountId: string, id: string): Promise<void> {
  await context.store.transaction(
    async (tx) => {
      // Locked first: a booking of the holder being written now is waited for, and seen below.
      const holder = liveHolderOf(await tx.holders.lockedLive(id), accountId, id);
      const now = context.now();
      if (await tx.holders.hasBookingsNotEnded(holder.id, now)) {
        throw new DomainError(
          'invalid-state',
          `Holder ${id} has confirmed bookings that have not ended; cancel them (or wait until they are over) before deleting it.`,
        );
      }
      // No live team type is left with a host that is gone (contract §12, §14).
      if (await tx.holders.hostsLiveTeamType(holder.id)) {
        throw new DomainError(
          'invalid-state',
          `Holder ${id} hosts team event types; take it out of their hosts (or delete them) before deleting it.`,
        );
      }
      await tx.holders.markDeleted(holder.id, now);
      await tx.apiKeys.revokeAllOf(holder.id, now);
      await tx.holds.endAllOfHolder(holder.id);
      await tx.webhooks.deleteAllOf(holder.id);
      await tx.calendarSources.deleteAllOf(holder.id);
      await tx.eventTypes.deleteAllOf(holder.id, now);
    },
    { ownerIds: [id, accountId] },
  );
}

function nameTaken(name: string): DomainError {
  return new DomainError('conflict', `The name "${name}" is taken by another holder of this account.`, [
    { field: 'name', message: 'is taken' },
  ]);
}

function handleTaken(handle: string): DomainError {
  return new DomainError('conflict', `The handle "${handle}" is taken by another holder.`, [
    { field: 'handle', message: 'is taken' },
  ]);
}
