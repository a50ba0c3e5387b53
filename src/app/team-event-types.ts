import { DomainError, invalidRequest, notFound, type FieldError } from '../domain/errors.js';
import {
  seatErrors,
  teamHostErrors,
  teamHostOf,
  type Assignment,
  type TeamEventType,
  type TeamHost,
} from '../domain/team-event-type.js';
import type { AppContext } from './context.js';
import {
  changedSettings,
  chooseSlug,
  newSettings,
  withSlugRetry,
  type CreateEventTypeInput,
  type EventTypeChanges,
} from './event-type-settings.js';
import { transactionOfOwners } from './owner-scope.js';
import type { TeamEventTypeWithHandle, Transaction } from './ports/store.js';
import { isScheduleOfHolder } from './schedules-of-holders.js';

// Team event types (contract §14): event types of an account, whose bookings take the time of
// their hosts, holders of the account. Made, changed and deleted in account scope only; every
// use case here takes the account's id, and another account's team type is not found, exactly
// as an unknown id. Each transaction names the account as its scope: a team type is the
// account's, and a change of it is heard as a change of the account (on PostgreSQL by other
// instances too, migration 0016), which is what a cache of team types by account relies on.

/**
 * A new team event type of the account. Besides every field of a holder's own event type it needs
 * `assignment` and 1–100 `hosts`, each a live holder of the account, once; a round-robin type needs
 * a host that is not fixed. Past `TEAM_EVENT_TYPES_PER_ACCOUNT` live team types, 409
 * `limit-reached`. Team slugs are unique among the account's live team types.
 */
export async function createTeamEventType(
  context: AppContext,
  accountId: string,
  input: CreateEventTypeInput,
): Promise<TeamEventTypeWithHandle> {
  const errors: FieldError[] = [];
  if (input.assignment === undefined) errors.push(requiredInAccountScope('assignment'));
  if (input.hosts === undefined) errors.push(requiredInAccountScope('hosts'));
  const hosts = (input.hosts ?? []).map(teamHostOf);
  const { settings, errors: settingErrors } = newSettings(input, context.ids.newId('evt'), context.now());
  errors.push(
    ...teamErrors(input, input.assignment, hosts),
    ...settingErrors,
    ...seatErrors(input.assignment, settings.seats),
  );
  if (errors.length > 0) throw invalidRequest(errors);
  const draft: TeamEventType = { ...settings, holderId: null, accountId, assignment: input.assignment!, hosts };
  return withSlugRetry(input.slug !== undefined, () =>
    context.store.transaction(
      async (tx) => {
        // Held until the commit: two creations cannot both take the last place, and the
        // account's team types change one transaction at a time.
        await tx.accounts.lock(accountId);
        await assertHostsOfAccount(tx, accountId, hosts);
        const limit = context.accounts.teamEventTypesPerAccount;
        if ((await tx.teamEventTypes.countLive(accountId)) >= limit) {
          throw new DomainError(
            'limit-reached',
            `This account has ${limit} team event types, the most it may have (TEAM_EVENT_TYPES_PER_ACCOUNT); delete one to make another.`,
          );
        }
        const slug = await chooseSlug(
          (base) => tx.teamEventTypes.slugsLike(accountId, base),
          input.slug,
          input.title,
          null,
        );
        const eventType = { ...draft, slug };
        await tx.teamEventTypes.insert(eventType);
        return { ...eventType, accountHandle: await handleOf(tx, accountId) };
      },
      { ownerIds: [accountId] },
    ),
  );
}

/** The account's live team event type; anything else (unknown, another account's, deleted, a holder's own) is not found. */
export async function getTeamEventType(
  context: Pick<AppContext, 'store'>,
  accountId: string,
  id: string,
): Promise<TeamEventTypeWithHandle> {
  const eventType = await context.store.teamEventTypes.get(id);
  if (!eventType || eventType.accountId !== accountId) throw notFound(`Event type ${id}`);
  return eventType;
}

/**
 * Changes only the fields sent, with the rules of creation; `hosts` replaces the whole list.
 * Existing bookings keep their hosts, times and buffers (contract §14).
 */
export async function updateTeamEventType(
  context: AppContext,
  accountId: string,
  id: string,
  changes: EventTypeChanges,
): Promise<TeamEventTypeWithHandle> {
  const sentHosts = changes.hosts?.map(teamHostOf);
  const pure = teamErrors(changes, changes.assignment, sentHosts ?? []);
  if (pure.length > 0) throw invalidRequest(pure);
  return withSlugRetry(changes.slug !== undefined, () =>
    context.store.transaction(
      async (tx) => {
        await tx.accounts.lock(accountId);
        const current = await tx.teamEventTypes.get(id);
        if (!current || current.accountId !== accountId) throw notFound(`Event type ${id}`);
        const { accountHandle, ...stored } = current;
        const { settings, errors } = changedSettings(stored, changes, context.now());
        const assignment = changes.assignment ?? current.assignment;
        const hosts = sentHosts ?? current.hosts;
        // Either sent alone is judged with the other as stored: round robin over hosts kept that
        // are all fixed, or all-fixed hosts for a round-robin type, is as wrong as both sent.
        errors.push(...teamHostErrors(assignment, hosts), ...seatErrors(assignment, settings.seats));
        if (errors.length > 0) throw invalidRequest(errors);
        if (sentHosts !== undefined) await assertHostsOfAccount(tx, accountId, sentHosts);
        const slugChanged = changes.slug !== undefined && changes.slug !== current.slug;
        const slug = slugChanged
          ? await chooseSlug((base) => tx.teamEventTypes.slugsLike(accountId, base), changes.slug, current.title, id)
          : current.slug;
        const updated: TeamEventType = { ...settings, slug, assignment, hosts };
        await tx.teamEventTypes.update(updated);
        return { ...updated, accountHandle };
      },
      { ownerIds: [accountId] },
    ),
  );
}

/**
 * Its bookings stay readable; slots and new bookings for it answer as for an unknown event type,
 * and its holds end, freeing their hosts' time (contract §4, §14).
 */
export async function deleteTeamEventType(context: AppContext, accountId: string, id: string): Promise<void> {
  const deleted = await transactionOfOwners(context, [accountId], async (tx, _events, needs) => {
    await tx.accounts.lock(accountId);
    if (!(await tx.teamEventTypes.delete(accountId, id, context.now()))) return false;
    // Their hosts' calendars change: the transaction is theirs too.
    const hostIds = await tx.holds.hostsOfTeamHolds(id);
    needs([accountId, ...hostIds]);
    await tx.holds.endAllOfTeam(accountId, id, hostIds);
    return true;
  });
  if (!deleted) throw notFound(`Event type ${id}`);
}

/** What is wrong with the team fields sent, whatever the store holds. */
function teamErrors(input: EventTypeChanges, assignment: Assignment | undefined, hosts: TeamHost[]): FieldError[] {
  const errors: FieldError[] = [];
  // Each host has its own schedule (contract §13): the type has none.
  if (input.scheduleId !== undefined && input.scheduleId !== null)
    errors.push({
      field: 'scheduleId',
      message: 'must be null for a team event type: each host names its own (hosts[].scheduleId)',
    });
  if (assignment !== undefined && input.hosts !== undefined) errors.push(...teamHostErrors(assignment, hosts));
  return errors;
}

function requiredInAccountScope(field: 'assignment' | 'hosts'): FieldError {
  return {
    field,
    message:
      'is required in account scope, where an event type is the account’s team event type (a holder’s own is made with Slotwise-Holder)',
  };
}

/**
 * 400 on `hosts[i].holderId` for a host that is no live holder of the account, and on
 * `hosts[i].scheduleId` for a schedule that is not that host's. The hosts are kept from being
 * deleted until the transaction ends (`HolderWrites.keepLive`), so none is deleted meanwhile.
 */
async function assertHostsOfAccount(tx: Transaction, accountId: string, hosts: TeamHost[]): Promise<void> {
  const live = await tx.holders.keepLive(
    accountId,
    hosts.map((host) => host.holderId),
  );
  const errors: FieldError[] = [];
  const withSchedules: Array<{ index: number; holderId: string; scheduleId: string }> = [];
  for (const [index, host] of hosts.entries()) {
    if (!live.has(host.holderId)) {
      errors.push({ field: `hosts[${index}].holderId`, message: 'is not a holder of this account' });
    } else if (host.scheduleId !== null) {
      withSchedules.push({ index, holderId: host.holderId, scheduleId: host.scheduleId });
    }
  }
  // In sorted holder order: each check takes that holder's calendar lock.
  withSchedules.sort((a, b) => (a.holderId < b.holderId ? -1 : a.holderId > b.holderId ? 1 : 0));
  for (const { index, holderId, scheduleId } of withSchedules) {
    if (!(await isScheduleOfHolder(tx, holderId, scheduleId)))
      errors.push({ field: `hosts[${index}].scheduleId`, message: 'is not a schedule of this host' });
  }
  errors.sort((a, b) => a.field.localeCompare(b.field, 'en', { numeric: true }));
  if (errors.length > 0) throw invalidRequest(errors);
}

async function handleOf(tx: Transaction, accountId: string): Promise<string> {
  const account = await tx.accounts.get(accountId);
  if (!account) throw new Error(`account ${accountId} of a request is not stored`);
  return account.handle;
}
