import type { Kysely } from 'kysely';
import type { Storage } from '../storage.js';
import { pendingMigrations } from '../migrate.js';
import type { Database } from '../schema.js';
import { KyselyDeliveryQueue } from './delivery-queue.js';
import type { EngineTraits } from './engine-traits.js';
import { KyselyHousekeeping } from './housekeeping.js';
import { KyselyIdempotencyLedger } from './idempotency-ledger.js';
import { KyselyRequestCounter } from './request-counter.js';
import { KyselyStore } from './store.js';
import { Transactions } from './transactions.js';

/** Every port over one database handle, sharing its transactions (and, on SQLite, its group commit). */
export function kyselyStorage(db: Kysely<Database>, engine: EngineTraits): Storage {
  const transactions = new Transactions(db, engine);
  return {
    engine: engine.name,
    store: new KyselyStore(db, engine, transactions),
    deliveryQueue: new KyselyDeliveryQueue(db, engine, transactions),
    idempotencyLedger: new KyselyIdempotencyLedger(engine, transactions),
    requestCounter: new KyselyRequestCounter(engine, transactions),
    schemaStatus: { pendingMigrations: () => pendingMigrations(db, engine.name) },
    housekeeping: new KyselyHousekeeping(transactions),
    changes: transactions,
    close: () => db.destroy(),
  };
}
