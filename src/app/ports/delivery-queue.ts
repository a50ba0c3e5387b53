// The webhook delivery queue, as the delivery worker uses it: claim due deliveries, record each
// attempt, give claims back at shutdown; and its depth, for the metrics.
import type { DeliveryDecision } from '../../domain/webhook-retry.js';
import type { Instant } from '../../domain/instant.js';
import type { DeliveryAttempt } from '../../domain/webhook.js';

export interface ClaimRequest {
  now: Instant;
  /** Until when the claim keeps other workers away; a crashed worker's claims lapse then. */
  leaseUntil: Instant;
  limit: number;
  /** At most this many deliveries of one webhook: one slow receiver must not take every slot. */
  perWebhook: number;
  /**
   * At most this many deliveries of one owner's webhooks (`DeliveryJob.ownerId`): one tenant must
   * not take every slot.
   */
  perHolder: number;
  /** At most this many deliveries of one account's webhooks (its own and all its holders'). */
  perAccount: number;
  /** Webhooks that already have `perWebhook` attempts in flight in this worker. */
  skipWebhookIds: string[];
  /** Owners that already have `perHolder` attempts in flight in this worker. */
  skipOwnerIds: string[];
  /** Accounts that already have `perAccount` attempts in flight in this worker. */
  skipAccountIds: string[];
}

/** A claimed delivery, with everything needed to send it without another query. */
export interface DeliveryJob {
  deliveryId: string;
  eventId: string;
  webhookId: string;
  /** Whose webhook it is: the worker shares its slots fairly among accounts, then among their owners. */
  accountId: string;
  /**
   * The webhook's holder, or for an account webhook its account: an account's own webhooks share
   * as one more holder of the account.
   */
  ownerId: string;
  url: string;
  secret: string;
  payload: string;
  attempts: number;
  /** Failed attempts since the schedule last started (creation or a manual retry). */
  retryStep: number;
}

export interface DeliveryQueue {
  /**
   * Claims due deliveries of active webhooks in one short transaction, fairly: every account's
   * oldest due delivery before any account's second, and so on, an account's own turns going
   * round its holders (each holder's first before any holder's second); oldest due first among
   * equals.
   */
  claimDue(request: ClaimRequest): Promise<DeliveryJob[]>;
  /** Logs the attempt and moves the delivery on; does nothing if the delivery was deleted meanwhile. */
  recordAttempt(deliveryId: string, attempt: DeliveryAttempt, decision: DeliveryDecision, now: Instant): Promise<void>;
  /** Gives claimed deliveries back (on shutdown) so the next worker need not wait for the lease. */
  release(deliveryIds: string[]): Promise<void>;
  /** Pending deliveries, due or not: the queue's depth. */
  countPending(): Promise<number>;
}
