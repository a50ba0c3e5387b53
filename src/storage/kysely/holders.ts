import type { Selectable } from 'kysely';
import type { Holder, NewHolder } from '../../domain/api-key.js';
import { firstFreeSlug } from '../../domain/event-type.js';
import { handleFrom } from '../../domain/holder.js';
import type { ActingHolder, HolderWrites } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
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

/** Tries for a free handle this often when other holders take the candidates meanwhile. */
const HANDLE_ATTEMPTS = 5;

export class KyselyHolders extends Table implements HolderWrites {
  async get(id: string): Promise<Holder | undefined> {
    const [row] = await holderById(this.db, this.engine, { id });
    return row && toHolder(row);
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
    return (
      row && {
        id: row.id,
        accountId: row.account_id,
        name: row.name,
        handle: row.handle,
        calendarVersion: Number(row.calendar_version),
        deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
      }
    );
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

  async ensure(candidate: NewHolder): Promise<Holder> {
    this.scope.writes(candidate.id);
    const base = handleFrom(candidate.name);
    for (let attempt = 0; attempt < HANDLE_ATTEMPTS; attempt++) {
      const existing = await this.findByName(candidate.accountId, candidate.name);
      if (existing) return existing;
      const taken = await this.db
        .selectFrom('holders')
        .select('handle')
        .where('deleted_at', 'is', null)
        .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
        .execute();
      const handle = firstFreeSlug(base, new Set(taken.map((row) => row.handle)));
      // Nothing when the name (another request created this holder) or the handle (another
      // holder took it) is taken meanwhile: the loop then finds the one or picks again.
      await this.db
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
        .execute();
    }
    const created = await this.findByName(candidate.accountId, candidate.name);
    if (!created) throw new Error(`no free handle for holder ${candidate.name} after ${HANDLE_ATTEMPTS} attempts`);
    return created;
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
