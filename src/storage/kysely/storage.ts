import type { Kysely } from 'kysely';
import type { ChangeLog } from '../change-log.js';
import type { Storage } from '../storage.js';
import { pendingMigrations } from '../migrate.js';
import type { Database } from '../schema.js';
import { KyselyDeliveryQueue } from './delivery-queue.js';
import type { EngineTraits } from './engine-traits.js';
import { KyselyHousekeeping } from './housekeeping.js';
import { KyselyIdempotencyLedger } from './idempotency-ledger.js';
import { KyselyNotificationQueue } from './notifications.js';
import { KyselyRequestCounts } from './request-counter.js';
import { SeatClaimRegistry } from './seat-claims.js';
import { KyselyStore } from './store.js';
import { Transactions } from './transactions.js';
import type { QueryTally } from './translated-errors.js';

/**
 * Every port over one database handle, sharing its transactions (and, on SQLite, its group
 * commit); `changes` hears of commits made elsewhere, `close` ends what the dialect file opened
 * besides the handle.
 */
export function kyselyStorage(
  db: Kysely<Database>,
  engine: EngineTraits,
  changes: ChangeLog,
  queries: QueryTally,
  closeOthers: () => Promise<void> = async () => {},
): Storage {
  const transactions = new Transactions(db, engine, changes);
  return {
    engine: engine.name,
    store: new KyselyStore(db, engine, transactions, new SeatClaimRegistry()),
    deliveryQueue: new KyselyDeliveryQueue(db, engine, transactions),
    notificationQueue: new KyselyNotificationQueue(db, engine, transactions),
    idempotencyLedger: new KyselyIdempotencyLedger(engine, transactions),
    requestCounts: new KyselyRequestCounts(engine, transactions),
    schemaStatus: { pendingMigrations: () => pendingMigrations(db, engine.name) },
    housekeeping: new KyselyHousekeeping(transactions),
    changes,
    changesHeard: () => changes.heardUpToNow(),
    queriesSent: () => queries.sent,
    close: async () => {
      await closeOthers();
      await db.destroy();
    },
  };
}
