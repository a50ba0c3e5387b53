import { sql, type RawBuilder } from 'kysely';
import type { PageRequest } from '../../domain/page.js';
import { subscribedTo, type Webhook, type WebhookEventType } from '../../domain/webhook.js';
import type { WebhookReach, WebhookWrites } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { toWebhook } from './rows.js';
import { keysetPage } from './keyset.js';
import { Table } from './table.js';

/**
 * The active webhooks that hear a holder's events: its own, and its account's (read through the
 * partial index of account webhooks, migration 0012, never every webhook of the account's holders).
 */
const activeWebhooksOf = compiledOnce<{ holderId: string }>()((db, param) =>
  db
    .selectFrom('webhooks')
    .select(['id', 'events', 'created_at'])
    .where('holder_id', '=', param('holderId'))
    .where('active', '=', sql.lit(1))
    .unionAll(
      db
        .selectFrom('webhooks')
        .select(['id', 'events', 'created_at'])
        .where('holder_id', 'is', null)
        .where('account_id', '=', (eb) =>
          eb.selectFrom('holders').select('account_id').where('id', '=', param('holderId')),
        )
        .where('active', '=', sql.lit(1)),
    )
    .orderBy('created_at')
    .orderBy('id'),
);

/**
 * The rows `activeWebhooks` aggregates, as a derived table `w`: the holder's active webhooks and
 * its account's, each found by its own index (the account's through the partial index of
 * account webhooks, migration 0012, never every webhook of the account's holders).
 */
export function activeWebhooksFrom(holderIdColumn: string, accountIdColumn: string): RawBuilder<unknown> {
  return sql`(select id, events, created_at from webhooks where holder_id = ${sql.ref(holderIdColumn)} and active = 1
      union all
      select id, events, created_at from webhooks
      where holder_id is null and account_id = ${sql.ref(accountIdColumn)} and active = 1) as w`;
}

export class KyselyWebhooks extends Table implements WebhookWrites {
  async get(reach: WebhookReach, id: string): Promise<Webhook | undefined> {
    const row = await this.reached(reach).where('id', '=', id).executeTakeFirst();
    return row && toWebhook(row);
  }

  async list(reach: WebhookReach, page: PageRequest): Promise<Webhook[]> {
    const rows = await keysetPage(this.reached(reach), { key: 'created_at', id: 'id' }, page).execute();
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

  async countOfAccountLocked(accountId: string): Promise<number> {
    await this.engine.lockingRows(this.db.selectFrom('accounts').select('id').where('id', '=', accountId)).execute();
    const row = await this.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('holder_id', 'is', null)
      .where('account_id', '=', accountId)
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

  async delete(reach: WebhookReach, id: string): Promise<boolean> {
    const webhook = await this.get(reach, id);
    if (!webhook) return false;
    this.scope.writes(webhook.holderId ?? webhook.accountId);
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

  async subscribedIdsOfTeam(accountId: string, hostIds: readonly string[], type: WebhookEventType): Promise<string[]> {
    // Each half by its own index: the account's webhooks (`webhooks_of_account`), the hosts' own.
    const rows = await this.db
      .selectFrom('webhooks')
      .select(['id', 'events', 'created_at'])
      .where('holder_id', 'is', null)
      .where('account_id', '=', accountId)
      .where('active', '=', sql.lit(1))
      .unionAll(
        this.db
          .selectFrom('webhooks')
          .select(['id', 'events', 'created_at'])
          .where('holder_id', 'in', [...new Set(hostIds)])
          .where('active', '=', sql.lit(1)),
      )
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return subscribedTo(
      rows.map((w) => ({ id: w.id, events: JSON.parse(w.events) as string[] })),
      type,
    );
  }

  /** The webhooks `reach` reaches: always within its account, and only the holder's when it names one. */
  private reached(reach: WebhookReach) {
    const ofAccount = this.db.selectFrom('webhooks').selectAll().where('account_id', '=', reach.accountId);
    return reach.holderId === undefined ? ofAccount : ofAccount.where('holder_id', '=', reach.holderId);
  }
}
