import type { OutboxEvent, OutboxWrites } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
import { Table } from './table.js';

// A holder's event: its account is the holder's, read in the insert.
const insertHolderEvent = compiledOnce<Omit<Database['webhook_events'], 'account_id'> & { holder_id: string }>()(
  (db, param) =>
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
    const fields = { id: event.id, type: event.type, payload: event.payload, created_at: event.createdAt };
    if (event.holderId !== null) {
      this.scope.writes(event.holderId);
      await insertHolderEvent(this.db, this.engine, { ...fields, holder_id: event.holderId });
    } else {
      this.scope.writes(event.accountId);
      await this.db
        .insertInto('webhook_events')
        .values({ ...fields, account_id: event.accountId, holder_id: null })
        .execute();
    }
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
