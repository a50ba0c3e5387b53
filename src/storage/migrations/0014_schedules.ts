import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §13: several weekly schedules per holder. `schedules` holds them; exactly one per
 * holder is its default (`is_default = 1`, a partial unique index), which is the holder's
 * availability. Every holder gets its default schedule here, named `Default`:
 * - a holder that set an availability: that document, with its `updated_at`;
 * - a holder that never did: what the build before this one answered for it, Mon–Fri
 *   09:00–17:00 UTC dated from the holder's creation (written out below, as it was then, so
 *   that a later change of the default for new holders does not change this migration).
 * Either one is dated as created with the holder. From here on every holder is made with its
 * default schedule, so none is ever without one. `availabilities` is dropped: its rows are the
 * default schedules now, and a second copy would be a second truth.
 *
 * An event type books in the schedule `schedule_id` names, or (null) in the default one. A
 * schedule still used by a live event type is never deleted (the use case checks under the
 * holder's calendar lock); a deleted event type's reference is set null with the schedule.
 *
 * A schedule's change bumps its holder's calendar version, as an availability's did (migrations
 * 0003, 0004: on PostgreSQL a deferred constraint trigger, at commit).
 *
 * SQLite runs no migration in a transaction of Kysely's: here the whole of it is one, so a
 * process that stops midway leaves nothing done, and one that stopped after it and before Kysely
 * recorded it finds it done.
 */
export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'postgres') return schedules(db, engine);
      await db.transaction().execute(async (tx) => {
        const done = await sql`select 1 from sqlite_master where type = 'table' and name = 'schedules'`.execute(tx);
        if (done.rows.length === 0) await schedules(tx, engine);
      });
    },
  };
}

/** `defaultAvailability()` as this migration's build stored it: Mon–Fri 09:00–17:00, as JSON. */
const WORKDAY = [{ start: '09:00', end: '17:00' }];
const DEFAULT_WEEKLY = JSON.stringify({
  monday: WORKDAY,
  tuesday: WORKDAY,
  wednesday: WORKDAY,
  thursday: WORKDAY,
  friday: WORKDAY,
  saturday: [],
  sunday: [],
});

const BATCH = 500;

async function schedules(db: Kysely<any>, engine: Engine): Promise<void> {
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('weekly', 'text', (c) => c.notNull())
    .addColumn('overrides', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull())
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();
  // `is_default = 1` as the queries write it (`storage/kysely/schedules.ts`): SQLite uses a
  // partial index only for a query that names its condition word for word.
  await sql`create unique index schedules_one_default on schedules (holder_id) where is_default = 1`.execute(db);
  await db.schema
    .createIndex('schedules_by_holder')
    .on('schedules')
    .columns(['holder_id', 'created_at', 'id'])
    .execute();

  // A batch of holders at a time, in id order: memory stays bounded however many there are.
  let after = '';
  for (;;) {
    const holders = await db
      .selectFrom('holders as h')
      .leftJoin('availabilities as a', 'a.holder_id', 'h.id')
      .select(['h.id', 'h.created_at', 'a.time_zone', 'a.weekly', 'a.overrides', 'a.updated_at'])
      .where('h.id', '>', after)
      .orderBy('h.id')
      .limit(BATCH)
      .execute();
    if (holders.length === 0) break;
    await db
      .insertInto('schedules')
      .values(
        holders.map((holder) => ({
          id: scheduleId(),
          holder_id: holder.id,
          name: 'Default',
          time_zone: holder.time_zone ?? 'UTC',
          weekly: holder.weekly ?? DEFAULT_WEEKLY,
          overrides: holder.overrides ?? '[]',
          is_default: 1,
          created_at: holder.created_at,
          updated_at: holder.updated_at ?? holder.created_at,
        })),
      )
      .execute();
    after = holders[holders.length - 1]!.id;
  }

  await sql`alter table event_types add column schedule_id text references schedules (id) on delete set null`.execute(
    db,
  );
  // What a schedule's deletion looks up (the foreign key's action): without it, every event type.
  await db.schema.createIndex('event_types_by_schedule').on('event_types').column('schedule_id').execute();
  await db.schema.dropTable('availabilities').execute();

  if (engine === 'postgres') {
    await sql`
      create constraint trigger schedules_calendar_version
      after insert or update or delete on schedules
      deferrable initially deferred
      for each row execute function bump_calendar_version()`.execute(db);
    return;
  }
  for (const [operation, row] of [
    ['insert', 'new'],
    ['update', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql`
      create trigger ${sql.raw(`schedules_calendar_version_${operation}`)}
      after ${sql.raw(operation)} on schedules
      begin
        update holders set calendar_version = calendar_version + 1 where id = ${sql.raw(row)}.holder_id;
      end`.execute(db);
  }
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** The shape of `IdGenerator`'s ids (`app/ids.ts`), which storage does not import. */
function scheduleId(): string {
  let id = 'sch_';
  for (let i = 0; i < 20; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}
