import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §14, team event types: an event type may belong to its account rather than to a holder.
 * - Every event type names its account (`account_id`, filled from its holder's); a team type has no
 *   holder (`holder_id` null) and an `assignment` (`collective` or `round-robin`), a holder's own
 *   has none (a check keeps the two together).
 * - `event_type_hosts`: a team type's hosts, each holder once, in the order given (`position`),
 *   with the host's schedule (null: its default), `fixed`, `priority` and `weight`; found by
 *   holder too ("the team types this holder hosts": a holder's list, its deletion's refusal).
 * - Team slugs are unique among the account's live team types; a holder's own stay unique per
 *   holder (`event_types_live_slug`, where a null holder never collides).
 * - PostgreSQL: a change of a team type or of its hosts marks its account changed
 *   (`accounts.changed_by`, migration 0011), so that every instance's change poll hears it, and
 *   a cache of team types by account goes stale there; the hosts' calendars are not touched (a
 *   team type is not part of them). SQLite instances hear every other process's commit anyway.
 *
 * SQLite cannot drop a column's `not null`: there `event_types` is rebuilt (made anew beside the
 * old one, filled, the old one dropped, the new one renamed) with foreign keys off and in one
 * transaction, as migration 0011 rebuilt its tables. The new table is made from what the old one
 * holds when this runs (`pragma table_xinfo`, `foreign_key_list`, its indexes and triggers), not
 * from a list written here, so a column an earlier migration added since (a schedule, §13) is
 * carried over with its type, default, constraint and value. PostgreSQL alters it in place.
 */
export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // PostgreSQL runs every migration in a transaction of its own; SQLite runs none in one, and
      // its foreign keys can be turned off only outside a transaction.
      if (engine === 'postgres') return teamEventTypesOnPostgres(db);
      // Kysely records the migration after its own statement, outside this transaction: a process
      // that stopped between the two left the whole of it done, and it is not done twice.
      const done = await sql`select 1 from sqlite_master where type = 'table' and name = 'event_type_hosts'`.execute(
        db,
      );
      if (done.rows.length > 0) return;
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await db.transaction().execute(teamEventTypesOnSqlite);
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length > 0)
          throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
  };
}

/** A team type (no holder) has an assignment, a holder's own has none. */
const TEAM_HAS_ASSIGNMENT = 'check ((holder_id is null) = (assignment is not null))';

async function teamEventTypesOnPostgres(db: Kysely<any>): Promise<void> {
  await sql`alter table event_types add column account_id text references accounts (id)`.execute(db);
  // Filled in, no calendar changed: the event types' own triggers (the calendar version's,
  // deferred to the commit) stay out of it, and a pending deferred event would forbid the
  // alterations that follow.
  await sql`alter table event_types disable trigger user`.execute(db);
  await sql`update event_types set account_id = holders.account_id from holders where holders.id = event_types.holder_id`.execute(
    db,
  );
  await sql`alter table event_types enable trigger user`.execute(db);
  await sql`alter table event_types alter column account_id set not null`.execute(db);
  await sql`alter table event_types alter column holder_id drop not null`.execute(db);
  await sql`alter table event_types add column assignment text`.execute(db);
  await sql
    .raw(`alter table event_types add constraint event_types_team_has_assignment ${TEAM_HAS_ASSIGNMENT}`)
    .execute(db);
  await accountIndexesAndHosts(db);

  // The account row carries the change (the poll reads `accounts.changed_by`); one update per
  // transaction is enough, so a type with 100 hosts rewrites the row once, not 100 times.
  await sql`
    create function team_event_type_changed(account text) returns void language sql as $$
      update accounts set changed_by = pg_current_xact_id()
      where id = account and changed_by <> pg_current_xact_id()
    $$`.execute(db);
  await sql`
    create function event_type_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        if old.holder_id is null then perform team_event_type_changed(old.account_id); end if;
      elsif new.holder_id is null then
        perform team_event_type_changed(new.account_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger event_types_team_changed after insert or update or delete on event_types
    for each row execute function event_type_changed()`.execute(db);
  await sql`
    create function event_type_host_changed() returns trigger language plpgsql as $$
    begin
      perform team_event_type_changed(account_id) from event_types
      where id = case when tg_op = 'DELETE' then old.event_type_id else new.event_type_id end;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger event_type_hosts_changed after insert or update or delete on event_type_hosts
    for each row execute function event_type_host_changed()`.execute(db);
}

async function accountIndexesAndHosts(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('event_types_live_team_slug')
    .on('event_types')
    .columns(['account_id', 'slug'])
    .unique()
    .where(sql.ref('holder_id'), 'is', null)
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  // The account's list: its holders' event types and its own, oldest first.
  await db.schema
    .createIndex('event_types_by_account')
    .on('event_types')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createTable('event_type_hosts')
    .addColumn('event_type_id', 'text', (c) => c.notNull().references('event_types.id'))
    .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
    // A schedule in use by a host cannot be deleted (409); were one deleted regardless, the host
    // falls back to its default schedule.
    .addColumn('schedule_id', 'text', (c) => c.references('schedules.id').onDelete('set null'))
    .addColumn('fixed', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('weight', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_type_hosts_pk', ['event_type_id', 'holder_id'])
    .execute();
  await db.schema
    .createIndex('event_type_hosts_by_holder')
    .on('event_type_hosts')
    .columns(['holder_id', 'event_type_id'])
    .execute();
}

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}

interface ForeignKeyInfo {
  id: number;
  seq: number;
  table: string;
  from: string;
  to: string | null;
  on_update: string;
  on_delete: string;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function teamEventTypesOnSqlite(db: Kysely<any>): Promise<void> {
  const columns = (await sql<ColumnInfo>`select * from pragma_table_xinfo('event_types')`.execute(db)).rows;
  const foreignKeys = (await sql<ForeignKeyInfo>`select * from pragma_foreign_key_list('event_types')`.execute(db))
    .rows;
  const { rows: schema } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'event_types' and type in ('table', 'index', 'trigger')`.execute(
    db,
  );
  const tableSql = schema.find((entry) => entry.type === 'table')?.sql ?? '';
  // What the rebuild below cannot carry over would be lost silently: refuse instead.
  if (columns.some((column) => column.hidden !== 0) || /\b(check|collate|unique|generated)\b/i.test(tableSql))
    throw new Error(`event_types has a constraint migration 0016 cannot carry over: ${tableSql}`);

  const definitions = columns.map((column) => {
    let definition = `${quoted(column.name)} ${column.type}`;
    if (column.notnull && column.name !== 'holder_id') definition += ' not null';
    if (column.dflt_value !== null) definition += ` default ${column.dflt_value}`;
    return definition;
  });
  definitions.push(`"account_id" text not null references "accounts" ("id")`, `"assignment" text`);
  const primaryKey = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
  definitions.push(`primary key (${primaryKey.map((column) => quoted(column.name)).join(', ')})`);
  for (const id of new Set(foreignKeys.map((key) => key.id))) {
    const parts = foreignKeys.filter((key) => key.id === id).sort((a, b) => a.seq - b.seq);
    const first = parts[0]!;
    const target = parts.every((key) => key.to !== null) ? ` (${parts.map((key) => quoted(key.to!)).join(', ')})` : '';
    definitions.push(
      `foreign key (${parts.map((key) => quoted(key.from)).join(', ')}) references ${quoted(first.table)}${target}` +
        ` on update ${first.on_update} on delete ${first.on_delete}`,
    );
  }
  definitions.push(TEAM_HAS_ASSIGNMENT);
  await sql.raw(`create table "event_types_0016" (${definitions.join(', ')})`).execute(db);

  const names = columns.map((column) => quoted(column.name)).join(', ');
  await sql
    .raw(
      `insert into "event_types_0016" (${names}, "account_id", "assignment")
       select ${names}, (select account_id from holders where holders.id = event_types.holder_id), null
       from event_types`,
    )
    .execute(db);
  await sql`drop table event_types`.execute(db);
  // Other tables' foreign keys (bookings') name event_types: they hold again once the new table has the name.
  await sql`alter table event_types_0016 rename to event_types`.execute(db);
  // Dropped with the old table: made again as they were (the calendar version's triggers, whose
  // `where id = new.holder_id` matches no holder for a team type, and every index).
  for (const entry of schema) if (entry.type !== 'table' && entry.sql !== null) await sql.raw(entry.sql).execute(db);
  await accountIndexesAndHosts(db);
}
