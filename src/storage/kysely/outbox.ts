import type { OutboxEvent, OutboxWrites } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { Table } from './table.js';

const insertEventRow = compiledOnce((db, id, holderId, type, payload, createdAt) =>
  db.insertInto('webhook_events').values({
    id: id!,
    holder_id: holderId!,
    type: type!,
    payload: payload!,
    created_at: createdAt as unknown as number,
  }),
);
export class KyselyOutbox extends Table implements OutboxWrites {
  async enqueue(event: OutboxEvent, deliveries: Array<{ id: string; webhookId: string }>): Promise<void> {
    await insertEventRow(
      this.db,
      this.engine.name,
      event.id,
      event.holderId,
      event.type,
      event.payload,
      event.createdAt,
    );
    if (deliveries.length === 0) return;
    await this.db
      .insertInto('webhook_deliveries')
      .values(
        deliveries.map((d) => ({
          id: d.id,
          event_id: event.id,
          webhook_id: d.webhookId,
          status: 'pending',
          attempts: 0,
          retry_step: 0,
          next_attempt_at: event.createdAt,
          claimed_until: null,
          created_at: event.createdAt,
          updated_at: event.createdAt,
        })),
      )
      .execute();
  }
}
