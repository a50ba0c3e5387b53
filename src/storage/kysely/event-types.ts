import type { EventType } from '../../domain/event-type.js';
import type { Instant } from '../../domain/instant.js';
import type { PageRequest } from '../../domain/page.js';
import { sql } from 'kysely';
import type { AccountFilter, EventTypeWrites, ListedEventType } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { eventTypeRow, toEventType } from './rows.js';
import { keysetPage } from './keyset.js';
import { Table } from './table.js';
import { withHosts } from './team-event-types.js';

const liveEventTypesOf = compiledOnce<{ holderIds: string }>()((db, param, engine) =>
  db
    .selectFrom('event_types')
    .selectAll()
    .where(engine.oneOf('holder_id', param('holderIds')))
    .where('deleted_at', 'is', null),
);
const liveEventType = compiledOnce<{ holderId: string; id: string }>()((db, param) =>
  db
    .selectFrom('event_types')
    .selectAll()
    .where('holder_id', '=', param('holderId'))
    .where('id', '=', param('id'))
    .where('deleted_at', 'is', null),
);
/** The holder of a live event type, unless the holder was deleted (its event types went with it). */
const holderOfLiveEventType = compiledOnce<{ id: string }>()((db, param) =>
  db
    .selectFrom('event_types')
    .innerJoin('holders', 'holders.id', 'event_types.holder_id')
    .select('event_types.holder_id')
    .where('event_types.id', '=', param('id'))
    .where('event_types.deleted_at', 'is', null)
    .where('holders.deleted_at', 'is', null),
);

export class KyselyEventTypes extends Table implements EventTypeWrites {
  async get(holderId: string, id: string): Promise<EventType | undefined> {
    const [row] = await liveEventType(this.db, this.engine, { holderId, id });
    return row && toEventType(row);
  }

  async holderOf(id: string): Promise<string | undefined> {
    const [row] = await holderOfLiveEventType(this.db, this.engine, { id });
    return row?.holder_id ?? undefined;
  }

  async list(filter: AccountFilter, page: PageRequest): Promise<ListedEventType[]> {
    const rows =
      filter.holderId === null
        ? await this.ofAccount(filter.accountId, page)
        : await this.ofHolder(filter.accountId, filter.holderId, page);
    const teams = await withHosts(
      this.db,
      rows.filter((row) => row.holder_id === null),
    );
    const teamById = new Map(teams.map((team) => [team.id, team]));
    return rows.map(({ holder_handle, account_handle: _accountHandle, ...row }) =>
      row.holder_id === null ? teamById.get(row.id)! : { ...toEventType(row), holderHandle: holder_handle! },
    );
  }

  /** Every live event type of the account (`event_types_by_account`): its own, and its live holders'. */
  private ofAccount(accountId: string, page: PageRequest) {
    const query = this.db
      .selectFrom('event_types')
      .innerJoin('accounts', 'accounts.id', 'event_types.account_id')
      .leftJoin('holders', 'holders.id', 'event_types.holder_id')
      .selectAll('event_types')
      .select(['holders.handle as holder_handle', 'accounts.handle as account_handle'])
      .where('event_types.account_id', '=', accountId)
      .where('event_types.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('event_types.holder_id', 'is', null), eb('holders.deleted_at', 'is', null)]));
    return keysetPage(query, { key: 'event_types.created_at', id: 'event_types.id' }, page).execute();
  }

  /**
   * The live holder's own event types (`event_types_by_holder`) and the live team types it hosts
   * (`event_type_hosts_by_holder`), each a page from the position on, merged into one page: each
   * read stays within its own index, however many event types the rest of the account has.
   */
  private async ofHolder(accountId: string, holderId: string, page: PageRequest) {
    const own = this.db
      .selectFrom('event_types')
      .innerJoin('holders', 'holders.id', 'event_types.holder_id')
      .innerJoin('accounts', 'accounts.id', 'event_types.account_id')
      .selectAll('event_types')
      .select(['holders.handle as holder_handle', 'accounts.handle as account_handle'])
      .where('event_types.holder_id', '=', holderId)
      .where('event_types.deleted_at', 'is', null)
      .where('holders.deleted_at', 'is', null);
    const hosted = this.db
      .selectFrom('event_type_hosts')
      .innerJoin('event_types', 'event_types.id', 'event_type_hosts.event_type_id')
      .innerJoin('holders', 'holders.id', 'event_type_hosts.holder_id')
      .innerJoin('accounts', 'accounts.id', 'event_types.account_id')
      .selectAll('event_types')
      .select([sql<string | null>`null`.as('holder_handle'), 'accounts.handle as account_handle'])
      .where('event_type_hosts.holder_id', '=', holderId)
      .where('event_types.account_id', '=', accountId)
      .where('event_types.deleted_at', 'is', null)
      .where('holders.deleted_at', 'is', null);
    const pages = await Promise.all([
      keysetPage(own, { key: 'event_types.created_at', id: 'event_types.id' }, page).execute(),
      keysetPage(hosted, { key: 'event_types.created_at', id: 'event_types.id' }, page).execute(),
    ]);
    return pages
      .flat()
      .sort((a, b) => Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, page.limit);
  }

  async liveOf(holderIds: readonly string[]): Promise<EventType[]> {
    return (await liveEventTypesOf(this.db, this.engine, { holderIds: JSON.stringify(holderIds) })).map(toEventType);
  }

  async titles(holderId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    // Its own, and its account's team types (whose bookings it hosts).
    const rows = await this.db
      .selectFrom('event_types')
      .select(['id', 'title'])
      .where('id', 'in', [...new Set(ids)])
      .where((eb) =>
        eb.or([
          eb('holder_id', '=', holderId),
          eb.and([
            eb('holder_id', 'is', null),
            eb('account_id', '=', eb.selectFrom('holders').select('account_id').where('id', '=', holderId)),
          ]),
        ]),
      )
      .execute();
    return new Map(rows.map((row) => [row.id, row.title]));
  }

  async slugsLike(holderId: string, base: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('event_types')
      .select('slug')
      .where('holder_id', '=', holderId)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
      .execute();
    return new Set(rows.map((r) => r.slug));
  }

  async insert(eventType: EventType): Promise<void> {
    this.scope.writes(eventType.holderId);
    await this.db
      .insertInto('event_types')
      .values((eb) => ({
        ...eventTypeRow(eventType),
        // Its holder's account: what the account's list finds it by.
        account_id: eb.selectFrom('holders').select('account_id').where('id', '=', eventType.holderId),
        assignment: null,
        deleted_at: null,
      }))
      .execute();
  }

  async update(eventType: EventType): Promise<void> {
    this.scope.writes(eventType.holderId);
    await this.db
      .updateTable('event_types')
      .set(eventTypeRow(eventType))
      .where('holder_id', '=', eventType.holderId)
      .where('id', '=', eventType.id)
      .execute();
  }

  async delete(holderId: string, id: string, at: Instant): Promise<boolean> {
    this.scope.writes(holderId);
    const result = await this.db
      .updateTable('event_types')
      .set({ deleted_at: at, updated_at: at })
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteAllOf(holderId: string, at: Instant): Promise<void> {
    this.scope.writes(holderId);
    await this.db
      .updateTable('event_types')
      .set({ deleted_at: at, updated_at: at })
      .where('holder_id', '=', holderId)
      .where('deleted_at', 'is', null)
      .execute();
  }
}
