import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §16, who is told: an event type says whether the guest and the hosts get e-mails
 * (`event_types.notify_guest`, `notify_hosts`, 1 for every event type made before, as the contract's
 * defaults are), and the notification outbox, one row per message to one recipient
 * (`notifications`): written in the transaction of the booking's change, sent by the e-mail worker,
 * listed by `GET /bookings/:id/notifications`, removed by the housekeeper once finished and as old
 * as a finished webhook delivery it would remove.
 *
 * A row keeps what its message says as of the change (`message`, JSON), so a later change of the
 * booking never rewrites an earlier message; the guest's manage link is made when sent, never
 * stored. `channel` is `email` now; `calendar` rows (the write-back) use the same columns, their
 * `recipient` a calendar source's id. `account_id` and `holder_id` are the booking's owners, whose
 * transaction writes the row (a team booking's: its account, `holder_id` null).
 */
export default function migration(engine: Engine): Migration {
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('event_types')
        .addColumn('notify_guest', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable('event_types')
        .addColumn('notify_hosts', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .createTable('notifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('booking_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('holder_id', 'text')
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('retry_step', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('due_at', instant)
        .addColumn('claimed_until', instant)
        .addColumn('sent_at', instant)
        .addColumn('created_at', instant, (c) => c.notNull())
        .addColumn('updated_at', instant, (c) => c.notNull())
        .execute();
      // The worker's claim: pending rows by due time.
      await db.schema
        .createIndex('notifications_due')
        .on('notifications')
        .columns(['due_at', 'id'])
        .where(sql.ref('status'), '=', 'pending')
        .execute();
      // The booking's log.
      await db.schema
        .createIndex('notifications_by_booking')
        .on('notifications')
        .columns(['booking_id', 'created_at', 'id'])
        .execute();
      // EMAIL_PER_RECIPIENT_PER_HOUR: one address's rows of the last hour that count (whatever the
      // address's case); those refused by the cap are left out, so a flooded address costs the
      // count no more than the cap.
      await sql`
        create index notifications_by_recipient on notifications (channel, lower(recipient), created_at)
        where not (status = 'failed' and attempts = 0)`.execute(db);
      // Retention: finished rows by age.
      await db.schema
        .createIndex('notifications_finished')
        .on('notifications')
        .columns(['updated_at', 'id'])
        .where(sql.ref('status'), '<>', 'pending')
        .execute();
    },
  };
}
