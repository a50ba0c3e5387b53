import type { Instant } from '../../domain/instant.js';
import type { PageRequest } from '../../domain/page.js';
import type { DeliveredEventType, Delivery, DeliveryStatus } from '../../domain/webhook.js';
import type { DeliveryWrites } from '../../app/ports/store.js';
import { nullableNumber } from './rows.js';
import { keysetPage } from './keyset.js';
import { Table } from './table.js';

export class KyselyDeliveries extends Table implements DeliveryWrites {
  async restart(deliveryId: string, now: Instant): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', retry_step: 0, next_attempt_at: now, claimed_until: null, updated_at: now })
      .where('id', '=', deliveryId)
      .execute();
  }

  async list(webhookId: string, page: PageRequest): Promise<Delivery[]> {
    const query = this.deliveries().where('webhook_deliveries.webhook_id', '=', webhookId);
    const rows = await keysetPage(
      query,
      { key: 'webhook_deliveries.created_at', id: 'webhook_deliveries.id' },
      page,
      'desc',
    ).execute();
    return this.withAttempts(rows);
  }

  async get(webhookId: string, deliveryId: string): Promise<Delivery | undefined> {
    const rows = await this.deliveries()
      .where('webhook_deliveries.webhook_id', '=', webhookId)
      .where('webhook_deliveries.id', '=', deliveryId)
      .execute();
    return (await this.withAttempts(rows))[0];
  }

  private deliveries() {
    return this.db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.event_id',
        'webhook_events.type',
        'webhook_deliveries.webhook_id',
        'webhook_deliveries.status',
        'webhook_deliveries.attempts',
        'webhook_deliveries.next_attempt_at',
        'webhook_deliveries.created_at',
        'webhook_deliveries.updated_at',
      ]);
  }

  private async withAttempts(
    rows: Array<{
      id: string;
      event_id: string;
      type: string;
      webhook_id: string;
      status: string;
      attempts: number;
      next_attempt_at: number | null;
      created_at: number;
      updated_at: number;
    }>,
  ): Promise<Delivery[]> {
    if (rows.length === 0) return [];
    const attempts = await this.db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('attempt')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      eventType: r.type as DeliveredEventType,
      webhookId: r.webhook_id,
      status: r.status as DeliveryStatus,
      attempts: r.attempts,
      nextAttemptAt: r.status === 'pending' ? nullableNumber(r.next_attempt_at) : null,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
      attemptLog: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({
          attempt: a.attempt,
          startedAt: Number(a.started_at),
          durationMs: a.duration_ms,
          statusCode: a.status_code,
          error: a.error,
          responseExcerpt: a.response_excerpt,
        })),
    }));
  }
}
