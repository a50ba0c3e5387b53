import type { Availability } from '../domain/availability.js';
import type { Booking, BookingStatus } from '../domain/booking.js';
import type { EventType } from '../domain/event-type.js';
import type { Instant } from '../domain/instant.js';
import type { Occupancy } from '../domain/slots.js';
import type { DeliveryDecision } from '../domain/webhook-retry.js';

export const SCOPES = ['read', 'write', '*'] as const;
export type Scope = (typeof SCOPES)[number];

export interface Holder {
  id: string;
  name: string;
  createdAt: Instant;
}

export interface ApiKey {
  id: string;
  holderId: string;
  holderName: string;
  scopes: Scope[];
  createdAt: Instant;
  expiresAt: Instant | null;
  revokedAt: Instant | null;
}

/** A key as authentication reads it: with its holder's calendar version, read in the same query. */
export interface AuthenticatedKey extends ApiKey {
  holderCalendarVersion: number;
}

/** The events a webhook can subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['booking.created', 'booking.cancelled', 'booking.rescheduled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Every event type that is ever delivered: the subscribable ones and the on-demand test event. */
export type DeliveredEventType = WebhookEventType | 'webhook.test';

export interface Webhook {
  id: string;
  holderId: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  active: boolean;
  secret: string;
  createdAt: Instant;
  updatedAt: Instant;
}

/** One event written to the outbox, with one delivery per target webhook. */
export interface OutboxEvent {
  id: string;
  holderId: string;
  type: DeliveredEventType;
  /** The full delivery body, `{ type, timestamp, data }`, serialised once at the time of the change. */
  payload: string;
  createdAt: Instant;
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryAttempt {
  attempt: number;
  startedAt: Instant;
  durationMs: number;
  /** Null when no HTTP answer arrived (connection refused, timeout, refused address). */
  statusCode: number | null;
  error: string | null;
  /** The start of the response body, at most 4 KiB. */
  responseExcerpt: string | null;
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: DeliveredEventType;
  webhookId: string;
  status: DeliveryStatus;
  /** Attempts made, over the delivery's whole life. */
  attempts: number;
  nextAttemptAt: Instant | null;
  createdAt: Instant;
  updatedAt: Instant;
  attemptLog: DeliveryAttempt[];
}

/** A claimed delivery, with everything needed to send it without another query. */
export interface DeliveryJob {
  deliveryId: string;
  eventId: string;
  webhookId: string;
  url: string;
  secret: string;
  payload: string;
  attempts: number;
  /** Failed attempts since the schedule last started (creation or a manual retry). */
  retryStep: number;
}

/** Where a delivery goes after an attempt; `disableWebhook` for a 410. */
export type DeliveryOutcome = DeliveryDecision;

export interface StoredAvailability {
  availability: Availability;
  updatedAt: Instant;
}

/** Keyset position after which a page continues: the sort key of the last item and its id. */
export interface PageAfter {
  key: number;
  id: string;
}

export interface PageRequest {
  limit: number;
  after: PageAfter | null;
}

export interface BookingQuery extends PageRequest {
  from: Instant;
  to: Instant;
  eventTypeId: string | null;
}

export interface StoreReads {
  findApiKeyByDigest(digest: string): Promise<AuthenticatedKey | undefined>;
  listApiKeys(): Promise<ApiKey[]>;
  countApiKeys(): Promise<number>;
  findHolderByName(name: string): Promise<Holder | undefined>;
  getHolder(id: string): Promise<Holder | undefined>;
  /**
   * A number that changes in every transaction that changes the holder's event types,
   * availability or bookings (undefined for no such holder): what caches of derived data check.
   */
  calendarVersion(holderId: string): Promise<number | undefined>;

  /** Deleted event types are not found. */
  getEventType(holderId: string, id: string): Promise<EventType | undefined>;
  listEventTypes(holderId: string, page: PageRequest): Promise<EventType[]>;
  /** Every live event type of the holder, unordered. */
  liveEventTypes(holderId: string): Promise<EventType[]>;
  /** Slugs of live event types equal to `base` or of the form `base-N`. */
  slugsLike(holderId: string, base: string): Promise<Set<string>>;

  getAvailability(holderId: string): Promise<StoredAvailability | undefined>;

  getBooking(holderId: string, id: string): Promise<Booking | undefined>;
  /** Confirmed bookings starting in [from, to), by start then id. */
  listConfirmedBookings(holderId: string, query: BookingQuery): Promise<Booking[]>;
  /** Confirmed bookings of the holder whose occupancy (buffers included) overlaps [from, to). */
  occupanciesOverlapping(holderId: string, from: Instant, to: Instant, excludeBookingId?: string): Promise<Occupancy[]>;
  /** Confirmed bookings of the event type starting in [from, to). */
  occupanciesStartingIn(
    holderId: string,
    eventTypeId: string,
    from: Instant,
    to: Instant,
    excludeBookingId?: string,
  ): Promise<Occupancy[]>;

  getWebhook(holderId: string, id: string): Promise<Webhook | undefined>;
  listWebhooks(holderId: string, page: PageRequest): Promise<Webhook[]>;
  /** Ids of the holder's active webhooks subscribed to `type`. */
  subscribedWebhookIds(holderId: string, type: WebhookEventType): Promise<string[]>;
  /** A webhook's deliveries, newest first (keyset on created_at descending), with their attempts. */
  listDeliveries(webhookId: string, page: PageRequest): Promise<Delivery[]>;
  getDelivery(webhookId: string, deliveryId: string): Promise<Delivery | undefined>;
}

export interface StoreWrites extends StoreReads {
  /**
   * Serialises writers of one holder's calendar until the transaction ends. SQLite write
   * transactions are exclusive already; PostgreSQL locks the holder row.
   */
  lockCalendar(holderId: string): Promise<void>;

  /** The holder of that name, created as `candidate` if there is none yet (also when two create it at once). */
  ensureHolder(candidate: Holder): Promise<Holder>;
  insertApiKey(key: ApiKey, digest: string): Promise<void>;
  /** False when no such key exists or it was revoked already. */
  revokeApiKey(id: string, at: Instant): Promise<boolean>;

  insertEventType(eventType: EventType): Promise<void>;
  updateEventType(eventType: EventType): Promise<void>;
  deleteEventType(holderId: string, id: string, at: Instant): Promise<boolean>;

  putAvailability(holderId: string, availability: Availability, at: Instant): Promise<void>;

  insertBooking(booking: Booking): Promise<void>;
  /**
   * Writes a state move of a booking that still has status `from`; false when it no longer has
   * (a concurrent move won), so a move is enforced by the database and not only by the lock.
   */
  updateBooking(booking: Booking, from: BookingStatus): Promise<boolean>;

  insertWebhook(webhook: Webhook): Promise<void>;
  updateWebhook(webhook: Webhook): Promise<void>;
  /** Removes the webhook with its deliveries, so nothing more is sent to it. */
  deleteWebhook(holderId: string, id: string): Promise<boolean>;

  /** Records the event and a pending delivery, due at once, for each `{ id, webhookId }`. */
  enqueueEvent(event: OutboxEvent, deliveries: Array<{ id: string; webhookId: string }>): Promise<void>;
  /** Makes a finished delivery due now with a fresh retry schedule. */
  restartDelivery(deliveryId: string, now: Instant): Promise<void>;
}

export interface ClaimRequest {
  now: Instant;
  /** Until when the claim keeps other workers away; a crashed worker's claims lapse then. */
  leaseUntil: Instant;
  limit: number;
  perWebhook: number;
  /** Webhooks this worker is still sending to: one slow receiver must not take every slot. */
  skipWebhookIds: string[];
}

/** A response as it was sent, kept to be replayed for a retried request with the same Idempotency-Key. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyClaim {
  apiKeyId: string;
  key: string;
  requestHash: string;
  now: Instant;
  expiresAt: Instant;
  /** An in-flight claim made before this is taken to belong to a request that died with its process. */
  staleBefore: Instant;
}

export type IdempotencyOutcome =
  { kind: 'started' } | { kind: 'replay'; response: StoredResponse } | { kind: 'mismatch' } | { kind: 'in-flight' };

export interface Store extends StoreReads {
  /**
   * A value that is the same on two calls only if nothing was committed to the database in
   * between, by this process or any other, counted from the first call of an event-loop turn;
   * null when the engine cannot tell without a query (PostgreSQL). Lets a process reuse what it
   * read while the database is unchanged.
   */
  databaseVersion(): string | null;

  /** Runs `work` in one write transaction: all of its writes land, or none do. */
  transaction<T>(work: (tx: StoreWrites) => Promise<T>): Promise<T>;

  /** Claims due deliveries of active webhooks, oldest due first, in one short transaction. */
  claimDueDeliveries(request: ClaimRequest): Promise<DeliveryJob[]>;
  /** Logs the attempt and moves the delivery on; does nothing if the delivery was deleted meanwhile. */
  recordAttempt(deliveryId: string, attempt: DeliveryAttempt, outcome: DeliveryOutcome, now: Instant): Promise<void>;
  /** Gives claimed deliveries back (on shutdown) so the next worker need not wait for the lease. */
  releaseDeliveries(deliveryIds: string[]): Promise<void>;
  /** Pending deliveries, due or not: the outbox queue depth. */
  countPendingDeliveries(): Promise<number>;

  /**
   * Starts a request under an Idempotency-Key, or says why not: a stored response to replay, a
   * different request under the same key, or the same key still in flight. Expired keys (and
   * in-flight claims older than `staleBefore`) are taken over.
   */
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyOutcome>;
  completeIdempotencyKey(apiKeyId: string, key: string, response: StoredResponse): Promise<void>;
  /** Forgets a claim whose request failed on our side (5xx), so the client can retry it. */
  releaseIdempotencyKey(apiKeyId: string, key: string): Promise<void>;

  /** Counts one request of the key in the window starting at `windowStart`; returns the window's count. */
  countRequest(apiKeyId: string, windowStart: Instant): Promise<number>;

  /** Migrations not yet applied (empty when the schema is current). */
  pendingMigrations(): Promise<string[]>;

  close(): Promise<void>;
}

/** Thrown by a store when a unique constraint rejects a write (e.g. a slug raced in). */
export class UniqueViolation extends Error {
  constructor(readonly constraint: string) {
    super(`unique constraint ${constraint} violated`);
    this.name = 'UniqueViolation';
  }
}
