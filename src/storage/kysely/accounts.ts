import type { Selectable } from 'kysely';
import type { Account } from '../../domain/api-key.js';
import type { AccountWrites } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { ensureNamed } from './ensure-named.js';
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
    return ensureNamed('account', candidate.name, {
      find: () => this.findByName(candidate.name),
      handlesLike: async (base) => {
        const taken = await this.db
          .selectFrom('accounts')
          .select('handle')
          .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
          .execute();
        return new Set(taken.map((row) => row.handle));
      },
      insert: async (handle) => {
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
      },
    });
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
