import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §16, sending never on the booking's path: a booking's change writes one row here, the
 * change as it was (`change`, JSON), instead of its e-mails. The e-mail worker turns each into its
 * messages (`notifications` rows, with the event type's title, the hosts, the per-recipient cap)
 * in a transaction that removes it, so every change is written out exactly once, after any number
 * of restarts. The row has no index beside its key: on SQLite the key is the rowid, so the
 * booking's transaction adds one row to one b-tree (the notifications' four indexes and the two
 * reads of the facts and the cap cost the booking path a third of its throughput, `npm run bench`).
 * The order of the keys is the order the changes are written out in.
 */
export default function migration(engine: Engine): Migration {
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('email_changes')
        .addColumn('id', engine === 'postgres' ? 'bigint' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey(),
        )
        .addColumn('booking_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('holder_id', 'text')
        .addColumn('change', 'text', (c) => c.notNull())
        .addColumn('created_at', instant, (c) => c.notNull())
        .execute();
    },
  };
}
