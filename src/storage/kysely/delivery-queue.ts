import { sql, type Kysely } from 'kysely';
import type { DeliveryAttempt } from '../../domain/webhook.js';
import type { DeliveryDecision } from '../../domain/webhook-retry.js';
import type { Instant } from '../../domain/instant.js';
import type { ClaimRequest, DeliveryJob, DeliveryQueue } from '../../app/ports/delivery-queue.js';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';
import { Table } from './table.js';
import { NOTHING_CACHED, type TransactionRunner } from './transactions.js';

/** The delivery queue, each operation one short transaction of its own. */
export class KyselyDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: EngineTraits,
    private readonly transactions: TransactionRunner,
  ) {}

  claimDue(request: ClaimRequest): Promise<DeliveryJob[]> {
    return this.transactions.once(async (connection) => {
      const queue = new QueueRows(connection, this.engine);
      const jobs = await queue.due(request);
      await queue.lease(
        jobs.map((j) => j.deliveryId),
        request.leaseUntil,
      );
      return jobs;
    }, NOTHING_CACHED);
  }

  recordAttempt(deliveryId: string, attempt: DeliveryAttempt, decision: DeliveryDecision, now: Instant): Promise<void> {
    return this.transactions.retrying(
      (connection) => new QueueRows(connection, this.engine).applyAttempt(deliveryId, attempt, decision, now),
      NOTHING_CACHED,
    );
  }

  release(deliveryIds: string[]): Promise<void> {
    return this.transactions.once(
      (connection) => new QueueRows(connection, this.engine).lease(deliveryIds, null),
      NOTHING_CACHED,
    );
  }

  async countPending(): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** The queue's SQL inside one transaction. */
class QueueRows extends Table {
  /**
   * Due deliveries of active webhooks, ranked in SQL so that no backlog crowds out anyone else:
   * at most `perWebhook` per webhook, `perHolder` per owner (a holder, or an account's own
   * webhooks together) and `perAccount` per account, and the claim takes every account's first
   * before any account's second, an account's turns going round its owners (then oldest due
   * first). A tenant with thousands of deliveries to hanging receivers, or an account with a
   * thousand holders, then gets no more of the worker's slots than its share. With concurrent
   * writers the rows are locked, and rows another claim holds are passed over.
   */
  async due(request: ClaimRequest): Promise<DeliveryJob[]> {
    const orNothing = (ids: string[]) => sql.join(ids.length > 0 ? ids : ['-']);
    const result = await sql<{
      id: string;
      event_id: string;
      webhook_id: string;
      account_id: string;
      owner_id: string;
      url: string;
      secret: string;
      payload: string;
      attempts: number;
      retry_step: number;
    }>`
      select d.id, d.event_id, d.webhook_id, fair.account_id, fair.owner_id, w.url, w.secret, e.payload,
        d.attempts, d.retry_step
      from webhook_deliveries d
      join webhooks w on w.id = d.webhook_id
      join webhook_events e on e.id = d.event_id
      join (
        select id, account_id, owner_id,
          row_number() over (partition by account_id order by owner_position, next_attempt_at, id) as account_position
        from (
          select id, account_id, owner_id, next_attempt_at,
            row_number() over (partition by owner_id order by next_attempt_at, id) as owner_position
          from (
            select d2.id, d2.next_attempt_at, w2.account_id, coalesce(w2.holder_id, w2.account_id) as owner_id,
              row_number() over (partition by d2.webhook_id order by d2.next_attempt_at, d2.id) as webhook_position
            from webhook_deliveries d2
            join webhooks w2 on w2.id = d2.webhook_id
            where d2.status = 'pending'
              and d2.next_attempt_at <= ${request.now}
              and (d2.claimed_until is null or d2.claimed_until <= ${request.now})
              and w2.active = 1
              and d2.webhook_id not in (${orNothing(request.skipWebhookIds)})
              and coalesce(w2.holder_id, w2.account_id) not in (${orNothing(request.skipOwnerIds)})
              and w2.account_id not in (${orNothing(request.skipAccountIds)})
          ) by_webhook
          where webhook_position <= ${request.perWebhook}
        ) by_owner
        where owner_position <= ${request.perHolder}
      ) fair on fair.id = d.id
      where fair.account_position <= ${request.perAccount}
        and d.status = 'pending'
        and (d.claimed_until is null or d.claimed_until <= ${request.now})
      order by fair.account_position, d.next_attempt_at, d.id
      limit ${request.limit}
      ${this.engine.claimingRowsOf('d')}`.execute(this.db);
    return result.rows.map((r) => ({
      deliveryId: r.id,
      eventId: r.event_id,
      webhookId: r.webhook_id,
      accountId: r.account_id,
      ownerId: r.owner_id,
      url: r.url,
      secret: r.secret,
      payload: r.payload,
      attempts: Number(r.attempts),
      retryStep: Number(r.retry_step),
    }));
  }

  async lease(deliveryIds: string[], until: Instant | null): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.db
      .updateTable('webhook_deliveries')
      .set({ claimed_until: until })
      .where('id', 'in', deliveryIds)
      .execute();
  }

  async applyAttempt(
    deliveryId: string,
    attempt: DeliveryAttempt,
    outcome: DeliveryDecision,
    now: Instant,
  ): Promise<void> {
    // Locked, so a deletion running meanwhile either waits for this attempt or, first, leaves nothing to record.
    const current = await this.engine
      .lockingRows(
        this.db
          .selectFrom('webhook_deliveries')
          .select(['webhook_id', 'attempts', 'retry_step'])
          .where('id', '=', deliveryId),
      )
      .executeTakeFirst();
    if (!current) return;
    await this.db
      .insertInto('webhook_delivery_attempts')
      .values({
        delivery_id: deliveryId,
        attempt: attempt.attempt,
        started_at: attempt.startedAt,
        duration_ms: attempt.durationMs,
        status_code: attempt.statusCode,
        error: attempt.error,
        response_excerpt: attempt.responseExcerpt,
      })
      .execute();
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: outcome.status,
        attempts: current.attempts + 1,
        retry_step: outcome.status === 'succeeded' ? current.retry_step : current.retry_step + 1,
        next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
        claimed_until: null,
        updated_at: now,
      })
      .where('id', '=', deliveryId)
      .execute();
    if (outcome.status === 'failed' && outcome.disableWebhook) {
      await this.db
        .updateTable('webhooks')
        .set({ active: 0, updated_at: now })
        .where('id', '=', current.webhook_id)
        .execute();
    }
  }
}
