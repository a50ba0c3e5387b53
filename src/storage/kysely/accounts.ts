import type { Selectable } from 'kysely';
import type { Account } from '../../domain/api-key.js';
import { firstFreeSlug } from '../../domain/event-type.js';
import { handleFrom } from '../../domain/holder.js';
import type { AccountWrites } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { Table } from './table.js';

export function toAccount(row: Selectable<Database['accounts']>): Account {
  return {
    id: row.id,
    name: row.name,
    handle: row.handle,
    displayName: row.display_name,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Tries for a free handle this often when other accounts take the candidates meanwhile. */
const HANDLE_ATTEMPTS = 5;

export class KyselyAccounts extends Table implements AccountWrites {
  async get(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAccount(row);
  }

  async findByName(name: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toAccount(row);
  }

  async findByHandle(handle: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('handle', '=', handle).executeTakeFirst();
    return row && toAccount(row);
  }

  async ensure(candidate: Pick<Account, 'id' | 'name' | 'createdAt'>): Promise<Account> {
    this.scope.writes(candidate.id);
    const base = handleFrom(candidate.name);
    for (let attempt = 0; attempt < HANDLE_ATTEMPTS; attempt++) {
      const existing = await this.findByName(candidate.name);
      if (existing) return existing;
      const taken = await this.db
        .selectFrom('accounts')
        .select('handle')
        .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
        .execute();
      const handle = firstFreeSlug(base, new Set(taken.map((row) => row.handle)));
      // Nothing when the name (another request created this account) or the handle (another
      // account took it) is taken meanwhile: the loop then finds the one or picks again.
      await this.db
        .insertInto('accounts')
        .values({
          id: candidate.id,
          name: candidate.name,
          handle,
          created_at: candidate.createdAt,
          updated_at: candidate.createdAt,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    const created = await this.findByName(candidate.name);
    if (!created) throw new Error(`no free handle for account ${candidate.name} after ${HANDLE_ATTEMPTS} attempts`);
    return created;
  }

  async lock(id: string): Promise<void> {
    await this.engine.lockingRows(this.db.selectFrom('accounts').select('id').where('id', '=', id)).execute();
  }

  async updateProfile(id: string, profile: Pick<Account, 'handle' | 'displayName' | 'updatedAt'>): Promise<void> {
    this.scope.writes(id);
    await this.db
      .updateTable('accounts')
      .set({ handle: profile.handle, display_name: profile.displayName, updated_at: profile.updatedAt })
      .where('id', '=', id)
      .execute();
  }
}
