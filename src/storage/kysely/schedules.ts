import { sql } from 'kysely';
import type { PageRequest } from '../../domain/page.js';
import type { Schedule } from '../../domain/schedule.js';
import type { ScheduleWrites } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { scheduleRow, toSchedule } from './rows.js';
import { Table } from './table.js';

const scheduleOf = compiledOnce<{ holderId: string; id: string }>()((db, param) =>
  db.selectFrom('schedules').selectAll().where('holder_id', '=', param('holderId')).where('id', '=', param('id')),
);
// `is_default = 1` as a literal, the text of the partial index `schedules_one_default`.
const defaultScheduleOf = compiledOnce<{ holderId: string }>()((db, param) =>
  db
    .selectFrom('schedules')
    .selectAll()
    .where('holder_id', '=', param('holderId'))
    .where(sql<boolean>`is_default = 1`),
);
const schedulesOf = compiledOnce<{ holderIds: string }>()((db, param, engine) =>
  db
    .selectFrom('schedules')
    .selectAll()
    .where(engine.oneOf('holder_id', param('holderIds'))),
);

/**
 * The list's order: the default schedule first (sort key 0, before every instant), then by
 * creation. Also each item's cursor key (`app/schedules.ts`).
 */
const LIST_KEY = sql<number>`case when is_default = 1 then 0 else created_at end`;

export class KyselySchedules extends Table implements ScheduleWrites {
  async get(holderId: string, id: string): Promise<Schedule | undefined> {
    const [row] = await scheduleOf(this.db, this.engine, { holderId, id });
    return row && toSchedule(row);
  }

  async defaultOf(holderId: string): Promise<Schedule | undefined> {
    const [row] = await defaultScheduleOf(this.db, this.engine, { holderId });
    return row && toSchedule(row);
  }

  async list(holderId: string, page: PageRequest): Promise<Schedule[]> {
    const after = page.after;
    let query = this.db.selectFrom('schedules').selectAll().where('holder_id', '=', holderId);
    if (after) query = query.where(sql<boolean>`(${LIST_KEY}, id) > (${after.key}, ${after.id})`);
    const rows = await query.orderBy(LIST_KEY).orderBy('id').limit(page.limit).execute();
    return rows.map(toSchedule);
  }

  async allOf(holderIds: readonly string[]): Promise<Schedule[]> {
    return (await schedulesOf(this.db, this.engine, { holderIds: JSON.stringify(holderIds) })).map(toSchedule);
  }

  async count(holderId: string): Promise<number> {
    const row = await this.db
      .selectFrom('schedules')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('holder_id', '=', holderId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(schedule: Schedule): Promise<void> {
    this.scope.writes(schedule.holderId);
    await this.db.insertInto('schedules').values(scheduleRow(schedule)).execute();
  }

  async update(schedule: Schedule): Promise<void> {
    this.scope.writes(schedule.holderId);
    const { name, time_zone, weekly, overrides, updated_at } = scheduleRow(schedule);
    await this.db
      .updateTable('schedules')
      .set({ name, time_zone, weekly, overrides, updated_at })
      .where('holder_id', '=', schedule.holderId)
      .where('id', '=', schedule.id)
      .execute();
  }

  async delete(holderId: string, id: string): Promise<boolean> {
    this.scope.writes(holderId);
    const result = await this.db
      .deleteFrom('schedules')
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .where(sql<boolean>`is_default = 0`)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async inUse(holderId: string, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('event_types')
      .select('id')
      .where('holder_id', '=', holderId)
      .where('schedule_id', '=', id)
      .where('deleted_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (row !== undefined) return true;
    // A host of a live team event type offering its times in this schedule (contract §14).
    const hosting = await this.db
      .selectFrom('event_type_hosts as h')
      .innerJoin('event_types as e', 'e.id', 'h.event_type_id')
      .select('h.event_type_id')
      .where('h.holder_id', '=', holderId)
      .where('h.schedule_id', '=', id)
      .where('e.deleted_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return hosting !== undefined;
  }
}
