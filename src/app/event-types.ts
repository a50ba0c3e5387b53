import { DomainError, invalidRequest, notFound, type FieldError } from '../domain/errors.js';
import type { EventType } from '../domain/event-type.js';
import type { PageRequest } from '../domain/page.js';
import { actingForOwner } from './acting.js';
import { callerFor, type AppContext, type Caller, type Principal } from './context.js';
import {
  changedSettings,
  chooseSlug,
  newSettings,
  withSlugRetry,
  type CreateEventTypeInput,
  type EventTypeChanges,
  type EventTypeFields,
} from './event-type-settings.js';
import { pageOf, type ListScope, type Page } from './paging.js';
import type { ListedEventType, TeamEventTypeWithHandle, Transaction } from './ports/store.js';
import { isScheduleOfHolder } from './schedules-of-holders.js';
import { createTeamEventType, deleteTeamEventType, getTeamEventType, updateTeamEventType } from './team-event-types.js';

// `/event-types` (contract §4, §12, §14). An event type is a holder's own or, in account scope, a
// team event type of the account. A request acting for a holder (its key, or an account key with
// `Slotwise-Holder`) makes and changes that holder's own, and reads the team types it hosts; an
// account key without the header makes team types and acts on every event type of the account.

/** `POST /event-types`: in account scope a team event type (contract §14); acting for a holder, one of the holder's own. */
export async function createEventTypeFor(
  context: AppContext,
  principal: Principal,
  input: CreateEventTypeInput,
): Promise<ListedEventType> {
  if (principal.actingFor === null) return createTeamEventType(context, principal.accountId, input);
  const caller = callerFor(principal, principal.actingFor);
  return { ...(await createEventType(context, caller, input)), holderHandle: caller.holderHandle };
}

export async function getEventTypeFor(context: AppContext, principal: Principal, id: string): Promise<ListedEventType> {
  const reached = await reach(context, principal, id);
  if ('team' in reached) return reached.team;
  const eventType = reached.eventType ?? (await context.store.eventTypes.get(reached.own.holderId, id));
  if (!eventType) throw notFound(`Event type ${id}`);
  return { ...eventType, holderHandle: reached.own.holderHandle };
}

/** Changes only the fields sent, with the rules of creation. A team type's hosts change it in account scope only. */
export async function updateEventTypeFor(
  context: AppContext,
  principal: Principal,
  id: string,
  changes: EventTypeChanges,
): Promise<ListedEventType> {
  const reached = await reach(context, principal, id);
  if ('team' in reached) {
    if (principal.actingFor !== null) throw onlyAccountScopeChangesTeams(id);
    return updateTeamEventType(context, principal.accountId, id, changes);
  }
  return { ...(await updateEventType(context, reached.own, id, changes)), holderHandle: reached.own.holderHandle };
}

export async function deleteEventTypeFor(context: AppContext, principal: Principal, id: string): Promise<void> {
  const reached = await reach(context, principal, id);
  if ('team' in reached) {
    if (principal.actingFor !== null) throw onlyAccountScopeChangesTeams(id);
    return deleteTeamEventType(context, principal.accountId, id);
  }
  await deleteEventType(context, reached.own, id);
}

/**
 * Oldest first. Acting for a holder: its own event types and the team types it hosts. In account
 * scope: every event type of the account, its team types and its live holders' own; with the
 * `holderId` filter, those the holder would list (contract §12: the filter matches the team types
 * it hosts).
 */
export function listEventTypes(
  context: AppContext,
  scope: ListScope,
  page: PageRequest,
): Promise<Page<ListedEventType>> {
  const filter =
    'account' in scope ? scope.account : { accountId: scope.caller.accountId, holderId: scope.caller.holderId };
  return pageOf(
    page.limit,
    (limit) => context.store.eventTypes.list(filter, { limit, after: page.after }),
    (eventType) => eventType.createdAt,
  );
}

/**
 * What `id` names for the principal: a holder's own event type, acted on for its holder (the
 * holder acted for, with the event type as read to tell; or in account scope the holder of the
 * account that owns it); or a team event type of the account that the principal reaches (in
 * account scope, or acting for one of its hosts). Anything else is not found, as an unknown id.
 */
async function reach(
  context: AppContext,
  principal: Principal,
  id: string,
): Promise<{ own: Caller; eventType?: EventType } | { team: TeamEventTypeWithHandle }> {
  if (principal.actingFor === null) {
    const owner = await actingForOwner(context, principal, () => context.store.eventTypes.holderOf(id));
    if (owner) return { own: owner.caller };
    return { team: await getTeamEventType(context, principal.accountId, id) };
  }
  const caller = callerFor(principal, principal.actingFor);
  const own = await context.store.eventTypes.get(caller.holderId, id);
  if (own) return { own: caller, eventType: own };
  const team = await context.store.teamEventTypes.get(id);
  const hosted =
    team?.accountId === principal.accountId && team.hosts.some((host) => host.holderId === caller.holderId);
  if (!hosted) throw notFound(`Event type ${id}`);
  return { team: team! };
}

/** Contract §14: a host reads the team types it hosts; only account scope changes them. */
function onlyAccountScopeChangesTeams(id: string): DomainError {
  return new DomainError(
    'forbidden',
    `Event type ${id} is a team event type: its hosts read it, and only account scope (an account key without Slotwise-Holder) changes or deletes it.`,
  );
}

/** A new event type of the holder the caller acts for. */
export async function createEventType(
  context: AppContext,
  caller: Caller,
  input: CreateEventTypeInput,
): Promise<EventType> {
  const { settings, errors } = newSettings(input, context.ids.newId('evt'), context.now());
  errors.unshift(...teamFieldsOfOwn(input));
  if (errors.length > 0) throw invalidRequest(errors);
  return withSlugRetry(input.slug !== undefined, () =>
    context.store.transaction(async (tx) => {
      await assertScheduleOfHolder(tx, caller.holderId, input);
      const slug = await chooseSlug(
        (base) => tx.eventTypes.slugsLike(caller.holderId, base),
        input.slug,
        input.title,
        null,
      );
      const eventType: EventType = { ...settings, slug, holderId: caller.holderId };
      await tx.eventTypes.insert(eventType);
      return eventType;
    }),
  );
}

/** Changes only the fields sent of the caller's holder's own event type. */
export async function updateEventType(
  context: AppContext,
  caller: Caller,
  id: string,
  changes: EventTypeChanges,
): Promise<EventType> {
  const teamFields = teamFieldsOfOwn(changes);
  if (teamFields.length > 0) throw invalidRequest(teamFields);
  return withSlugRetry(changes.slug !== undefined, () =>
    context.store.transaction(async (tx) => {
      const current = await tx.eventTypes.get(caller.holderId, id);
      if (!current) throw notFound(`Event type ${id}`);
      const { settings, errors } = changedSettings(current, changes, context.now());
      if (errors.length > 0) throw invalidRequest(errors);
      await assertScheduleOfHolder(tx, caller.holderId, changes);
      const slugChanged = changes.slug !== undefined && changes.slug !== current.slug;
      const slug = slugChanged
        ? await chooseSlug((base) => tx.eventTypes.slugsLike(caller.holderId, base), changes.slug, current.title, id)
        : current.slug;
      const updated: EventType = { ...settings, slug };
      await tx.eventTypes.update(updated);
      return updated;
    }),
  );
}

export async function deleteEventType(context: AppContext, caller: Caller, id: string): Promise<void> {
  const deleted = await context.store.transaction(async (tx) => {
    if (!(await tx.eventTypes.delete(caller.holderId, id, context.now()))) return false;
    // Its holds go with it: a deleted event type takes no new bookings (contract §4).
    await tx.holds.endAllOf(caller.holderId, id);
    return true;
  });
  if (!deleted) throw notFound(`Event type ${id}`);
}

/** A holder's own event type has no hosts: team event types are made in account scope. */
function teamFieldsOfOwn(input: EventTypeChanges): FieldError[] {
  return (['assignment', 'hosts'] as const)
    .filter((field) => input[field] !== undefined)
    .map((field) => ({
      field,
      message:
        'is only for team event types, which only account scope (an account key without Slotwise-Holder) makes and changes',
    }));
}

/** 400 on `scheduleId` unless it is null (the default schedule) or one of the holder's schedules. */
async function assertScheduleOfHolder(tx: Transaction, holderId: string, fields: EventTypeFields): Promise<void> {
  if (fields.scheduleId === undefined || fields.scheduleId === null) return;
  if (!(await isScheduleOfHolder(tx, holderId, fields.scheduleId)))
    throw invalidRequest([{ field: 'scheduleId', message: 'is not a schedule of this holder' }]);
}

export function unknownEventType() {
  return invalidRequest([{ field: 'eventTypeId', message: 'is not an event type of this account' }]);
}
