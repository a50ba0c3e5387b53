import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/** What a webhook registered without `events` stored before this migration: every type there was. */
const EVERY_TYPE_BEFORE = JSON.stringify([
  'booking.created',
  'booking.cancelled',
  'booking.rescheduled',
  'calendar_source.failed',
  'calendar_source.recovered',
]);
/** The same list with `booking.reminder`, in the order the code writes it (`WEBHOOK_EVENT_TYPES`). */
const EVERY_TYPE_NOW = JSON.stringify([
  'booking.created',
  'booking.cancelled',
  'booking.rescheduled',
  'booking.reminder',
  'calendar_source.failed',
  'calendar_source.recovered',
]);

/**
 * Contract §16, reminders: an event type names when its bookings are reminded of
 * (`event_types.reminders`, JSON, `[]` for none, as everything stored before has), and each
 * reminder still to be sent is a row of `booking_reminders` (one per booking and offset), written
 * in the booking's transaction, so a reminder survives restarts and is claimed by one instance.
 *
 * Webhooks registered without `events` hear every type, including types added later (§4), but
 * were stored with the list of every type there was: those lists gain `booking.reminder`. A webhook
 * that named all five types itself cannot be told apart from one that named none; it gains it too,
 * which is what naming every type meant.
 */
export default function migration(engine: Engine): Migration {
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('event_types')
        .addColumn('reminders', 'text', (column) => column.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('booking_reminders')
        .addColumn('booking_id', 'text', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
        .addColumn('minutes_before', 'integer', (c) => c.notNull())
        .addColumn('due_at', instant, (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('holder_id', 'text')
        .addPrimaryKeyConstraint('booking_reminders_pk', ['booking_id', 'minutes_before'])
        .execute();
      await db.schema.createIndex('booking_reminders_by_due').on('booking_reminders').columns(['due_at']).execute();
      await sql`update webhooks set events = ${EVERY_TYPE_NOW} where events = ${EVERY_TYPE_BEFORE}`.execute(db);
    },
  };
}
