import type { Availability } from '../domain/availability.js';
import type { Booking } from '../domain/booking.js';
import type { EventType } from '../domain/event-type.js';
import type { Instant } from '../domain/instant.js';
import type { Occupancy } from '../domain/slots.js';

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

export const WEBHOOK_EVENT_TYPES = ['booking.created', 'booking.cancelled', 'booking.rescheduled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

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

/** One event written to the outbox; the store fans it out to the holder's subscribed active webhooks. */
export interface OutboxEvent {
  id: string;
  holderId: string;
  type: WebhookEventType;
  /** The full delivery body, `{ type, timestamp, data }`, serialised once at the time of the change. */
  payload: string;
  createdAt: Instant;
}

export interface PendingDelivery {
  id: string;
  eventId: string;
  webhookId: string;
  eventType: WebhookEventType;
  status: 'pending' | 'succeeded' | 'failed';
  createdAt: Instant;
}

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
  findApiKeyByDigest(digest: string): Promise<ApiKey | undefined>;
  listApiKeys(): Promise<ApiKey[]>;
  countApiKeys(): Promise<number>;
  findHolderByName(name: string): Promise<Holder | undefined>;
  getHolder(id: string): Promise<Holder | undefined>;

  /** Deleted event types are not found. */
  getEventType(holderId: string, id: string): Promise<EventType | undefined>;
  listEventTypes(holderId: string, page: PageRequest): Promise<EventType[]>;
  /** Slugs of live event types equal to `base` or of the form `base-N`. */
  slugsLike(holderId: string, base: string): Promise<Set<string>>;

  getAvailability(holderId: string): Promise<StoredAvailability | undefined>;

  getBooking(holderId: string, id: string): Promise<Booking | undefined>;
  /** Confirmed bookings starting in [from, to), by start then id. */
  listConfirmedBookings(holderId: string, query: BookingQuery): Promise<Booking[]>;
  /** Confirmed bookings of the holder whose occupancy (buffers included) overlaps [from, to). */
  occupanciesOverlapping(holderId: string, from: Instant, to: Instant, excludeBookingId?: string): Promise<Occupancy[]>;

  getWebhook(holderId: string, id: string): Promise<Webhook | undefined>;
  listWebhooks(holderId: string, page: PageRequest): Promise<Webhook[]>;
  listDeliveries(eventId: string): Promise<PendingDelivery[]>;
}

export interface StoreWrites extends StoreReads {
  /**
   * Serialises writers of one holder's calendar until the transaction ends. SQLite write
   * transactions are exclusive already; PostgreSQL locks the holder row.
   */
  lockCalendar(holderId: string): Promise<void>;

  insertHolder(holder: Holder): Promise<void>;
  insertApiKey(key: ApiKey, digest: string): Promise<void>;
  /** False when no such key exists or it was revoked already. */
  revokeApiKey(id: string, at: Instant): Promise<boolean>;

  insertEventType(eventType: EventType): Promise<void>;
  updateEventType(eventType: EventType): Promise<void>;
  deleteEventType(holderId: string, id: string, at: Instant): Promise<boolean>;

  putAvailability(holderId: string, availability: Availability, at: Instant): Promise<void>;

  insertBooking(booking: Booking): Promise<void>;
  updateBooking(booking: Booking): Promise<void>;

  insertWebhook(webhook: Webhook): Promise<void>;
  deleteWebhook(holderId: string, id: string): Promise<boolean>;

  /** Records the event and one pending delivery per active webhook of the holder subscribed to its type. */
  enqueueEvent(event: OutboxEvent): Promise<void>;
}

export interface Store extends StoreReads {
  /** Runs `work` in one write transaction: all of its writes land, or none do. */
  transaction<T>(work: (tx: StoreWrites) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Thrown by a store when a unique constraint rejects a write (e.g. a slug raced in). */
export class UniqueViolation extends Error {
  constructor(readonly constraint: string) {
    super(`unique constraint ${constraint} violated`);
    this.name = 'UniqueViolation';
  }
}
