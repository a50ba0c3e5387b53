import { Type } from 'typebox';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  NOTIFICATION_STATUSES,
  type NotificationChannel,
  type NotificationKind,
  type NotificationStatus,
} from '../../domain/notification.js';
import { Id, Nullable, Timestamp } from './common.js';

export const NotificationResource = Type.Object(
  {
    id: Id('ntf'),
    channel: Type.Unsafe<NotificationChannel>({
      type: 'string',
      enum: [...NOTIFICATION_CHANNELS],
      description: '`email`, or `calendar` (a write to the host’s own calendar)',
    }),
    kind: Type.Unsafe<NotificationKind>({
      type: 'string',
      enum: [...NOTIFICATION_KINDS],
      description: 'What it tells: the booking was made, moved or cancelled, or is coming up',
    }),
    recipient: Type.String({ description: 'An e-mail address, or a calendar source’s id' }),
    status: Type.Unsafe<NotificationStatus>({
      type: 'string',
      enum: [...NOTIFICATION_STATUSES],
      description:
        '`pending` (not yet sent, or to be retried), `sent` (the SMTP server accepted it) or `failed` (refused with a 5xx reply, retried to the end of the schedule, or over `EMAIL_PER_RECIPIENT_PER_HOUR`)',
    }),
    attempts: Type.Integer({ description: 'Attempts so far' }),
    lastError: Nullable(Type.String(), {
      description: 'The last attempt’s error (the SMTP server’s reply, or the connection’s failure); null once sent',
    }),
    sentAt: Nullable(Timestamp, { description: 'When it was sent; null until then' }),
  },
  { $id: 'Notification' },
);

export const NotificationList = Type.Object({ data: Type.Array(NotificationResource) });
