import {
  shownUrl,
  sourceAddressProblems,
  type CalendarSource,
  type CalendarSourceType,
  type SourceAddress,
} from '../domain/calendar-source.js';
import { queueFutureWrites } from './booking-calendar-writes.js';
import { DomainError, invalidRequest, notFound } from '../domain/errors.js';
import type { PageRequest } from '../domain/page.js';
import type { SourceBusy } from '../domain/calendar-source.js';
import type { AppContext, Caller } from './context.js';
import { pageOf, type Page } from './paging.js';
import type { StoredSource, Transaction } from './ports/store.js';
import { assertPublicAddress } from './public-address.js';
import { queryRange } from './ranges.js';

export interface CreateSourceInput {
  type: CalendarSourceType;
  url: string;
  username?: string;
  password?: string;
  name?: string | null;
  writeBookings?: boolean;
}

export interface UpdateSourceInput {
  name?: string | null;
  writeBookings?: boolean;
  url?: string;
  username?: string;
  password?: string;
}

/**
 * The sealed address is bound to its source's id: a sealed text copied to another row does not
 * open there.
 */
export function sealAddress(context: AppContext, sourceId: string, address: SourceAddress): string {
  return context.secrets.encrypt('stored-credentials', JSON.stringify(address), `calendar-source:${sourceId}`);
}

/** The source's address; undefined when no key of SLOTWISE_SECRET opens it (rotated out). */
export function openAddress(context: AppContext, sourceId: string, sealed: string): SourceAddress | undefined {
  const plain = context.secrets.decrypt('stored-credentials', sealed, `calendar-source:${sourceId}`);
  return plain === undefined ? undefined : (JSON.parse(plain) as SourceAddress);
}

/** The address of the holder's source, opened (for a write to it); undefined for no such source, or one no key opens. */
export async function openedAddress(
  context: AppContext,
  holderId: string,
  sourceId: string,
): Promise<SourceAddress | undefined> {
  const stored = await context.store.calendarSources.stored(holderId, sourceId);
  return stored && openAddress(context, sourceId, stored.sealedAddress);
}

async function checkedAddress(context: AppContext, address: SourceAddress): Promise<SourceAddress> {
  const { url, errors } = sourceAddressProblems(address);
  if (errors.length > 0) throw invalidRequest(errors);
  await assertPublicAddress(url, context.calendarSources.allowPrivateTargets, 'url');
  return { ...address, url };
}

export async function createCalendarSource(
  context: AppContext,
  caller: Caller,
  input: CreateSourceInput,
): Promise<CalendarSource> {
  assertWritable(input.type, input.writeBookings);
  const address = await checkedAddress(context, {
    type: input.type,
    url: input.url,
    ...(input.username === undefined ? {} : { username: input.username }),
    ...(input.password === undefined ? {} : { password: input.password }),
  });
  const now = context.now();
  const id = context.ids.newId('cal');
  const source: CalendarSource = {
    id,
    holderId: caller.holderId,
    type: input.type,
    name: input.name ?? null,
    url: shownUrl(input.type, address.url),
    status: 'pending',
    lastSyncedAt: null,
    lastError: null,
    writeBookings: input.writeBookings ?? false,
    lastWriteError: null,
    createdAt: now,
    updatedAt: now,
  };
  const writes = await context.store.transaction(async (tx) => {
    // Under the holder's calendar lock, so two creations at once cannot both take the last place.
    await tx.lockCalendar(caller.holderId);
    const limit = context.calendarSources.limitPerHolder;
    if ((await tx.calendarSources.count(caller.holderId)) >= limit) {
      throw new DomainError(
        'limit-reached',
        `This account has ${limit} calendar sources, the most it may have; delete one to add another.`,
      );
    }
    if (source.writeBookings) await assertNoOtherWritten(tx, caller.holderId, id);
    await tx.calendarSources.insert(
      { source, sealedAddress: sealAddress(context, id, address), syncState: null, busyDigest: null, failing: false },
      now,
    );
    return source.writeBookings ? queueFutureWrites(context, tx, { ...source, accountId: caller.accountId }, now) : 0;
  });
  if (writes > 0) context.calendarWritesQueued?.();
  context.sourcesChanged?.();
  return source;
}

export async function getCalendarSource(context: AppContext, caller: Caller, id: string): Promise<CalendarSource> {
  const source = await context.store.calendarSources.get(caller.holderId, id);
  if (!source) throw notFound(`Calendar source ${id}`);
  return source;
}

export function listCalendarSources(
  context: AppContext,
  caller: Caller,
  page: PageRequest,
): Promise<Page<CalendarSource>> {
  return pageOf(
    page.limit,
    (limit) => context.store.calendarSources.list(caller.holderId, { limit, after: page.after }),
    (source) => source.createdAt,
  );
}

/**
 * Changes only the fields sent. A new address or credentials start over: the source is `pending`
 * and synced at once, forgetting what the old address answered; its busy time stays until that
 * sync replaces it.
 */
export async function updateCalendarSource(
  context: AppContext,
  caller: Caller,
  id: string,
  changes: UpdateSourceInput,
): Promise<CalendarSource> {
  const stored = await context.store.calendarSources.stored(caller.holderId, id);
  if (!stored) throw notFound(`Calendar source ${id}`);
  assertWritable(stored.source.type, changes.writeBookings);
  const address = await newAddress(context, stored, changes);
  const { updated, writes } = await context.store.transaction(async (tx) => {
    const switchedOn = changes.writeBookings === true;
    if (switchedOn) await tx.lockCalendar(caller.holderId);
    const current = await tx.calendarSources.stored(caller.holderId, id);
    if (!current) throw notFound(`Calendar source ${id}`);
    if (switchedOn && !current.source.writeBookings) await assertNoOtherWritten(tx, caller.holderId, id);
    const now = context.now();
    const source: CalendarSource = {
      ...current.source,
      name: changes.name === undefined ? current.source.name : changes.name,
      writeBookings: changes.writeBookings ?? current.source.writeBookings,
      ...(address ? { url: shownUrl(current.source.type, address.url), status: 'pending' as const } : {}),
      updatedAt: now,
    };
    await tx.calendarSources.update(
      {
        ...current,
        source,
        ...(address ? { sealedAddress: sealAddress(context, id, address), syncState: null } : {}),
      },
      address ? now : undefined,
    );
    const switchedOnNow = source.writeBookings && !current.source.writeBookings;
    const writes = switchedOnNow
      ? await queueFutureWrites(context, tx, { ...source, accountId: current.accountId }, now)
      : 0;
    return { updated: source, writes };
  });
  if (writes > 0) context.calendarWritesQueued?.();
  if (address) context.sourcesChanged?.();
  return updated;
}

/** `writeBookings` is for CalDAV sources only: an ICS feed cannot be written to. */
function assertWritable(type: CalendarSourceType, writeBookings: boolean | undefined): void {
  if (writeBookings && type !== 'caldav')
    throw invalidRequest([{ field: 'writeBookings', message: 'is only for caldav sources' }]);
}

/** At most one source per holder takes its bookings (contract §16); called under the holder's calendar lock. */
async function assertNoOtherWritten(tx: Transaction, holderId: string, id: string): Promise<void> {
  const written = await tx.calendarSources.writtenTo(holderId);
  if (written && written.id !== id)
    throw new DomainError(
      'conflict',
      `Calendar source ${written.id} already takes this holder's bookings; switch its writeBookings off first.`,
    );
}

/**
 * The source's new address when `changes` readdress it: what is sent, over what is stored. An
 * address no key opens any more (SLOTWISE_SECRET rotated before the source was read again) must be
 * sent again whole: its URL, and for CalDAV its password.
 */
async function newAddress(
  context: AppContext,
  stored: StoredSource,
  changes: UpdateSourceInput,
): Promise<SourceAddress | undefined> {
  if (changes.url === undefined && changes.username === undefined && changes.password === undefined) return undefined;
  const kept: Partial<SourceAddress> = openAddress(context, stored.source.id, stored.sealedAddress) ?? {};
  const url = changes.url ?? kept.url;
  const username = changes.username ?? kept.username;
  const password = changes.password ?? kept.password;
  const lost = (field: string) =>
    invalidRequest([
      { field, message: 'must be sent again: the stored one cannot be read with the current SLOTWISE_SECRET' },
    ]);
  if (url === undefined) throw lost('url');
  if (stored.source.type === 'caldav' && password === undefined) throw lost('password');
  return checkedAddress(context, {
    type: stored.source.type,
    url,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
  });
}

/** Removes the source and its busy time: the next slot answer no longer leaves it out. */
export async function deleteCalendarSource(context: AppContext, caller: Caller, id: string): Promise<void> {
  await context.store.transaction(async (tx) => {
    if (!(await tx.calendarSources.delete(caller.holderId, id))) throw notFound(`Calendar source ${id}`);
    await tx.holders.bumpCalendarVersion(caller.holderId);
  });
}

/** The busy intervals the holder's sources contribute in [from, to), by start (contract §11: at most 62 days). */
export async function listBusy(
  context: AppContext,
  caller: Caller,
  query: { from: string; to: string },
  page: PageRequest,
): Promise<Page<SourceBusy & { id: string }>> {
  const { from, to } = queryRange(query);
  return pageOf(
    page.limit,
    async (limit) =>
      (await context.store.busyTime.list(caller.holderId, from, to, { limit, after: page.after })).map((busy) => ({
        ...busy,
        // The keyset's id: within one start, the source.
        id: busy.sourceId,
      })),
    (busy) => busy.start,
  );
}
