import type { Instant } from '../domain/instant.js';
import type { Scope, Store } from '../storage/store.js';

/** What every use case runs against: the store, the clock (injected so tests can move time) and settings. */
export interface AppContext {
  store: Store;
  now: () => Instant;
  webhooks: WebhookSettings;
  /** Called after a commit that enqueued deliveries, so a worker in this process sends them at once. */
  outboxChanged?: () => void;
}

export interface WebhookSettings {
  /** Lets webhooks target loopback, private and other non-public addresses (local development, tests). */
  allowPrivateTargets: boolean;
}

/** The authenticated caller: the key holder whose data a request may touch. */
export interface Caller {
  holderId: string;
  holderName: string;
  keyId: string;
  scopes: Scope[];
  keyCreatedAt: Instant;
  keyExpiresAt: Instant | null;
  /**
   * The holder's calendar version as read with the key (null when the caller was not made by
   * authentication): a slot query checks its cached calendar against it without another read.
   */
  calendarVersion: number | null;
}
