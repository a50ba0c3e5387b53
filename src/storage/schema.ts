import { sql, type Generated, type Kysely, type Migration } from 'kysely';

/**
 * The one file that knows table and column names. Instants are integer epoch milliseconds on
 * every engine; structured values (weekly schedule, overrides, scopes, webhook events) are JSON text.
 */
export interface Database {
  holders: {
    id: string;
    name: string;
    created_at: number;
    /** Bumped (by triggers) in every transaction that changes the holder's event types, availability or bookings. */
    calendar_version: Generated<number>;
  };
  api_keys: {
    id: string;
    holder_id: string;
    digest: string;
    scopes: string;
    created_at: number;
    expires_at: number | null;
    revoked_at: number | null;
  };
  event_types: {
    id: string;
    holder_id: string;
    title: string;
    slug: string;
    description: string | null;
    duration_minutes: number;
    slot_interval_minutes: number | null;
    buffer_before_minutes: number;
    buffer_after_minutes: number;
    minimum_notice_minutes: number;
    booking_window_days: number | null;
    max_bookings_per_day: number | null;
    created_at: number;
    updated_at: number;
    deleted_at: number | null;
  };
  availabilities: {
    holder_id: string;
    time_zone: string;
    weekly: string;
    overrides: string;
    updated_at: number;
  };
  bookings: {
    id: string;
    holder_id: string;
    event_type_id: string;
    start_at: number;
    end_at: number;
    occupied_start: number;
    occupied_end: number;
    buffer_before_minutes: number;
    buffer_after_minutes: number;
    status: string;
    guest_name: string;
    guest_email: string;
    guest_time_zone: string | null;
    notes: string | null;
    cancellation_reason: string | null;
    cancelled_at: number | null;
    rescheduled_from_id: string | null;
    rescheduled_to_id: string | null;
    created_at: number;
    updated_at: number;
  };
  webhooks: {
    id: string;
    holder_id: string;
    url: string;
    events: string;
    description: string | null;
    active: number;
    secret: string;
    created_at: number;
    updated_at: number;
  };
  webhook_events: { id: string; holder_id: string; type: string; payload: string; created_at: number };
  webhook_deliveries: {
    id: string;
    event_id: string;
    webhook_id: string;
    status: string;
    attempts: number;
    retry_step: number;
    next_attempt_at: number | null;
    claimed_until: number | null;
    created_at: number;
    updated_at: number;
  };
  idempotency_keys: {
    api_key_id: string;
    key: string;
    request_hash: string;
    state: string;
    response_status: number | null;
    response_headers: string | null;
    response_body: string | null;
    created_at: number;
    expires_at: number;
  };
  rate_limit_windows: { api_key_id: string; window_start: number; requests: number };
  webhook_delivery_attempts: {
    delivery_id: string;
    attempt: number;
    started_at: number;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
    response_excerpt: string | null;
  };
}

export type Engine = 'sqlite' | 'postgres';

/** One migration text for both engines; the few differences are named where they occur. */
export function migrations(engine: Engine): Record<string, Migration> {
  // Epoch milliseconds need 64 bits: SQLite's integer has them, PostgreSQL's is 32-bit.
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    '0001_base': {
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
    },
    '0002_idempotency_and_rate_limits': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('idempotency_keys')
          .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('request_hash', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('response_status', 'integer')
          .addColumn('response_headers', 'text')
          .addColumn('response_body', 'text')
          .addColumn('created_at', instant, (c) => c.notNull())
          .addColumn('expires_at', instant, (c) => c.notNull())
          .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'key'])
          .execute();
        await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();
        await db.schema
          .createTable('rate_limit_windows')
          .addColumn('api_key_id', 'text', (c) => c.notNull())
          .addColumn('window_start', instant, (c) => c.notNull())
          .addColumn('requests', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('rate_limit_windows_pk', ['api_key_id', 'window_start'])
          .execute();
      },
    },
    '0003_calendar_version_and_covering_occupancy': {
      async up(db: Kysely<any>) {
        // Slot queries and booking checks read only these columns of confirmed bookings: from the
        // index alone, without a table lookup per booking in the bounded range.
        await db.schema.dropIndex('bookings_confirmed_occupancy').execute();
        await db.schema
          .createIndex('bookings_confirmed_occupancy')
          .on('bookings')
          .columns(['holder_id', 'occupied_start', 'occupied_end', 'start_at', 'event_type_id', 'id'])
          .where(sql.ref('status'), '=', 'confirmed')
          .execute();

        // A version of everything that decides a holder's slots, changed in the same transaction
        // as the change itself, by the database: whatever writes it, a cache of derived data
        // (compiled availability, event types, bookings) is valid exactly while it is unchanged.
        await db.schema
          .alterTable('holders')
          .addColumn('calendar_version', instant, (c) => c.notNull().defaultTo(0))
          .execute();
        const tables = ['event_types', 'availabilities', 'bookings'];
        if (engine === 'postgres') {
          await sql`
            create function bump_calendar_version() returns trigger language plpgsql as $$
            begin
              update holders set calendar_version = calendar_version + 1
              where id = case when tg_op = 'DELETE' then old.holder_id else new.holder_id end;
              return null;
            end $$`.execute(db);
          for (const table of tables) {
            await sql`
              create trigger ${sql.raw(`${table}_calendar_version`)}
              after insert or update or delete on ${sql.table(table)}
              for each row execute function bump_calendar_version()`.execute(db);
          }
        } else {
          for (const table of tables) {
            for (const [operation, row] of [
              ['insert', 'new'],
              ['update', 'new'],
              ['delete', 'old'],
            ] as const) {
              await sql`
                create trigger ${sql.raw(`${table}_calendar_version_${operation}`)}
                after ${sql.raw(operation)} on ${sql.table(table)}
                begin
                  update holders set calendar_version = calendar_version + 1 where id = ${sql.raw(row)}.holder_id;
                end`.execute(db);
            }
          }
        }
      },
    },
    '0004_calendar_version_bumped_at_commit': {
      async up(db: Kysely<any>) {
        // PostgreSQL: a bump takes the holder row's lock until commit. Bumped by the change's
        // own statement, it queued every concurrent booking of a holder from its insert through
        // its remaining round trips and its commit; bumped by a deferred trigger, only through the
        // commit. The version still changes in the transaction that makes the change. SQLite
        // has one writer at a time and keeps its triggers.
        if (engine !== 'postgres') return;
        for (const table of ['event_types', 'availabilities', 'bookings']) {
          const trigger = sql.raw(`${table}_calendar_version`);
          await sql`drop trigger ${trigger} on ${sql.table(table)}`.execute(db);
          await sql`
            create constraint trigger ${trigger}
            after insert or update or delete on ${sql.table(table)}
            deferrable initially deferred
            for each row execute function bump_calendar_version()`.execute(db);
        }
      },
    },
  };
}
