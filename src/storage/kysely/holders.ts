import type { Holder } from '../../domain/api-key.js';
import type { HolderWrites } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { Table } from './table.js';

const holderById = compiledOnce((db, id) => db.selectFrom('holders').selectAll().where('id', '=', id!));
const calendarVersionOf = compiledOnce((db, id) =>
  db.selectFrom('holders').select('calendar_version').where('id', '=', id!),
);

export class KyselyHolders extends Table implements HolderWrites {
  async get(id: string): Promise<Holder | undefined> {
    const [row] = await holderById(this.db, this.engine.name, id);
    return row && { id: row.id, name: row.name, createdAt: Number(row.created_at) };
  }

  async findByName(name: string): Promise<Holder | undefined> {
    const row = await this.db.selectFrom('holders').selectAll().where('name', '=', name).executeTakeFirst();
    return row && { id: row.id, name: row.name, createdAt: Number(row.created_at) };
  }

  async calendarVersion(holderId: string): Promise<number | undefined> {
    const [row] = await calendarVersionOf(this.db, this.engine.name, holderId);
    return row && Number(row.calendar_version);
  }

  async ensure(candidate: Holder): Promise<Holder> {
    await this.db
      .insertInto('holders')
      .values({ id: candidate.id, name: candidate.name, created_at: candidate.createdAt })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return (await this.findByName(candidate.name))!;
  }
}
