import { randomBytes } from 'node:crypto';
import { invalidRequest, notFound } from '../domain/errors.js';
import { WEBHOOK_EVENT_TYPES, type PageAfter, type Webhook, type WebhookEventType } from '../storage/store.js';
import type { AppContext, Caller } from './context.js';
import { newId } from './ids.js';
import { pageOf, type Page } from './paging.js';

export interface CreateWebhookInput {
  url: string;
  events?: WebhookEventType[];
  description?: string | null;
  active?: boolean;
}

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** An absolute http(s) URL without credentials (a secret in a URL ends up in logs). */
function checkTargetUrl(url: string): string {
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
    throw invalidRequest([{ field: 'url', message: 'must not contain credentials; verify deliveries by their signature' }]);
  }
  return parsed.href;
}

export async function createWebhook(context: AppContext, caller: Caller, input: CreateWebhookInput): Promise<Webhook> {
  const url = checkTargetUrl(input.url);
  const now = context.now();
  const webhook: Webhook = {
    id: newId('whk'),
    holderId: caller.holderId,
    url,
    events: input.events ? WEBHOOK_EVENT_TYPES.filter((type) => input.events!.includes(type)) : [...WEBHOOK_EVENT_TYPES],
    description: input.description ?? null,
    active: input.active ?? true,
    secret: newSecret(),
    createdAt: now,
    updatedAt: now,
  };
  await context.store.transaction((tx) => tx.insertWebhook(webhook));
  return webhook;
}

export function listWebhooks(
  context: AppContext,
  caller: Caller,
  page: { limit: number; after: PageAfter | null },
): Promise<Page<Webhook>> {
  return pageOf(
    page.limit,
    (limit) => context.store.listWebhooks(caller.holderId, { limit, after: page.after }),
    (webhook) => webhook.createdAt,
  );
}

export async function deleteWebhook(context: AppContext, caller: Caller, id: string): Promise<void> {
  const deleted = await context.store.transaction((tx) => tx.deleteWebhook(caller.holderId, id));
  if (!deleted) throw notFound(`Webhook ${id}`);
}
