import { randomBytes } from 'node:crypto';
import { DomainError, invalidRequest, notFound } from '../domain/errors.js';
import type { PageRequest } from '../domain/page.js';
import { WEBHOOK_EVENT_TYPES, type Delivery, type Webhook, type WebhookEventType } from '../domain/webhook.js';
import { listScopeOf } from './account-scope.js';
import type { AppContext, Principal } from './context.js';
import type { WebhookReach } from './ports/store.js';
import { transactionWithEvents } from './outbox.js';
import { pageOf, type Page } from './paging.js';
import { assertPublicAddress } from './public-address.js';

export interface WebhookFields {
  url?: string;
  events?: WebhookEventType[];
  description?: string | null;
  active?: boolean;
}

export type CreateWebhookInput = WebhookFields & { url: string };

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * An absolute http(s) URL without credentials (a secret in a URL ends up in logs) whose host is
 * not, and does not resolve to, a loopback, private, link-local or otherwise non-public address.
 * A name that does not resolve now is accepted: delivery checks the address it really connects to.
 */
async function checkTargetUrl(context: AppContext, url: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidRequest([{ field: 'url', message: 'must be an absolute http or https URL' }]);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidRequest([{ field: 'url', message: 'must use http or https' }]);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw invalidRequest([
      { field: 'url', message: 'must not contain credentials; verify deliveries by their signature' },
    ]);
  }
  await assertPublicAddress(parsed.href, context.webhooks.allowPrivateTargets, 'url');
  return parsed.href;
}

/** Subscribed events in their canonical order. */
function canonicalEvents(events: WebhookEventType[]): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
}

/**
 * Whose webhooks a request reaches (contract §12): acting for a holder, only that holder's; in
 * account scope, every webhook of the account, its own and all its holders'.
 */
function reachOf(principal: Principal): WebhookReach {
  return principal.actingFor === null
    ? { accountId: principal.accountId }
    : { accountId: principal.accountId, holderId: principal.actingFor.id };
}

/**
 * Registers a webhook of whom the request acts for: the holder's (it hears that holder's events),
 * or in account scope the account's own (it hears every event of the account).
 */
export async function createWebhook(
  context: AppContext,
  principal: Principal,
  input: CreateWebhookInput,
): Promise<Webhook> {
  const url = await checkTargetUrl(context, input.url);
  const now = context.now();
  const holderId = principal.actingFor?.id ?? null;
  const webhook: Webhook = {
    id: context.ids.newId('whk'),
    accountId: principal.accountId,
    holderId,
    url,
    events: input.events ? canonicalEvents(input.events) : [...WEBHOOK_EVENT_TYPES],
    description: input.description ?? null,
    active: input.active ?? true,
    secret: newSecret(),
    createdAt: now,
    updatedAt: now,
  };
  await context.store.transaction(async (tx) => {
    if (holderId === null) {
      // Holding the account's lock (in the count), so two creations at once cannot both take the last place.
      const limit = context.webhooks.limitPerAccount;
      if ((await tx.webhooks.countOfAccountLocked(principal.accountId)) >= limit)
        throw limitReached(`This account has ${limit} account webhooks, the most it may have`);
    } else {
      // Holding the holder's calendar lock, likewise.
      await tx.lockCalendar(holderId);
      const limit = context.webhooks.limitPerHolder;
      if ((await tx.webhooks.count(holderId)) >= limit)
        throw limitReached(`This holder has ${limit} webhooks, the most it may have`);
    }
    await tx.webhooks.insert(webhook);
  });
  return webhook;
}

function limitReached(reached: string): DomainError {
  return new DomainError('limit-reached', `${reached}; delete one to register another.`);
}

export async function getWebhook(context: AppContext, principal: Principal, id: string): Promise<Webhook> {
  const webhook = await context.store.webhooks.get(reachOf(principal), id);
  if (!webhook) throw notFound(`Webhook ${id}`);
  return webhook;
}

/** Whether the request still reaches webhook `id`: a replayed registration shows its secret only while it does. */
export async function webhookExists(context: AppContext, principal: Principal, id: string): Promise<boolean> {
  return (await context.store.webhooks.get(reachOf(principal), id)) !== undefined;
}

/**
 * The webhooks the request reaches, oldest first; `holderId` narrows them to that holder's own
 * (in account scope: not the account webhooks, which hear that holder too). A holder the request
 * cannot see is a 400 on `holderId`, as in the other lists (`listScopeOf`).
 */
export async function listWebhooks(
  context: AppContext,
  principal: Principal,
  holderId: string | undefined,
  page: PageRequest,
): Promise<Page<Webhook>> {
  const scope = await listScopeOf(context, principal, holderId);
  const { accountId, holderId: only } =
    'caller' in scope ? { accountId: scope.caller.accountId, holderId: scope.caller.holderId } : scope.account;
  const reach: WebhookReach = only === null ? { accountId } : { accountId, holderId: only };
  return pageOf(
    page.limit,
    (limit) => context.store.webhooks.list(reach, { limit, after: page.after }),
    (webhook) => webhook.createdAt,
  );
}

/** Changes only the fields sent; re-activating a webhook resumes its pending deliveries. */
export async function updateWebhook(
  context: AppContext,
  principal: Principal,
  id: string,
  changes: WebhookFields,
): Promise<Webhook> {
  const url = changes.url === undefined ? undefined : await checkTargetUrl(context, changes.url);
  const updated = await context.store.transaction(async (tx) => {
    const current = await tx.webhooks.get(reachOf(principal), id);
    if (!current) throw notFound(`Webhook ${id}`);
    const webhook: Webhook = {
      ...current,
      url: url ?? current.url,
      events: changes.events ? canonicalEvents(changes.events) : current.events,
      description: changes.description === undefined ? current.description : changes.description,
      active: changes.active ?? current.active,
      updatedAt: context.now(),
    };
    await tx.webhooks.update(webhook);
    return webhook;
  });
  context.outboxChanged?.();
  return updated;
}

export async function deleteWebhook(context: AppContext, principal: Principal, id: string): Promise<void> {
  const deleted = await context.store.transaction((tx) => tx.webhooks.delete(reachOf(principal), id));
  if (!deleted) throw notFound(`Webhook ${id}`);
}

/** Sends a `webhook.test` event to this webhook only, whatever it subscribes to. */
export async function sendTestEvent(context: AppContext, principal: Principal, id: string): Promise<Delivery> {
  const { webhookId, deliveryId } = await transactionWithEvents(context, async (tx, events) => {
    const webhook = await tx.webhooks.get(reachOf(principal), id);
    if (!webhook) throw notFound(`Webhook ${id}`);
    if (!webhook.active)
      throw new DomainError('invalid-state', 'The webhook is not active; activate it to send a test event.');
    const { deliveryIds } = await events.toWebhook(webhook, {
      type: 'webhook.test',
      data: { webhook: { id: webhook.id, url: webhook.url } },
      now: context.now(),
    });
    return { webhookId: webhook.id, deliveryId: deliveryIds[0]! };
  });
  return (await context.store.deliveries.get(webhookId, deliveryId))!;
}

export async function listDeliveries(
  context: AppContext,
  principal: Principal,
  id: string,
  page: PageRequest,
): Promise<Page<Delivery>> {
  const webhook = await getWebhook(context, principal, id);
  return pageOf(
    page.limit,
    (limit) => context.store.deliveries.list(webhook.id, { limit, after: page.after }),
    (delivery) => delivery.createdAt,
  );
}

/** Sends a finished delivery again now, with a fresh retry schedule. */
export async function retryDelivery(
  context: AppContext,
  principal: Principal,
  id: string,
  deliveryId: string,
): Promise<Delivery> {
  await context.store.transaction(async (tx) => {
    const webhook = await tx.webhooks.get(reachOf(principal), id);
    if (!webhook) throw notFound(`Webhook ${id}`);
    const delivery = await tx.deliveries.get(webhook.id, deliveryId);
    if (!delivery) throw notFound(`Delivery ${deliveryId}`);
    if (delivery.status === 'pending') {
      throw new DomainError('invalid-state', 'The delivery is still pending; it will be attempted at nextAttemptAt.');
    }
    if (!webhook.active)
      throw new DomainError('invalid-state', 'The webhook is not active; activate it to retry deliveries.');
    await tx.deliveries.restart(delivery.id, context.now());
  });
  // Due now: the worker of this process sends it at once rather than at its next poll.
  context.outboxChanged?.();
  return (await context.store.deliveries.get(id, deliveryId))!;
}
