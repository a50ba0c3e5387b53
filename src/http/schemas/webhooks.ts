import { Type } from 'typebox';
import {
  DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type DeliveryStatus,
  type WebhookEventType,
} from '../../domain/webhook.js';
import { Nullable, Timestamp, Id, PageQuery } from './common.js';

const WebhookEvents = Type.Array(Type.Unsafe<WebhookEventType>({ type: 'string', enum: [...WEBHOOK_EVENT_TYPES] }), {
  minItems: 1,
  uniqueItems: true,
});

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'Absolute http(s) URL' }),
    events: Type.Optional(WebhookEvents),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    active: Type.Optional(Type.Boolean()),
  },
  { $id: 'CreateWebhook', additionalProperties: false },
);

const webhookFields = {
  id: Id('whk'),
  holderId: Nullable(Id('hdr'), {
    description:
      'Read-only. The holder whose webhook it is: it hears that holder’s events. Null for an account webhook (registered in account scope), which hears every event of the account.',
  }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  active: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const WebhookResource = Type.Object(webhookFields, { $id: 'Webhook' });

export const CreatedWebhookResource = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({ description: 'Signing secret, `whsec_…`; shown only in this response' }),
  },
  { $id: 'WebhookWithSecret' },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(CreateWebhookBody.properties.url),
    events: Type.Optional(WebhookEvents),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    active: Type.Optional(Type.Boolean()),
  },
  { $id: 'UpdateWebhook', additionalProperties: false },
);

export const ListWebhooksQuery = Type.Object(
  {
    ...PageQuery,
    holderId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'A holder id, `hdr_…`: only that holder’s webhooks (not the account webhooks, which hear it too). A holder the key cannot see (unknown, another account’s, or acting for another holder): 400 on `holderId`.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DeliveryParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), deliveryId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const DeliveryResource = Type.Object(
  {
    id: Id('dlv'),
    eventId: Type.String({ description: 'The `webhook-id` header of every attempt: stable across retries' }),
    eventType: Type.String(),
    webhookId: Type.String(),
    status: Type.Unsafe<DeliveryStatus>({ type: 'string', enum: [...DELIVERY_STATUSES] }),
    attemptCount: Type.Integer(),
    nextAttemptAt: Nullable(Timestamp),
    attempts: Type.Array(
      Type.Object({
        attempt: Type.Integer(),
        startedAt: Timestamp,
        durationMs: Type.Integer(),
        statusCode: Nullable(Type.Integer()),
        error: Nullable(Type.String()),
        responseExcerpt: Nullable(Type.String({ description: 'Start of the response body, at most 4 KiB' })),
      }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);

export const ListDeliveriesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
