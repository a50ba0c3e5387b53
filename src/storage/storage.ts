import type { ChangeSignal } from '../app/ports/change-signal.js';
import type { DeliveryQueue } from '../app/ports/delivery-queue.js';
import type { Housekeeping } from '../app/ports/housekeeping.js';
import type { NotificationQueue } from '../app/ports/notification-store.js';
import type { IdempotencyLedger } from '../app/ports/idempotency-ledger.js';
import type { SharedRequestCounts } from '../app/ports/request-counter.js';
import type { SchemaStatus } from '../app/ports/schema-status.js';
import type { Store } from '../app/ports/store.js';
import type { Engine } from './schema.js';

/** An opened database, as the ports the rest of the system uses (src/app/ports/), and how to close it. */
export interface Storage {
  engine: Engine;
  store: Store;
  deliveryQueue: DeliveryQueue;
  /** The notification outbox as the e-mail worker claims from it (contract §16). */
  notificationQueue: NotificationQueue;
  idempotencyLedger: IdempotencyLedger;
  /** Counts requests in the database: what instances over one PostgreSQL share. */
  requestCounts: SharedRequestCounts;
  schemaStatus: SchemaStatus;
  housekeeping: Housekeeping;
  changes: ChangeSignal;
  /** Resolves once every commit acknowledged before the call, by any process, is known to `changes`. */
  changesHeard(): Promise<void>;
  /** Statements sent to the database by this process so far (`slotwise_database_queries_total`). */
  queriesSent(): number;
  close(): Promise<void>;
}
