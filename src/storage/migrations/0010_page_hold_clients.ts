import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §10: a page hold records a digest of the client that made it (an address, or an IPv6
 * /64), so that one client's live page holds can be counted, however many sessions it makes.
 * Rows of holds made before it have none: each counts as its own client until it expires, at
 * most ten minutes after this runs.
 */
export default function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('bookings').addColumn('page_client', 'text').execute();
    },
  };
}
