import { sql } from 'kysely';
import type { PageRequest } from '../../domain/page.js';
import { subscribedTo, type Webhook, type WebhookEventType } from '../../domain/webhook.js';
import type { WebhookWrites } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { toWebhook } from './rows.js';
import { keysetPage } from './keyset.js';
import { Table } from './table.js';

const activeWebhooksOf = compiledOnce<{ holderId: string }>()((db, param) =>
  db
    .selectFrom('webhooks')
    .select(['id', 'events'])
    .where('holder_id', '=', param('holderId'))
    .where('active', '=', sql.lit(1))
    .orderBy('created_at')
    .orderBy('id'),
);

export class KyselyWebhooks extends Table implements WebhookWrites {
  async get(holderId: string, id: string): Promise<Webhook | undefined> {
    const row = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toWebhook(row);
  }

  async list(holderId: string, page: PageRequest): Promise<Webhook[]> {
    const query = this.db.selectFrom('webhooks').selectAll().where('holder_id', '=', holderId);
    const rows = await keysetPage(query, { key: 'created_at', id: 'id' }, page).execute();
    return rows.map(toWebhook);
  }

  async count(holderId: string): Promise<number> {
    const row = await this.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('holder_id', '=', holderId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(webhook: Webhook): Promise<void> {
    this.scope.writes(webhook.holderId ?? webhook.accountId);
    await this.db
      .insertInto('webhooks')
      .values({
        id: webhook.id,
        account_id: webhook.accountId,
        holder_id: webhook.holderId,
        url: webhook.url,
        events: JSON.stringify(webhook.events),
        description: webhook.description,
        active: webhook.active ? 1 : 0,
        secret: webhook.secret,
        created_at: webhook.createdAt,
        updated_at: webhook.updatedAt,
      })
      .execute();
  }

  async update(webhook: Webhook): Promise<void> {
    this.scope.writes(webhook.holderId ?? webhook.accountId);
    await this.db
      .updateTable('webhooks')
      .set({
        url: webhook.url,
        events: JSON.stringify(webhook.events),
        description: webhook.description,
        active: webhook.active ? 1 : 0,
        updated_at: webhook.updatedAt,
      })
      .where('account_id', '=', webhook.accountId)
      .where('id', '=', webhook.id)
      .execute();
  }

  async delete(holderId: string, id: string): Promise<boolean> {
    this.scope.writes(holderId);
    const webhook = await this.get(holderId, id);
    if (!webhook) return false;
    const deliveries = this.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id);
    // An attempt being recorded meanwhile holds its delivery: wait for it, so its attempt row is
    // deleted below instead of making the delivery's deletion violate the foreign key.
    await this.engine.lockingRows(deliveries).execute();
    await this.db.deleteFrom('webhook_delivery_attempts').where('delivery_id', 'in', deliveries).execute();
    await this.db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
    await this.db.deleteFrom('webhooks').where('id', '=', id).execute();
    return true;
  }

  async deleteAllOf(holderId: string): Promise<void> {
    this.scope.writes(holderId);
    const webhooks = this.db.selectFrom('webhooks').select('id').where('holder_id', '=', holderId);
    const deliveries = this.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', 'in', webhooks);
    // As `delete` does: an attempt being recorded meanwhile is waited for, then deleted with its delivery.
    await this.engine.lockingRows(deliveries).execute();
    await this.db.deleteFrom('webhook_delivery_attempts').where('delivery_id', 'in', deliveries).execute();
    await this.db.deleteFrom('webhook_deliveries').where('webhook_id', 'in', webhooks).execute();
    await this.db.deleteFrom('webhooks').where('holder_id', '=', holderId).execute();
  }

  async subscribedIds(holderId: string, type: WebhookEventType): Promise<string[]> {
    const rows = await activeWebhooksOf(this.db, this.engine, { holderId });
    return subscribedTo(
      rows.map((w) => ({ id: w.id, events: JSON.parse(w.events) as string[] })),
      type,
    );
  }
}
