import { formatUtc, type Instant } from '../domain/instant.js';
import type { DeliveredEventType, StoreWrites, WebhookEventType } from '../storage/store.js';
import type { AppContext } from './context.js';
import { newId } from './ids.js';

/**
 * Writes an event and its deliveries in the caller's transaction: it is delivered exactly when
 * the change commits. By default it goes to the holder's active webhooks subscribed to its type;
 * a webhook registered later does not get events of earlier changes.
 */
export async function enqueueEvent(
  tx: StoreWrites,
  event: { holderId: string; type: DeliveredEventType; data: Record<string, unknown>; now: Instant },
  webhookIds?: string[],
): Promise<{ eventId: string; deliveryIds: string[] }> {
  const targets = webhookIds ?? (await tx.subscribedWebhookIds(event.holderId, event.type as WebhookEventType));
  const eventId = newId('msg');
  // An event is kept for its deliveries only: with no webhook to send it to, there is nothing to write.
  if (targets.length === 0) return { eventId, deliveryIds: [] };
  withDeliveries.add(tx);
  const deliveries = targets.map((webhookId) => ({ id: newId('dlv'), webhookId }));
  await tx.enqueueEvent(
    {
      id: eventId,
      holderId: event.holderId,
      type: event.type,
      payload: JSON.stringify({ type: event.type, timestamp: formatUtc(event.now), data: event.data }),
      createdAt: event.now,
    },
    deliveries,
  );
  return { eventId, deliveryIds: deliveries.map((d) => d.id) };
}

/** Transactions that enqueued at least one delivery. */
const withDeliveries = new WeakSet<StoreWrites>();

/**
 * Runs a write use case and, after its commit, wakes the delivery worker if it enqueued
 * deliveries (a wake costs the worker a claim query: not for every booking of a holder without
 * webhooks).
 */
export async function committingEvents<T>(context: AppContext, work: (tx: StoreWrites) => Promise<T>): Promise<T> {
  let enqueued = false;
  const result = await context.store.transaction(async (tx) => {
    const value = await work(tx);
    enqueued = withDeliveries.has(tx);
    return value;
  });
  if (enqueued) context.outboxChanged?.();
  return result;
}
