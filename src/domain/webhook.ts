import type { Instant } from './instant.js';

/** The events a webhook can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.cancelled',
  'booking.rescheduled',
  'booking.reminder',
  'calendar_source.failed',
  'calendar_source.recovered',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Every event type that is ever delivered: the subscribable ones and the on-demand test event. */
export type DeliveredEventType = WebhookEventType | 'webhook.test';

/** What an event's addressing needs of an active webhook. */
export interface Subscription {
  id: string;
  events: readonly string[];
}

/** The ids of the webhooks subscribed to `type`, in the order given. */
export function subscribedTo(subscriptions: readonly Subscription[], type: WebhookEventType): string[] {
  return subscriptions.filter((s) => s.events.includes(type)).map((s) => s.id);
}

export interface Webhook {
  id: string;
  accountId: string;
  /** Null for an account webhook (contract §12), which hears every event of the account. */
  holderId: string | null;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  active: boolean;
  secret: string;
  createdAt: Instant;
  updatedAt: Instant;
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
