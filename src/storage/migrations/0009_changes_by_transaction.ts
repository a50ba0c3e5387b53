import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // PostgreSQL: every change that an instance may hold in memory about a holder (its keys;
      // its calendar, whose version every calendar change bumps on the holder's row at commit)
      // leaves the id of the transaction that made it on the holder's row, so that every
      // instance can ask, a few times a second, which holders changed since it last asked
      // (`PostgresChangePoll`). Not NOTIFY: PostgreSQL serialises the commits of all notifying
      // transactions of a database on one lock (measured: 16 clients' insert transactions,
      // 2,363–2,764/s plain, 443–776/s with a notification), which would have queued every
      // holder's bookings behind each other. The row is the one the version bump updates already.
      // SQLite instances learn of other processes' commits from `data_version` instead.
      if (engine !== 'postgres') return;
      await sql`alter table holders add column changed_by xid8 not null default '0'`.execute(db);
      await sql`create index holders_by_changing_transaction on holders (changed_by)`.execute(db);
      await sql`
        create function holder_changed() returns trigger language plpgsql as $$
        begin
          new.changed_by := pg_current_xact_id();
          return new;
        end $$`.execute(db);
      await sql`
        create trigger holders_changed before insert or update on holders
        for each row execute function holder_changed()`.execute(db);
      await sql`
        create function key_changed() returns trigger language plpgsql as $$
        begin
          update holders set changed_by = pg_current_xact_id() where id = old.holder_id;
          return null;
        end $$`.execute(db);
      // A new key is in no cache; a revoked or deleted one may be.
      await sql`
        create trigger api_keys_changed after update or delete on api_keys
        for each row execute function key_changed()`.execute(db);
    },
  };
}
