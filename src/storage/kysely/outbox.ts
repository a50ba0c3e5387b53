import type { OutboxEvent, OutboxWrites } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
import { Table } from './table.js';

// The event's account is its holder's, read in the insert.
const insertEventRow = compiledOnce<Omit<Database['webhook_events'], 'account_id'>>()((db, param) =>
  db.insertInto('webhook_events').values((eb) => ({
    id: param('id'),
    account_id: eb.selectFrom('holders').select('account_id').where('id', '=', param('holder_id')),
    holder_id: param('holder_id'),
    type: param('type'),
    payload: param('payload'),
    created_at: param('created_at'),
  })),
);
export class KyselyOutbox extends Table implements OutboxWrites {
  async enqueue(event: OutboxEvent, deliveries: Array<{ id: string; webhookId: string }>): Promise<void> {
    this.scope.writes(event.holderId);
    await insertEventRow(this.db, this.engine, {
      id: event.id,
      holder_id: event.holderId,
      type: event.type,
      payload: event.payload,
      created_at: event.createdAt,
    });
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
