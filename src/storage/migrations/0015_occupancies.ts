import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';
import { HOLDER_DELETED_SQLSTATE } from './0013_bookings_of_deleted_holders.js';

/**
 * A host's time is the unit of truth (contract §14): a booking or hold occupies each of its hosts,
 * so what keeps occupied time apart moves from the `bookings` row (one holder) to `occupancies`,
 * one row per host while the booking or hold occupies time (confirmed, or held), removed with it
 * (cancelled, rescheduled, a hold ended; `on delete cascade` for rows removed from `bookings`).
 * PostgreSQL's exclusion constraint moves with it, now over every row of the table, so it keeps
 * apart what any two hosts' bookings and holds occupy, whichever event types they belong to. The
 * calendar version of a holder is bumped by changes to its occupancies, which every booking
 * change makes (a booking's own row changes nothing a calendar shows but its metadata).
 *
 * Bookings gain their account (`account_id`: account-scope lists, and team bookings, whose
 * `holder_id` is null) and their hosts (`host_ids`, JSON: fixed at booking; a personal booking's
 * is `[holder_id]`).
 *
 * No moment lets a double booking slip through: on PostgreSQL the copy runs in the migration's
 * transaction with `bookings` locked against writes, and the constraint is in place before any
 * other write sees the table; SQLite migrates in one write transaction.
 */
export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'postgres') return onPostgres(db);
      // As 0011: foreign keys can be turned off only outside a transaction; the guard makes a
      // migration whose record was lost (the process stopped after the commit) not run twice.
      const done = await sql`select 1 from sqlite_master where type = 'table' and name = 'occupancies'`.execute(db);
      if (done.rows.length > 0) return;
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await db.transaction().execute((tx) => onSqlite(tx));
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length > 0)
          throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
  };
}

async function createOccupancies(db: Kysely<any>, instant: 'bigint' | 'integer'): Promise<void> {
  await db.schema
    .createTable('occupancies')
    .addColumn('booking_id', 'text', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
    .addColumn('event_type_id', 'text', (c) => c.notNull())
    .addColumn('start_at', instant, (c) => c.notNull())
    .addColumn('occupied_start', instant, (c) => c.notNull())
    .addColumn('occupied_end', instant, (c) => c.notNull())
    .addColumn('expires_at', instant)
    .addPrimaryKeyConstraint('occupancies_pk', ['booking_id', 'holder_id'])
    .execute();
  // The overlap reads (two seeks: occupancies starting in the range, and the last one before it)
  // and the daily cap's count read only these columns: from the index alone.
  await sql`
    create index occupancies_by_holder on occupancies
      (holder_id, occupied_start, occupied_end, start_at, event_type_id, booking_id, expires_at)`.execute(db);
  // A team event type's own bookings and holds, whichever hosts they occupy: its daily cap's
  // count, and round robin's load per host (contract §14).
  await sql`
    create index occupancies_by_event_type on occupancies (event_type_id, start_at, booking_id, holder_id, expires_at)`.execute(
    db,
  );
  await sql`
    insert into occupancies (booking_id, holder_id, event_type_id, start_at, occupied_start, occupied_end, expires_at)
    select id, holder_id, event_type_id, start_at, occupied_start, occupied_end, expires_at
      from bookings where status in ('confirmed', 'held')`.execute(db);
}

async function onPostgres(db: Kysely<any>): Promise<void> {
  // Until this transaction commits, no booking or hold is written: none can be missed by the copy.
  await sql`lock table bookings in share row exclusive mode`.execute(db);
  // Calendars change with their occupancies from now on (below); the bookings' own trigger would
  // also bump every holder once per row rewritten here.
  await sql`drop trigger bookings_calendar_version on bookings`.execute(db);
  await createOccupancies(db, 'bigint');
  await sql`
    alter table occupancies add constraint occupancies_no_overlap
    exclude using gist (holder_id with =, int8range(occupied_start, occupied_end) with &&)`.execute(db);
  await sql`alter table bookings drop constraint bookings_occupying_no_overlap`.execute(db);
  await sql`drop index bookings_occupying`.execute(db);

  await sql`alter table bookings alter column holder_id drop not null`.execute(db);
  await sql`alter table bookings add column account_id text references accounts (id)`.execute(db);
  await sql`update bookings set account_id = h.account_id from holders h where h.id = bookings.holder_id`.execute(db);
  await sql`alter table bookings alter column account_id set not null`.execute(db);
  await sql`alter table bookings add column host_ids text`.execute(db);
  await sql`update bookings set host_ids = json_build_array(holder_id)::text`.execute(db);
  await sql`alter table bookings alter column host_ids set not null`.execute(db);
  await createAccountIndex(db);

  // Calendars change with their occupancies, for every host; and an occupancy written for a
  // holder whose deletion committed meanwhile is refused at commit (0013, now for every host).
  await sql`
    create or replace function bump_calendar_version() returns trigger language plpgsql as $$
    begin
      update holders set calendar_version = calendar_version + 1
      where id = case when tg_op = 'DELETE' then old.holder_id else new.holder_id end;
      -- Nested: only a new occupancy is refused, and a condition is not cut short.
      if tg_table_name = 'occupancies' and tg_op = 'INSERT' then
        if exists (select 1 from holders where id = new.holder_id and deleted_at is not null) then
          raise exception 'holder % was deleted', new.holder_id using errcode = '${sql.raw(HOLDER_DELETED_SQLSTATE)}';
        end if;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger occupancies_calendar_version
    after insert or update or delete on occupancies
    deferrable initially deferred
    for each row execute function bump_calendar_version()`.execute(db);
}

/** Account-scope lists of bookings (team bookings have no holder): by start, as `bookings_by_start` by holder. */
async function createAccountIndex(db: Kysely<any>): Promise<void> {
  await sql`create index bookings_of_account_by_start on bookings (account_id, start_at, id, status) where status <> 'held'`.execute(
    db,
  );
}

async function onSqlite(db: Kysely<any>): Promise<void> {
  await sql`create table bookings_before_0015 as select * from bookings`.execute(db);
  await sql`drop table bookings`.execute(db);
  await db.schema
    .createTable('bookings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('holder_id', 'text', (c) => c.references('holders.id'))
    .addColumn('host_ids', 'text', (c) => c.notNull())
    .addColumn('event_type_id', 'text', (c) => c.notNull().references('event_types.id'))
    .addColumn('start_at', 'integer', (c) => c.notNull())
    .addColumn('end_at', 'integer', (c) => c.notNull())
    .addColumn('occupied_start', 'integer', (c) => c.notNull())
    .addColumn('occupied_end', 'integer', (c) => c.notNull())
    .addColumn('buffer_before_minutes', 'integer', (c) => c.notNull())
    .addColumn('buffer_after_minutes', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('guest_email', 'text', (c) => c.notNull())
    .addColumn('guest_time_zone', 'text')
    .addColumn('notes', 'text')
    .addColumn('cancellation_reason', 'text')
    .addColumn('cancelled_at', 'integer')
    .addColumn('rescheduled_from_id', 'text')
    .addColumn('rescheduled_to_id', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer')
    .addColumn('answers', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('api'))
    .addColumn('page_session', 'text')
    .addColumn('page_client', 'text')
    .execute();
  await sql`
    insert into bookings
    select b.id, h.account_id, b.holder_id, json_array(b.holder_id), b.event_type_id, b.start_at, b.end_at,
           b.occupied_start, b.occupied_end, b.buffer_before_minutes, b.buffer_after_minutes, b.status,
           b.guest_name, b.guest_email, b.guest_time_zone, b.notes, b.cancellation_reason, b.cancelled_at,
           b.rescheduled_from_id, b.rescheduled_to_id, b.created_at, b.updated_at, b.expires_at, b.answers,
           b.metadata, b.source, b.page_session, b.page_client
      from bookings_before_0015 b join holders h on h.id = b.holder_id`.execute(db);
  await sql`drop table bookings_before_0015`.execute(db);
  // The indexes the table had, but the occupancy index: occupancies have their own now.
  await sql`create index bookings_held_by_expiry on bookings (expires_at, id) where status = 'held'`.execute(db);
  await sql`create index bookings_by_start on bookings (holder_id, start_at, id, status) where status <> 'held'`.execute(
    db,
  );
  await createAccountIndex(db);
  await createOccupancies(db, 'integer');
  for (const [operation, row] of [
    ['insert', 'new'],
    ['update', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql`
      create trigger ${sql.raw(`occupancies_calendar_version_${operation}`)}
      after ${sql.raw(operation)} on occupancies
      begin
        update holders set calendar_version = calendar_version + 1 where id = ${sql.raw(row)}.holder_id;
      end`.execute(db);
  }
}
