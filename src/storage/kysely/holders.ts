import { sql, type Selectable } from 'kysely';
import type { Holder, NewHolder } from '../../domain/api-key.js';
import { DAY_MS, type Instant } from '../../domain/instant.js';
import type { PageRequest } from '../../domain/page.js';
import type { Schedule } from '../../domain/schedule.js';
import type { ActingHolder, HolderFilter, HolderWrites } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
import { ensureNamed } from './ensure-named.js';
import { keysetPage } from './keyset.js';
import { scheduleRow } from './rows.js';
import { Table } from './table.js';

const holderById = compiledOnce<{ id: string }>()((db, param) =>
  db.selectFrom('holders').selectAll().where('id', '=', param('id')),
);
const holderByHandle = compiledOnce<{ handle: string }>()((db, param) =>
  db.selectFrom('holders').selectAll().where('handle', '=', param('handle')).where('deleted_at', 'is', null),
);
const actingHolderById = compiledOnce<{ id: string }>()((db, param) =>
  db
    .selectFrom('holders')
    .select(['id', 'account_id', 'name', 'handle', 'calendar_version', 'deleted_at'])
    .where('id', '=', param('id')),
);
const actingHoldersIn = compiledOnce<{ ids: string }>()((db, param, engine) =>
  db
    .selectFrom('holders')
    .select(['id', 'account_id', 'name', 'handle', 'calendar_version', 'deleted_at'])
    .where(engine.oneOf('id', param('ids'))),
);
const calendarVersionOf = compiledOnce<{ id: string }>()((db, param) =>
  db.selectFrom('holders').select('calendar_version').where('id', '=', param('id')),
);

function toHolder(row: Selectable<Database['holders']>): Holder {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    handle: row.handle,
    displayName: row.display_name,
    email: row.email,
    feedGeneration: Number(row.feed_generation),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
  };
}

function toActingHolder(
  row: Pick<
    Selectable<Database['holders']>,
    'id' | 'account_id' | 'name' | 'handle' | 'calendar_version' | 'deleted_at'
  >,
): ActingHolder {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    handle: row.handle,
    calendarVersion: Number(row.calendar_version),
    deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
  };
}

export class KyselyHolders extends Table implements HolderWrites {
  async get(id: string): Promise<Holder | undefined> {
    const [row] = await holderById(this.db, this.engine, { id });
    return row && toHolder(row);
  }

  async list(accountId: string, filter: HolderFilter, page: PageRequest): Promise<Holder[]> {
    let query = this.db
      .selectFrom('holders')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null);
    if (filter.handle !== null) query = query.where('handle', '=', filter.handle);
    if (filter.email !== null) query = query.where('email', '=', filter.email);
    const rows = await keysetPage(query, { key: 'created_at', id: 'id' }, page).execute();
    return rows.map(toHolder);
  }

  async countLive(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('holders')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async handlesLike(base: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('holders')
      .select('handle')
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
      .execute();
    return new Set(rows.map((row) => row.handle));
  }

  async findByName(accountId: string, name: string): Promise<Holder | undefined> {
    const row = await this.db
      .selectFrom('holders')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('name', '=', name)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && toHolder(row);
  }

  async acting(id: string): Promise<ActingHolder | undefined> {
    const [row] = await actingHolderById(this.db, this.engine, { id });
    return row && toActingHolder(row);
  }

  async actingOf(ids: readonly string[]): Promise<ActingHolder[]> {
    return (await actingHoldersIn(this.db, this.engine, { ids: JSON.stringify(ids) })).map(toActingHolder);
  }

  async findByHandle(handle: string): Promise<{ holder: Holder; calendarVersion: number } | undefined> {
    const [row] = await holderByHandle(this.db, this.engine, { handle });
    return row && { holder: toHolder(row), calendarVersion: Number(row.calendar_version) };
  }

  async bumpCalendarVersion(id: string): Promise<void> {
    this.scope.writes(id);
    await this.db
      .updateTable('holders')
      .set((eb) => ({ calendar_version: eb('calendar_version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async calendarVersion(holderId: string): Promise<number | undefined> {
    const [row] = await calendarVersionOf(this.db, this.engine, { id: holderId });
    return row && Number(row.calendar_version);
  }

  async ensure(candidate: NewHolder, defaultSchedule: Schedule): Promise<Holder> {
    this.scope.writes(candidate.id);
    return ensureNamed('holder', candidate.name, {
      find: () => this.findByName(candidate.accountId, candidate.name),
      handlesLike: (base) => this.handlesLike(base),
      insert: async (handle) => {
        const result = await this.db
          .insertInto('holders')
          .values({
            id: candidate.id,
            account_id: candidate.accountId,
            name: candidate.name,
            handle,
            display_name: candidate.displayName ?? null,
            email: candidate.email ?? null,
            created_at: candidate.createdAt,
            updated_at: candidate.createdAt,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) await this.insertDefaultSchedule(defaultSchedule);
      },
    });
  }

  async insert(holder: Holder, defaultSchedule: Schedule): Promise<boolean> {
    this.scope.writes(holder.id);
    // Nothing when a live holder has the name (in the account) or the handle: the caller says which.
    const result = await this.db
      .insertInto('holders')
      .values({
        id: holder.id,
        account_id: holder.accountId,
        name: holder.name,
        handle: holder.handle,
        display_name: holder.displayName,
        email: holder.email,
        created_at: holder.createdAt,
        updated_at: holder.updatedAt,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await this.insertDefaultSchedule(defaultSchedule);
    return true;
  }

  /** With the holder's row, in its transaction: there is never a holder without its default schedule (contract §13). */
  private async insertDefaultSchedule(schedule: Schedule): Promise<void> {
    await this.db.insertInto('schedules').values(scheduleRow(schedule)).execute();
  }

  async update(holder: Holder): Promise<void> {
    this.scope.writes(holder.id);
    await this.db
      .updateTable('holders')
      .set({
        name: holder.name,
        handle: holder.handle,
        display_name: holder.displayName,
        email: holder.email,
        updated_at: holder.updatedAt,
      })
      .where('id', '=', holder.id)
      .execute();
  }

  async lockedLive(id: string): Promise<Holder | undefined> {
    const row = await this.engine
      .lockingRows(this.db.selectFrom('holders').selectAll().where('id', '=', id).where('deleted_at', 'is', null))
      .executeTakeFirst();
    return row && toHolder(row as Selectable<Database['holders']>);
  }

  async hasBookingsNotEnded(id: string, now: Instant): Promise<boolean> {
    const own = await this.db
      .selectFrom('bookings')
      .select('id')
      .where('holder_id', '=', id)
      .where(sql<boolean>`status = 'confirmed'`)
      .where('end_at', '>', now)
      .limit(1)
      .executeTakeFirst();
    if (own !== undefined) return true;
    // A booking lasts at most a day (`durationMinutes`): one not ended started after the day before.
    const hosted = await this.db
      .selectFrom('team_booking_hosts as t')
      .innerJoin('bookings', 'bookings.id', 't.booking_id')
      .select('bookings.id')
      .where('t.holder_id', '=', id)
      .where('t.start_at', '>', now - DAY_MS)
      .where(sql<boolean>`bookings.status = 'confirmed'`)
      .where('bookings.end_at', '>', now)
      .limit(1)
      .executeTakeFirst();
    return hosted !== undefined;
  }

  async hostsLiveTeamType(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('event_type_hosts')
      .innerJoin('event_types', 'event_types.id', 'event_type_hosts.event_type_id')
      .select('event_types.id')
      .where('event_type_hosts.holder_id', '=', id)
      .where('event_types.deleted_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async keepLive(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.engine
      .keepingRows(
        this.db
          .selectFrom('holders')
          .select('id')
          .where('id', 'in', [...ids])
          .where('account_id', '=', accountId)
          .where('deleted_at', 'is', null)
          // One order for every transaction that keeps several holders.
          .orderBy('id'),
      )
      .execute();
    return new Set(rows.map((row) => row.id as string));
  }

  async markDeleted(id: string, at: Instant): Promise<void> {
    this.scope.writes(id);
    await this.db
      .updateTable('holders')
      .set((eb) => ({ deleted_at: at, updated_at: at, feed_generation: eb('feed_generation', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async updateProfile(id: string, profile: { handle: string; displayName: string | null }): Promise<void> {
    this.scope.writes(id);
    await this.db
      .updateTable('holders')
      .set({ handle: profile.handle, display_name: profile.displayName })
      .where('id', '=', id)
      .execute();
  }

  async rotateFeed(id: string): Promise<number> {
    this.scope.writes(id);
    const row = await this.db
      .updateTable('holders')
      .set((eb) => ({ feed_generation: eb('feed_generation', '+', 1) }))
      .where('id', '=', id)
      .returning('feed_generation')
      .executeTakeFirstOrThrow();
    return Number(row.feed_generation);
  }
}
