import { sql, type Expression, type Kysely, type Selectable } from 'kysely';
import type {
  BookingEmailFacts,
  EmailChange,
  NewNotification,
  NotificationJob,
  NotificationOutcome,
  NotificationQueue,
  NotificationReads,
  NotificationWrites,
} from '../../app/ports/notification-store.js';
import type { Instant } from '../../domain/instant.js';
import {
  OCCURRENCE_NOTICE_LIKE,
  type Notification,
  type NotificationChannel,
  type NotificationKind,
  type NotificationStatus,
} from '../../domain/notification.js';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';
import { compiledOnce } from './compiled-once.js';
import { nullableNumber } from './rows.js';
import { Table } from './table.js';
import { NOTHING_CACHED, type TransactionRunner } from './transactions.js';

/** On the booking's path: compiled once. */
const insertEmailChange = compiledOnce<Omit<EmailChange, 'id'>>()((db, param) =>
  db.insertInto('email_changes').values({
    booking_id: param('bookingId'),
    account_id: param('accountId'),
    holder_id: param('holderId'),
    change: param('change'),
    created_at: param('createdAt'),
  }),
);

/** The notification outbox's rows, read outside a transaction or written in a booking's change. */
export class KyselyNotifications extends Table implements NotificationReads, NotificationWrites {
  async listOfBooking(bookingId: string): Promise<Notification[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .select(['id', 'booking_id', 'channel', 'kind', 'recipient', 'status', 'attempts', 'last_error', 'sent_at'])
      .select('created_at')
      .where('booking_id', '=', bookingId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      bookingId: row.booking_id,
      channel: row.channel as NotificationChannel,
      kind: row.kind as NotificationKind,
      recipient: row.recipient,
      status: row.status as NotificationStatus,
      attempts: Number(row.attempts),
      lastError: row.last_error,
      sentAt: nullableNumber(row.sent_at),
      createdAt: Number(row.created_at),
    }));
  }

  async emailFacts(eventTypeId: string, hostIds: readonly string[]): Promise<BookingEmailFacts | undefined> {
    // One statement on the booking's path: the event type's row, once per host asked for. A
    // holder's type is booked in its schedule's zone, else its holder's default one's; a team
    // type's in each host's, so its first host's default zone stands for it.
    const result = await sql<{
      title: string;
      notify_guest: number;
      notify_hosts: number;
      seats: number | null;
      zone: string | null;
      host_id: string | null;
      host_name: string | null;
      host_display_name: string | null;
      host_email: string | null;
      host_deleted_at: number | null;
      host_zone: string | null;
    }>`
      select et.title, et.notify_guest, et.notify_hosts, et.seats, coalesce(own.time_zone, fallback.time_zone) as zone,
        h.id as host_id, h.name as host_name, h.display_name as host_display_name, h.email as host_email,
        h.deleted_at as host_deleted_at, hs.time_zone as host_zone
      from event_types et
      left join schedules own on own.id = et.schedule_id
      left join schedules fallback on fallback.is_default = 1 and fallback.holder_id = coalesce(
        et.holder_id,
        (select eh.holder_id from event_type_hosts eh where eh.event_type_id = et.id order by eh.position limit 1)
      )
      left join holders h on h.id in (${sql.join(hostIds.length > 0 ? [...hostIds] : ['-'])})
      left join schedules hs on hs.holder_id = h.id and hs.is_default = 1
      where et.id = ${eventTypeId}`.execute(this.db);
    const [first] = result.rows;
    if (!first) return undefined;
    const byId = new Map(result.rows.flatMap((row) => (row.host_id === null ? [] : [[row.host_id, row] as const])));
    const hosts = hostIds.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      // A deleted holder is still named as a host of what it hosted, but no longer mailed.
      const email = row.host_deleted_at === null ? row.host_email : null;
      return [{ holderId: id, name: row.host_display_name ?? row.host_name!, email, zone: row.host_zone ?? 'UTC' }];
    });
    return {
      title: first.title,
      notifications: { guest: Boolean(first.notify_guest), hosts: Boolean(first.notify_hosts) },
      eventZone: first.zone ?? 'UTC',
      hosts,
      seated: first.seats !== null,
    };
  }

  async lastSent(
    channel: NotificationChannel,
    recipient: string,
    message: string,
  ): Promise<NotificationKind | undefined> {
    // Through the recipient index (its rows that count, which sent ones are).
    const row = await this.db
      .selectFrom('notifications')
      .select('kind')
      .where('channel', '=', channel)
      .where(sql`lower(recipient)`, '=', recipient.toLowerCase())
      .where(sql<boolean>`not (status = 'failed' and attempts = 0)`)
      .where('status', '=', 'sent')
      .where('message', '=', message)
      .orderBy('sent_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.kind as NotificationKind | undefined;
  }

  async emailChangesToWrite(limit: number, ownerId?: string): Promise<EmailChange[]> {
    // No index but the key: the worker keeps these few, and one owner's are found by a scan of them.
    if (ownerId !== undefined) {
      const rows = await this.db
        .selectFrom('email_changes')
        .selectAll()
        .where((eb) =>
          eb.or([eb('holder_id', '=', ownerId), eb.and([eb('holder_id', 'is', null), eb('account_id', '=', ownerId)])]),
        )
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toEmailChange);
    }
    const waiting = this.db
      .selectFrom('email_changes')
      .select(['id', 'account_id', sql<string>`coalesce(holder_id, account_id)`.as('owner_id'), 'id as turn']);
    const rows = await this.db
      .selectFrom('email_changes as c')
      .innerJoin(fairlyRanked<number>(waiting).as('fair'), 'fair.id', 'c.id')
      .selectAll('c')
      .orderBy('fair.account_position')
      .orderBy('c.id')
      .limit(limit)
      .execute();
    return rows.map(toEmailChange);
  }

  async recentCounts(
    channel: NotificationChannel,
    recipients: readonly string[],
    since: Instant,
    atMost: number,
  ): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const lowered = [...new Set(recipients.map((r) => r.toLowerCase()))];
    if (lowered.length === 0) return counts;
    // Each address's rows up to `atMost`, through the partial index of rows that count: the
    // statement reads no more than the cap however many messages an address was sent.
    const each = lowered.map(
      (address, i) => sql`
        select r from (
          select cast(${address} as text) as r from notifications
          where channel = ${channel} and lower(recipient) = ${address} and created_at > ${since}
            and not (status = 'failed' and attempts = 0)
          limit ${atMost}
        ) ${sql.raw(`r${i}`)}`,
    );
    const rows = await sql<{ r: string }>`${sql.join(each, sql` union all `)}`.execute(this.db);
    for (const row of rows.rows) counts.set(row.r, (counts.get(row.r) ?? 0) + 1);
    return counts;
  }

  async insert(notifications: readonly NewNotification[]): Promise<void> {
    if (notifications.length === 0) return;
    for (const n of notifications) this.scope.writes(n.holderId ?? n.accountId);
    // Written as SQL, not built: on the booking's path, a builder's compile costs more than the insert.
    const rows = notifications.map(
      (n) =>
        sql`(${n.id}, ${n.bookingId}, ${n.accountId}, ${n.holderId}, ${n.channel}, ${n.kind}, ${n.recipient},
          ${n.message}, ${n.status}, 0, 0, ${n.lastError}, ${n.status === 'pending' ? n.dueAt : null}, null, null,
          ${n.createdAt}, ${n.createdAt})`,
    );
    await sql`
      insert into notifications (id, booking_id, account_id, holder_id, channel, kind, recipient, message, status,
        attempts, retry_step, last_error, due_at, claimed_until, sent_at, created_at, updated_at)
      values ${sql.join(rows)}`.execute(this.db);
  }

  async queueEmailChange(change: Omit<EmailChange, 'id'>): Promise<void> {
    this.scope.writes(change.holderId ?? change.accountId);
    await insertEmailChange(this.db, this.engine, change);
  }

  async takeEmailChanges(changes: readonly EmailChange[]): Promise<EmailChange[]> {
    if (changes.length === 0) return [];
    for (const change of changes) this.scope.writes(change.holderId ?? change.accountId);
    const taken = await this.db
      .deleteFrom('email_changes')
      .where(
        'id',
        'in',
        changes.map((change) => change.id),
      )
      .returning('id')
      .execute();
    const ids = new Set(taken.map((row) => Number(row.id)));
    return changes.filter((change) => ids.has(change.id));
  }

  async insertUnlessPending(notification: NewNotification, now: Instant): Promise<boolean> {
    this.scope.writes(notification.holderId ?? notification.accountId);
    const touched = await this.db
      .updateTable('notifications')
      .set({ updated_at: now })
      .where('channel', '=', notification.channel)
      .where(sql`lower(recipient)`, '=', notification.recipient.toLowerCase())
      .where(sql<boolean>`not (status = 'failed' and attempts = 0)`)
      .where('status', '=', 'pending')
      .where('message', '=', notification.message)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) > 0) return false;
    await this.insert([notification]);
    return true;
  }

  async calendarTargets(holderIds: readonly string[]): Promise<Map<string, string>> {
    if (holderIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('calendar_sources')
      .select(['holder_id', 'id'])
      .where('holder_id', 'in', [...holderIds])
      .where('write_bookings', '=', 1)
      .execute();
    return new Map(rows.map((row) => [row.holder_id, row.id]));
  }
}

/**
 * The ranks of a fair claim (the webhook deliveries' is the same in its own SQL,
 * `delivery-queue.ts`): of `rows` (each an `id`, its `account_id`, its `owner_id` and its `turn`
 * among its owner's), every owner's in turn order, the owners of an account in turn, and every
 * account's first before any account's second: order by `account_position` (then the turn) to
 * take them so.
 */
function fairlyRanked<Id>(rows: Expression<{ id: unknown; account_id: string; owner_id: string; turn: unknown }>) {
  return sql<{ id: Id; account_position: number }>`(
    select id, row_number() over (partition by account_id order by owner_position, turn, id) as account_position
    from (
      select id, account_id, turn, row_number() over (partition by owner_id order by turn, id) as owner_position
      from ${rows} as candidates
    ) as by_owner
  )`;
}

function toEmailChange(row: Selectable<Database['email_changes']>): EmailChange {
  return {
    id: Number(row.id),
    bookingId: row.booking_id,
    accountId: row.account_id,
    holderId: row.holder_id,
    change: row.change,
    createdAt: Number(row.created_at),
  };
}

/** The queue the e-mail worker claims from, each operation one short transaction of its own. */
export class KyselyNotificationQueue implements NotificationQueue {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: EngineTraits,
    private readonly transactions: TransactionRunner,
  ) {}

  claimDue(request: {
    channel: NotificationChannel;
    now: Instant;
    leaseUntil: Instant;
    limit: number;
  }): Promise<NotificationJob[]> {
    return this.transactions.once(async (db) => {
      const rows = await this.due(db, request);
      if (rows.length > 0)
        await db
          .updateTable('notifications')
          .set({ claimed_until: request.leaseUntil })
          .where(
            'id',
            'in',
            rows.map((row) => row.id),
          )
          .execute();
      return rows.map((row) => ({
        id: row.id,
        bookingId: row.booking_id,
        channel: row.channel as NotificationChannel,
        kind: row.kind as NotificationKind,
        recipient: row.recipient,
        message: row.message,
        attempts: Number(row.attempts),
        retryStep: Number(row.retry_step),
      }));
    }, NOTHING_CACHED);
  }

  recordAttempt(id: string, outcome: NotificationOutcome, now: Instant): Promise<void> {
    return this.transactions.retrying(async (db) => {
      await db
        .updateTable('notifications')
        .set((eb) => ({
          status: outcome.status,
          attempts: eb('attempts', '+', 1),
          retry_step: outcome.status === 'sent' ? eb.ref('retry_step') : eb('retry_step', '+', 1),
          ...(outcome.status === 'sent' && outcome.kind ? { kind: outcome.kind } : {}),
          last_error: outcome.status === 'sent' ? null : outcome.error,
          due_at: outcome.status === 'pending' ? outcome.dueAt : null,
          sent_at: outcome.status === 'sent' ? now : null,
          claimed_until: null,
          updated_at: now,
        }))
        .where('id', '=', id)
        .execute();
    }, NOTHING_CACHED);
  }

  recordCalendarWrite(sourceId: string, error: string | null): Promise<void> {
    return this.transactions.retrying(async (db) => {
      await db.updateTable('calendar_sources').set({ last_write_error: error }).where('id', '=', sourceId).execute();
    }, NOTHING_CACHED);
  }

  discard(id: string): Promise<void> {
    return this.transactions.retrying(async (db) => {
      await db.deleteFrom('notifications').where('id', '=', id).execute();
    }, NOTHING_CACHED);
  }

  release(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.transactions.once(async (db) => {
      await db
        .updateTable('notifications')
        .set({ claimed_until: null })
        .where('id', 'in', [...ids])
        .execute();
    }, NOTHING_CACHED);
  }

  async countPending(channel: NotificationChannel): Promise<number> {
    const row = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .where('channel', '=', channel)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Due messages of the channel, ranked as the webhook deliveries' claim ranks them
   * (`delivery-queue.ts`): each owner's (a holder, or the account for what no holder owns) in
   * order of due time, the owners of each account in turn, and every account's first before any
   * account's second. An account whose thousand guests are told of a cancelled occurrence then
   * takes no more of a claim than any other account with something due; the rest of its messages
   * follow in later claims. Ranking reads every due message of the channel, as the deliveries'
   * does: a backlog is what the worker is drawing down.
   */
  private due(db: Kysely<Database>, request: { channel: NotificationChannel; now: Instant; limit: number }) {
    const due = db
      .selectFrom('notifications')
      .select([
        'id',
        'account_id',
        sql<string>`coalesce(notifications.holder_id, notifications.account_id)`.as('owner_id'),
        'due_at as turn',
      ])
      .where('status', '=', 'pending')
      .where('channel', '=', request.channel)
      .where('due_at', '<=', request.now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', request.now)]))
      // A calendar's writes run one at a time, in the order written: a move or removal never
      // overtakes the write before it (a PUT retried after the DELETE that followed it would bring
      // the event back). Through the recipient index: a source's pending rows are few.
      .$if(request.channel === 'calendar', (query) =>
        query.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('notifications as earlier')
                .select(sql.lit(1).as('one'))
                .where('earlier.channel', '=', 'calendar')
                .where(sql`lower(earlier.recipient)`, '=', sql`lower(notifications.recipient)`)
                .where('earlier.status', '=', 'pending')
                .where((eb) =>
                  eb.or([
                    eb('earlier.created_at', '<', eb.ref('notifications.created_at')),
                    eb.and([
                      eb('earlier.created_at', '=', eb.ref('notifications.created_at')),
                      eb('earlier.id', '<', eb.ref('notifications.id')),
                    ]),
                  ]),
                ),
            ),
          ),
        ),
      )
      // An e-mail recipient's notices of one occurrence likewise: each reads what the one before
      // it sent, and tells only what that did not. Nor beside one in flight, whatever their order:
      // ids are random, so two written in the same millisecond have no order of their own, and the
      // one in flight may have read the occurrence before the change the other was written for.
      .$if(request.channel === 'email', (query) =>
        query.where((outer) =>
          outer.not(
            outer.and([
              outer('notifications.message', 'like', OCCURRENCE_NOTICE_LIKE),
              outer.exists(
                outer
                  .selectFrom('notifications as other')
                  .select(sql.lit(1).as('one'))
                  .where('other.channel', '=', 'email')
                  .where(sql`lower(other.recipient)`, '=', sql`lower(notifications.recipient)`)
                  .where('other.status', '=', 'pending')
                  .whereRef('other.message', '=', 'notifications.message')
                  .whereRef('other.id', '<>', 'notifications.id')
                  .where((eb) =>
                    eb.or([
                      eb('other.claimed_until', '>', request.now),
                      eb('other.created_at', '<', eb.ref('notifications.created_at')),
                      eb.and([
                        eb('other.created_at', '=', eb.ref('notifications.created_at')),
                        eb('other.id', '<', eb.ref('notifications.id')),
                      ]),
                    ]),
                  ),
              ),
            ]),
          ),
        ),
      );
    return (
      db
        .selectFrom('notifications as n')
        .innerJoin(fairlyRanked<string>(due).as('fair'), 'fair.id', 'n.id')
        .select([
          'n.id',
          'n.booking_id',
          'n.channel',
          'n.kind',
          'n.recipient',
          'n.message',
          'n.attempts',
          'n.retry_step',
        ])
        // Again on the row as locked: a claim that committed meanwhile leased it.
        .where('n.status', '=', 'pending')
        .where((eb) => eb.or([eb('n.claimed_until', 'is', null), eb('n.claimed_until', '<=', request.now)]))
        .orderBy('fair.account_position')
        .orderBy('n.due_at')
        .orderBy('n.id')
        .limit(request.limit)
        .modifyEnd(this.engine.claimingRowsOf('n'))
        .execute()
    );
  }
}
