import { formatUtc, type Instant } from '../domain/instant.js';
import type { DeliveredEventType, Webhook, WebhookEventType } from '../domain/webhook.js';
import type { AppContext } from './context.js';
import type { GuestLinks } from './guest-links.js';
import { bookingLinks } from './views.js';
import type { IdGenerator } from './ids.js';
import type { EventOwner, Transaction, TransactionScope } from './ports/store.js';

/**
 * The events of one transaction, written with it: an event is delivered exactly when the change
 * commits. A holder's event goes by default to the active webhooks subscribed to its type that
 * hear the holder: its own and its account's (contract §12); a webhook registered later does not
 * get events of earlier changes.
 */
export class TransactionEvents {
  /** Deliveries written so far: with none, the delivery worker has nothing new to do. */
  deliveriesWritten = 0;
  /** E-mails (and booking changes to write e-mails of) written so far, due now or later: with none, the e-mail worker has nothing new to do. */
  emailsWritten = 0;
  /** Writes to hosts' own calendars written so far (`queueCalendarWrites`): with none, the calendar writer has nothing new to do. */
  calendarWritesWritten = 0;

  constructor(
    private readonly tx: Transaction,
    private readonly ids: IdGenerator,
  ) {}

  /** A holder's event, to `webhookIds` (read with the change already) or else to those subscribed. */
  async add(
    event: { holderId: string } & EventContent,
    webhookIds?: string[],
  ): Promise<{ eventId: string; deliveryIds: string[] }> {
    const targets =
      webhookIds ?? (await this.tx.webhooks.subscribedIds(event.holderId, event.type as WebhookEventType));
    return this.write({ holderId: event.holderId }, event, targets);
  }

  /** An event of the account itself (a team booking's, contract §14) to `webhookIds`, read with the change. */
  addOfAccount(
    event: { accountId: string } & EventContent,
    webhookIds: string[],
  ): Promise<{ eventId: string; deliveryIds: string[] }> {
    return this.write({ holderId: null, accountId: event.accountId }, event, webhookIds);
  }

  /** An event to one webhook alone, whatever it subscribes to (a test event), as its owner's: holder or account. */
  toWebhook(webhook: Webhook, event: EventContent): Promise<{ eventId: string; deliveryIds: string[] }> {
    const owner: EventOwner =
      webhook.holderId === null ? { holderId: null, accountId: webhook.accountId } : { holderId: webhook.holderId };
    return this.write(owner, event, [webhook.id]);
  }

  private async write(
    owner: EventOwner,
    event: EventContent,
    targets: string[],
  ): Promise<{ eventId: string; deliveryIds: string[] }> {
    const eventId = this.ids.newId('msg');
    // An event is kept for its deliveries only: with no webhook to send it to, there is nothing to write.
    if (targets.length === 0) return { eventId, deliveryIds: [] };
    const deliveries = targets.map((webhookId) => ({ id: this.ids.newId('dlv'), webhookId }));
    await this.tx.outbox.enqueue(
      {
        ...owner,
        id: eventId,
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

/** What an event says, whoever's it is. */
interface EventContent {
  type: DeliveredEventType;
  data: Record<string, unknown>;
  now: Instant;
}

/**
 * Runs a write use case in one transaction, with the events it adds written in the same
 * transaction; after the commit, wakes the delivery worker if any delivery was written (a wake
 * costs the worker a claim query: not for every booking of a holder without webhooks), and the
 * e-mail worker if any e-mail was.
 */
export async function transactionWithEvents<T>(
  context: AppContext,
  work: (tx: Transaction, events: TransactionEvents) => Promise<T>,
  scope?: TransactionScope,
): Promise<T> {
  const { value, deliveriesWritten, emailsWritten, calendarWritesWritten } = await context.store.transaction(
    async (tx) => {
      const events = new TransactionEvents(tx, context.ids);
      const value = await work(tx, events);
      return {
        value,
        deliveriesWritten: events.deliveriesWritten,
        emailsWritten: events.emailsWritten,
        calendarWritesWritten: events.calendarWritesWritten,
      };
    },
    scope,
  );
  if (deliveriesWritten > 0) context.outboxChanged?.();
  if (emailsWritten > 0) context.emailsQueued?.();
  if (calendarWritesWritten > 0) context.calendarWritesQueued?.();
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
