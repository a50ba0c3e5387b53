import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §16: a booking records the language of its guest's e-mails (`bookings.guest_language`,
 * `en` or `de`), which a booking page sets to the page's. Bookings stored before it were made
 * without one: they take the default, `en`, as the contract says.
 */
export default function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('bookings')
        .addColumn('guest_language', 'text', (column) => column.notNull().defaultTo('en'))
        .execute();
    },
  };
}
