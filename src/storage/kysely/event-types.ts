import type { EventType } from '../../domain/event-type.js';
import type { Instant } from '../../domain/instant.js';
import type { PageRequest } from '../../domain/page.js';
import type { AccountFilter, EventTypeWrites, HeldEventType } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { eventTypeRow, toEventType } from './rows.js';
import { keysetPage } from './keyset.js';
import { Table } from './table.js';

const liveEventTypesOf = compiledOnce<{ holderId: string }>()((db, param) =>
  db.selectFrom('event_types').selectAll().where('holder_id', '=', param('holderId')).where('deleted_at', 'is', null),
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

  async list(holderId: string, page: PageRequest): Promise<EventType[]> {
    const query = this.db
      .selectFrom('event_types')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('deleted_at', 'is', null);
    const rows = await keysetPage(query, { key: 'created_at', id: 'id' }, page).execute();
    return rows.map(toEventType);
  }

  async holderOf(id: string): Promise<string | undefined> {
    const [row] = await holderOfLiveEventType(this.db, this.engine, { id });
    return row?.holder_id;
  }

  async listOfAccount(filter: AccountFilter, page: PageRequest): Promise<HeldEventType[]> {
    // Through the account's holders (`holders_by_account`), then each one's event types
    // (`event_types_by_holder`); the join also brings the handle their booking pages live at.
    let query = this.db
      .selectFrom('event_types')
      .innerJoin('holders', 'holders.id', 'event_types.holder_id')
      .selectAll('event_types')
      .select('holders.handle as holder_handle')
      .where('holders.account_id', '=', filter.accountId)
      .where('holders.deleted_at', 'is', null)
      .where('event_types.deleted_at', 'is', null);
    if (filter.holderId !== null) query = query.where('event_types.holder_id', '=', filter.holderId);
    const rows = await keysetPage(query, { key: 'event_types.created_at', id: 'event_types.id' }, page).execute();
    return rows.map(({ holder_handle, ...row }) => ({ ...toEventType(row), holderHandle: holder_handle }));
  }

  async live(holderId: string): Promise<EventType[]> {
    return (await liveEventTypesOf(this.db, this.engine, { holderId })).map(toEventType);
  }

  async titles(holderId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('event_types')
      .select(['id', 'title'])
      .where('holder_id', '=', holderId)
      .where('id', 'in', [...new Set(ids)])
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
      .values({ ...eventTypeRow(eventType), deleted_at: null })
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
