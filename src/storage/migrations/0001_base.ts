import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

export default function migration(engine: Engine): Migration {
  // Epoch milliseconds need 64 bits: SQLite's integer has them, PostgreSQL's is 32-bit.
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('holders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', instant, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
        .addColumn('digest', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', instant, (c) => c.notNull())
        .addColumn('expires_at', instant)
        .addColumn('revoked_at', instant)
        .execute();

      await db.schema
        .createTable('event_types')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('duration_minutes', 'integer', (c) => c.notNull())
        .addColumn('slot_interval_minutes', 'integer')
        .addColumn('buffer_before_minutes', 'integer', (c) => c.notNull())
        .addColumn('buffer_after_minutes', 'integer', (c) => c.notNull())
        .addColumn('minimum_notice_minutes', 'integer', (c) => c.notNull())
        .addColumn('booking_window_days', 'integer')
        .addColumn('max_bookings_per_day', 'integer')
        .addColumn('created_at', instant, (c) => c.notNull())
        .addColumn('updated_at', instant, (c) => c.notNull())
        .addColumn('deleted_at', instant)
        .execute();
      // A deleted event type frees its slug.
      await db.schema
        .createIndex('event_types_live_slug')
        .on('event_types')
        .columns(['holder_id', 'slug'])
        .unique()
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
      await db.schema
        .createIndex('event_types_by_holder')
        .on('event_types')
        .columns(['holder_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('availabilities')
        .addColumn('holder_id', 'text', (c) => c.primaryKey().references('holders.id'))
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('weekly', 'text', (c) => c.notNull())
        .addColumn('overrides', 'text', (c) => c.notNull())
        .addColumn('updated_at', instant, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('bookings')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
        .addColumn('event_type_id', 'text', (c) => c.notNull().references('event_types.id'))
        .addColumn('start_at', instant, (c) => c.notNull())
        .addColumn('end_at', instant, (c) => c.notNull())
        .addColumn('occupied_start', instant, (c) => c.notNull())
        .addColumn('occupied_end', instant, (c) => c.notNull())
        .addColumn('buffer_before_minutes', 'integer', (c) => c.notNull())
        .addColumn('buffer_after_minutes', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('guest_name', 'text', (c) => c.notNull())
        .addColumn('guest_email', 'text', (c) => c.notNull())
        .addColumn('guest_time_zone', 'text')
        .addColumn('notes', 'text')
        .addColumn('cancellation_reason', 'text')
        .addColumn('cancelled_at', instant)
        .addColumn('rescheduled_from_id', 'text')
        .addColumn('rescheduled_to_id', 'text')
        .addColumn('created_at', instant, (c) => c.notNull())
        .addColumn('updated_at', instant, (c) => c.notNull())
        .execute();
      // Overlap checks are bounded on both sides of occupied_start, so this index serves them.
      await db.schema
        .createIndex('bookings_confirmed_occupancy')
        .on('bookings')
        .columns(['holder_id', 'occupied_start'])
        .where(sql.ref('status'), '=', 'confirmed')
        .execute();
      if (engine === 'postgres') {
        // The last line of defence against double booking, whatever the application does: no two
        // confirmed bookings of a holder may occupy overlapping time. The equality column goes
        // first: the GiST index is then far cheaper to build and to check.
        await sql`create extension if not exists btree_gist`.execute(db);
        await sql`
        alter table bookings add constraint bookings_confirmed_no_overlap
        exclude using gist (holder_id with =, int8range(occupied_start, occupied_end) with &&)
        where (status = 'confirmed')`.execute(db);
      }
      await db.schema
        .createIndex('bookings_confirmed_start')
        .on('bookings')
        .columns(['holder_id', 'start_at', 'id'])
        .where(sql.ref('status'), '=', 'confirmed')
        .execute();

      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', instant, (c) => c.notNull())
        .addColumn('updated_at', instant, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhooks_by_holder')
        .on('webhooks')
        .columns(['holder_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', instant, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('retry_step', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', instant)
        .addColumn('claimed_until', instant)
        .addColumn('created_at', instant, (c) => c.notNull())
        .addColumn('updated_at', instant, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_delivery_attempts')
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', instant, (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('response_excerpt', 'text')
        .addPrimaryKeyConstraint('webhook_delivery_attempts_pk', ['delivery_id', 'attempt'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['next_attempt_at'])
        .where(sql.ref('status'), '=', 'pending')
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_by_event')
        .on('webhook_deliveries')
        .columns(['event_id'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_by_webhook')
        .on('webhook_deliveries')
        .columns(['webhook_id', 'created_at', 'id'])
        .execute();
    },
  };
}
