import { formatUtc, type Instant } from '../domain/instant.js';
import type { DeliveredEventType, WebhookEventType } from '../domain/webhook.js';
import type { AppContext } from './context.js';
import type { GuestLinks } from './guest-links.js';
import { bookingLinks } from './views.js';
import type { IdGenerator } from './ids.js';
import type { Transaction, TransactionScope } from './ports/store.js';

/**
 * The events of one transaction, written with it: an event is delivered exactly when the change
 * commits. By default it goes to the holder's active webhooks subscribed to its type; a webhook
 * registered later does not get events of earlier changes.
 */
export class TransactionEvents {
  /** Deliveries written so far: with none, the delivery worker has nothing new to do. */
  deliveriesWritten = 0;

  constructor(
    private readonly tx: Transaction,
    private readonly ids: IdGenerator,
  ) {}

  async add(
    event: { holderId: string; type: DeliveredEventType; data: Record<string, unknown>; now: Instant },
    webhookIds?: string[],
  ): Promise<{ eventId: string; deliveryIds: string[] }> {
    const targets =
      webhookIds ?? (await this.tx.webhooks.subscribedIds(event.holderId, event.type as WebhookEventType));
    const eventId = this.ids.newId('msg');
    // An event is kept for its deliveries only: with no webhook to send it to, there is nothing to write.
    if (targets.length === 0) return { eventId, deliveryIds: [] };
    const deliveries = targets.map((webhookId) => ({ id: this.ids.newId('dlv'), webhookId }));
    await this.tx.outbox.enqueue(
      {
        id: eventId,
        holderId: event.holderId,
        type: event.type,
        payload: JSON.stringify({ type: event.type, timestamp: formatUtc(event.now), data: event.data }),
        createdAt: event.now,
      },
      deliveries,
    );
    this.deliveriesWritten += deliveries.length;
    return { eventId, deliveryIds: deliveries.map((d) => d.id) };
  }
}

/**
 * Runs a write use case in one transaction, with the events it adds written in the same
 * transaction; after the commit, wakes the delivery worker if any delivery was written (a wake
 * costs the worker a claim query: not for every booking of a holder without webhooks).
 */
export async function transactionWithEvents<T>(
  context: AppContext,
  work: (tx: Transaction, events: TransactionEvents) => Promise<T>,
  scope?: TransactionScope,
): Promise<T> {
  const { value, deliveriesWritten } = await context.store.transaction(async (tx) => {
    const events = new TransactionEvents(tx, context.ids);
    return { value: await work(tx, events), deliveriesWritten: events.deliveriesWritten };
  }, scope);
  if (deliveriesWritten > 0) context.outboxChanged?.();
  return value;
}

/**
 * An event's body as sent: the booking events' bookings get the guest's links (contract §10:
 * made when sent, from SLOTWISE_SECRET, never stored with the event). The same links on every
 * attempt while the secret's newest key is the same.
 */
export function payloadAsSent(payload: string, links: GuestLinks): string {
  if (!payload.includes('"booking"')) return payload;
  const event = JSON.parse(payload) as { data?: Record<string, unknown> };
  const data = event.data;
  if (!data) return payload;
  for (const field of ['booking', 'previousBooking']) {
    const booking = data[field] as { id?: unknown } | undefined;
    if (booking && typeof booking.id === 'string') data[field] = { ...booking, ...bookingLinks(booking.id, links) };
  }
  return JSON.stringify(event);
}
