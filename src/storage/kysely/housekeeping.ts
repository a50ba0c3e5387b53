import { sql, type Kysely } from 'kysely';
import type { Housekeeping, PurgeRequest } from '../../app/ports/housekeeping.js';
import type { Database } from '../schema.js';
import { HELD } from './rows.js';
import type { TransactionRunner } from './transactions.js';

/** Retention, each batch one short transaction of its own. */
export class KyselyHousekeeping implements Housekeeping {
  constructor(private readonly transactions: TransactionRunner) {}

  purge(request: PurgeRequest): Promise<number> {
    return this.transactions.retrying(
      async (db) =>
        (await purgeFinishedDeliveries(db, request)) +
        (await purgeFinishedNotifications(db, request)) +
        (await purgeExpiredIdempotencyKeys(db, request)) +
        (await purgeExpiredHolds(db, request)),
    );
  }
}

/** The oldest finished deliveries past retention, their attempts, then events left without deliveries. */
async function purgeFinishedDeliveries(db: Kysely<Database>, request: PurgeRequest): Promise<number> {
  const finished = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '<>', sql.lit('pending'))
    .where('updated_at', '<', request.finishedBefore)
    .orderBy('updated_at')
    .limit(request.limit);
  const ids = (await finished.execute()).map((row) => row.id);
  let removed = 0;
  if (ids.length > 0) {
    const attempts = await db
      .deleteFrom('webhook_delivery_attempts')
      .where('delivery_id', 'in', ids)
      .executeTakeFirst();
    const deliveries = await db.deleteFrom('webhook_deliveries').where('id', 'in', ids).executeTakeFirst();
    removed += Number(attempts.numDeletedRows) + Number(deliveries.numDeletedRows);
  }
  const orphaned = db
    .selectFrom('webhook_events as e')
    .select('e.id')
    .where('e.created_at', '<', request.finishedBefore)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))),
    )
    .limit(request.limit);
  const events = await db.deleteFrom('webhook_events').where('id', 'in', orphaned).executeTakeFirst();
  return removed + Number(events.numDeletedRows);
}

/** The oldest finished notifications past retention: kept as long as webhook deliveries (contract §16). */
async function purgeFinishedNotifications(db: Kysely<Database>, request: PurgeRequest): Promise<number> {
  const finished = db
    .selectFrom('notifications')
    .select('id')
    .where('status', '<>', sql.lit('pending'))
    .where('updated_at', '<', request.finishedBefore)
    .orderBy('updated_at')
    .limit(request.limit);
  const result = await db.deleteFrom('notifications').where('id', 'in', finished).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The longest-expired Idempotency-Keys (a row-value `IN`, which both engines have: the key is two columns). */
async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, request: PurgeRequest): Promise<number> {
  const result = await sql`
    delete from idempotency_keys
    where (requester, key) in (
      select requester, key from idempotency_keys
      where expires_at <= ${request.now}
      order by expires_at
      limit ${request.limit}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The longest-expired holds. An expired hold occupies nothing already (the use cases skip it, and
 * whatever takes its time removes it first); this only keeps such rows from piling up.
 */
async function purgeExpiredHolds(db: Kysely<Database>, request: PurgeRequest): Promise<number> {
  const expired = db
    .selectFrom('bookings')
    .select('id')
    .where('status', '=', sql.lit(HELD))
    .where('expires_at', '<=', request.now)
    .orderBy('expires_at')
    .limit(request.limit);
  const result = await db
    .deleteFrom('bookings')
    .where('id', 'in', expired)
    .where('status', '=', sql.lit(HELD))
    .where('expires_at', '<=', request.now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
