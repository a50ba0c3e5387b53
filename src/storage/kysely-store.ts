import { CompiledQuery, sql, type Compilable, type Kysely, type Selectable } from 'kysely';
import type { Availability } from '../domain/availability.js';
import { occupancyOf, type Booking, type BookingStatus } from '../domain/booking.js';
import type { EventType } from '../domain/event-type.js';
import type { Instant } from '../domain/instant.js';
import type { Occupancy } from '../domain/slots.js';
import type { Database, Engine } from './schema.js';
import { GroupCommit, type BatchSession } from './group-commit.js';
import { pendingMigrations } from './migrate.js';
import type {
  ApiKey,
  AuthenticatedKey,
  BookingQuery,
  Holder,
  ClaimRequest,
  DeliveredEventType,
  Delivery,
  DeliveryAttempt,
  DeliveryJob,
  DeliveryOutcome,
  DeliveryStatus,
  IdempotencyClaim,
  IdempotencyOutcome,
  OutboxEvent,
  PageRequest,
  Scope,
  Store,
  StoreWrites,
  StoredAvailability,
  StoredResponse,
  Webhook,
  WebhookEventType,
} from './store.js';

/** What differs between the engines, named: everything else is the shared SQL below. */
export interface EngineTraits {
  name: Engine;
  /** `begin immediate` (SQLite: take the write lock before reading) or `begin`. */
  begin: 'begin immediate' | 'begin';
  /** Serialises the booking decisions of one holder within a transaction. */
  lockCalendar(db: Kysely<Database>, holderId: string): Promise<void>;
  /**
   * Whether write transactions run concurrently (PostgreSQL): rows are then locked before they are
   * changed or deleted, and claims skip rows other claims hold. SQLite's writers are exclusive.
   */
  concurrentWriters: boolean;
  /**
   * Whether concurrent write transactions share one commit (SQLite: one writer, whose commits
   * are limited by fsync); see GroupCommit. PostgreSQL commits concurrent transactions in
   * parallel and groups their WAL flushes itself.
   */
  groupCommit: boolean;
  /** A failure after which running the whole transaction again is safe and may succeed. */
  isRetryable(error: unknown): boolean;
  /** Engine errors the rest of the system understands (unique and exclusion violations). */
  translate(error: unknown): unknown;
  /**
   * Changes when another connection (another process) commits: SQLite's `data_version`, read
   * without a query round trip. Absent on PostgreSQL.
   */
  dataVersion?: () => number;
}

const MAX_TRANSACTION_ATTEMPTS = 5;

/**
 * A hot query built and compiled once per engine, then run with fresh parameters. Building and
 * compiling a Kysely query costs several times what SQLite takes to run it (~70 µs against
 * ~10 µs); the SQL text of a query shape never changes, only its parameters. The query is built
 * with placeholder values whose positions among the compiled parameters are then filled in.
 */
function compiledOnce<Row>(build: (db: Kysely<Database>, ...args: string[]) => Compilable<Row>) {
  const byEngine = new Map<Engine, { query: CompiledQuery<Row>; positions: number[] }>();
  return async (db: Kysely<Database>, engine: Engine, ...args: unknown[]): Promise<Row[]> => {
    let entry = byEngine.get(engine);
    if (!entry) {
      const placeholders = args.map((_, index) => `\u0000placeholder-${index}`);
      const query = build(db, ...placeholders).compile();
      entry = { query, positions: query.parameters.map((value) => placeholders.indexOf(value as string)) };
      byEngine.set(engine, entry);
    }
    const { query, positions } = entry;
    const parameters = query.parameters.map((value, index) =>
      positions[index]! >= 0 ? args[positions[index]!] : value,
    );
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

/**
 * Written into the SQL, not bound: the booking indexes are partial (`where status = 'confirmed'`),
 * and SQLite re-plans a statement on every run when a bound value decides whether such an index applies.
 */
const CONFIRMED = sql.lit('confirmed');

const apiKeyByDigest = compiledOnce((db, digest) =>
  apiKeysQuery(db).select('holders.calendar_version').where('api_keys.digest', '=', digest!),
);
const holderById = compiledOnce((db, id) => db.selectFrom('holders').selectAll().where('id', '=', id!));
const calendarVersionOf = compiledOnce((db, id) =>
  db.selectFrom('holders').select('calendar_version').where('id', '=', id!),
);
const liveEventTypesOf = compiledOnce((db, holderId) =>
  db.selectFrom('event_types').selectAll().where('holder_id', '=', holderId!).where('deleted_at', 'is', null),
);
const liveEventType = compiledOnce((db, holderId, id) =>
  db
    .selectFrom('event_types')
    .selectAll()
    .where('holder_id', '=', holderId!)
    .where('id', '=', id!)
    .where('deleted_at', 'is', null),
);
const availabilityOf = compiledOnce((db, holderId) =>
  db.selectFrom('availabilities').selectAll().where('holder_id', '=', holderId!),
);
const OCCUPANCY_COLUMNS = ['id', 'event_type_id', 'start_at', 'occupied_start', 'occupied_end'] as const;
const occupanciesStartingBetween = compiledOnce((db, holderId, eventTypeId, from, to) =>
  db
    .selectFrom('bookings')
    .select(OCCUPANCY_COLUMNS)
    .where('holder_id', '=', holderId!)
    .where('status', '=', CONFIRMED)
    .where('start_at', '>=', from as unknown as number)
    .where('start_at', '<', to as unknown as number)
    .where('event_type_id', '=', eventTypeId!),
);
/**
 * Confirmed bookings whose occupancy starts in [from, to), and the one that starts last before
 * `from`: confirmed bookings never overlap one another (the rules, and on PostgreSQL the exclusion
 * constraint, hold that), so their ends ascend with their starts and no earlier one can reach
 * `from`. Two index seeks, however many bookings lie before the range.
 */
const occupanciesFrom = compiledOnce((db, holderId, from, to) => {
  const confirmed = () =>
    db
      .selectFrom('bookings')
      .select(OCCUPANCY_COLUMNS)
      .where('holder_id', '=', holderId!)
      .where('status', '=', CONFIRMED);
  return confirmed()
    .where('occupied_start', '>=', from as unknown as number)
    .where('occupied_start', '<', to as unknown as number)
    .unionAll(
      db
        .selectFrom(
          confirmed()
            .where('occupied_start', '<', from as unknown as number)
            .orderBy('occupied_start', 'desc')
            // A literal: a bound LIMIT makes SQLite re-plan the statement on every run.
            .limit(sql.lit(1))
            .as('previous'),
        )
        .selectAll(),
    );
});
const BOOKING_COLUMNS = [
  'id',
  'holder_id',
  'event_type_id',
  'start_at',
  'end_at',
  'occupied_start',
  'occupied_end',
  'buffer_before_minutes',
  'buffer_after_minutes',
  'status',
  'guest_name',
  'guest_email',
  'guest_time_zone',
  'notes',
  'cancellation_reason',
  'cancelled_at',
  'rescheduled_from_id',
  'rescheduled_to_id',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof Database['bookings']>;
const insertBookingRow = compiledOnce((db, ...values) =>
  db
    .insertInto('bookings')
    .values(
      Object.fromEntries(BOOKING_COLUMNS.map((column, i) => [column, values[i]])) as unknown as Database['bookings'],
    ),
);
const insertEventRow = compiledOnce((db, id, holderId, type, payload, createdAt) =>
  db.insertInto('webhook_events').values({
    id: id!,
    holder_id: holderId!,
    type: type!,
    payload: payload!,
    created_at: createdAt as unknown as number,
  }),
);
const activeWebhooksOf = compiledOnce((db, holderId) =>
  db
    .selectFrom('webhooks')
    .select(['id', 'events'])
    .where('holder_id', '=', holderId!)
    .where('active', '=', 1)
    .orderBy('created_at')
    .orderBy('id'),
);

function apiKeysQuery(db: Kysely<Database>) {
  return db
    .selectFrom('api_keys')
    .innerJoin('holders', 'holders.id', 'api_keys.holder_id')
    .select([
      'api_keys.id',
      'api_keys.holder_id',
      'holders.name as holder_name',
      'api_keys.scopes',
      'api_keys.created_at',
      'api_keys.expires_at',
      'api_keys.revoked_at',
    ]);
}

/**
 * The SQL shared by both engines. `db` is either the root (pool or single connection) or one
 * connection inside a transaction.
 */
export class KyselyStore implements StoreWrites {
  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly engine: EngineTraits,
  ) {}

  lockCalendar(holderId: string): Promise<void> {
    return this.engine.lockCalendar(this.db, holderId);
  }

  async findApiKeyByDigest(digest: string): Promise<AuthenticatedKey | undefined> {
    const [row] = await apiKeyByDigest(this.db, this.engine.name, digest);
    return row && { ...toApiKey(row), holderCalendarVersion: Number(row.calendar_version) };
  }

  async listApiKeys(): Promise<ApiKey[]> {
    const rows = await apiKeysQuery(this.db).orderBy('api_keys.created_at').orderBy('api_keys.id').execute();
    return rows.map(toApiKey);
  }

  async countApiKeys(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findHolderByName(name: string): Promise<Holder | undefined> {
    const row = await this.db.selectFrom('holders').selectAll().where('name', '=', name).executeTakeFirst();
    return row && { id: row.id, name: row.name, createdAt: Number(row.created_at) };
  }

  async getHolder(id: string): Promise<Holder | undefined> {
    const [row] = await holderById(this.db, this.engine.name, id);
    return row && { id: row.id, name: row.name, createdAt: Number(row.created_at) };
  }

  async calendarVersion(holderId: string): Promise<number | undefined> {
    const [row] = await calendarVersionOf(this.db, this.engine.name, holderId);
    return row && Number(row.calendar_version);
  }

  async ensureHolder(candidate: Holder): Promise<Holder> {
    await this.db
      .insertInto('holders')
      .values({ id: candidate.id, name: candidate.name, created_at: candidate.createdAt })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return (await this.findHolderByName(candidate.name))!;
  }

  async insertApiKey(key: ApiKey, digest: string): Promise<void> {
    await this.db
      .insertInto('api_keys')
      .values({
        id: key.id,
        holder_id: key.holderId,
        digest,
        scopes: key.scopes.join(','),
        created_at: key.createdAt,
        expires_at: key.expiresAt,
        revoked_at: key.revokedAt,
      })
      .execute();
  }

  async revokeApiKey(id: string, at: Instant): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async getEventType(holderId: string, id: string): Promise<EventType | undefined> {
    const [row] = await liveEventType(this.db, this.engine.name, holderId, id);
    return row && toEventType(row);
  }

  async listEventTypes(holderId: string, page: PageRequest): Promise<EventType[]> {
    let query = this.db
      .selectFrom('event_types')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('deleted_at', 'is', null);
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '>', after.key), eb.and([eb('created_at', '=', after.key), eb('id', '>', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(page.limit).execute();
    return rows.map(toEventType);
  }

  async liveEventTypes(holderId: string): Promise<EventType[]> {
    return (await liveEventTypesOf(this.db, this.engine.name, holderId)).map(toEventType);
  }

  async slugsLike(holderId: string, base: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('event_types')
      .select('slug')
      .where('holder_id', '=', holderId)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
      .execute();
    return new Set(rows.map((r) => r.slug));
  }

  async insertEventType(eventType: EventType): Promise<void> {
    await this.db
      .insertInto('event_types')
      .values({ ...eventTypeRow(eventType), deleted_at: null })
      .execute();
  }

  async updateEventType(eventType: EventType): Promise<void> {
    await this.db
      .updateTable('event_types')
      .set(eventTypeRow(eventType))
      .where('holder_id', '=', eventType.holderId)
      .where('id', '=', eventType.id)
      .execute();
  }

  async deleteEventType(holderId: string, id: string, at: Instant): Promise<boolean> {
    const result = await this.db
      .updateTable('event_types')
      .set({ deleted_at: at, updated_at: at })
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async getAvailability(holderId: string): Promise<StoredAvailability | undefined> {
    const [row] = await availabilityOf(this.db, this.engine.name, holderId);
    if (!row) return undefined;
    const availability: Availability = {
      timeZone: row.time_zone,
      weekly: JSON.parse(row.weekly),
      overrides: JSON.parse(row.overrides),
    };
    return { availability, updatedAt: Number(row.updated_at) };
  }

  async putAvailability(holderId: string, availability: Availability, at: Instant): Promise<void> {
    const values = {
      time_zone: availability.timeZone,
      weekly: JSON.stringify(availability.weekly),
      overrides: JSON.stringify(availability.overrides),
      updated_at: at,
    };
    await this.db
      .insertInto('availabilities')
      .values({ holder_id: holderId, ...values })
      .onConflict((oc) => oc.column('holder_id').doUpdateSet(values))
      .execute();
  }

  async getBooking(holderId: string, id: string): Promise<Booking | undefined> {
    const row = await this.db
      .selectFrom('bookings')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toBooking(row);
  }

  async listConfirmedBookings(holderId: string, query: BookingQuery): Promise<Booking[]> {
    let select = this.db
      .selectFrom('bookings')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('status', '=', CONFIRMED)
      .where('start_at', '>=', query.from)
      .where('start_at', '<', query.to);
    if (query.eventTypeId !== null) select = select.where('event_type_id', '=', query.eventTypeId);
    const after = query.after;
    if (after) {
      select = select.where((eb) =>
        eb.or([eb('start_at', '>', after.key), eb.and([eb('start_at', '=', after.key), eb('id', '>', after.id)])]),
      );
    }
    const rows = await select.orderBy('start_at').orderBy('id').limit(query.limit).execute();
    return rows.map(toBooking);
  }

  async occupanciesOverlapping(
    holderId: string,
    from: Instant,
    to: Instant,
    excludeBookingId?: string,
  ): Promise<Occupancy[]> {
    const rows = await occupanciesFrom(this.db, this.engine.name, holderId, from, to);
    return toOccupancies(
      rows.filter((row) => Number(row.occupied_end) > from),
      excludeBookingId,
    );
  }

  async occupanciesStartingIn(
    holderId: string,
    eventTypeId: string,
    from: Instant,
    to: Instant,
    excludeBookingId?: string,
  ): Promise<Occupancy[]> {
    const rows = await occupanciesStartingBetween(this.db, this.engine.name, holderId, eventTypeId, from, to);
    return toOccupancies(rows, excludeBookingId);
  }

  async insertBooking(booking: Booking): Promise<void> {
    const row = bookingRow(booking);
    await insertBookingRow(this.db, this.engine.name, ...BOOKING_COLUMNS.map((column) => row[column]));
  }

  async updateBooking(booking: Booking, from: BookingStatus): Promise<boolean> {
    const result = await this.db
      .updateTable('bookings')
      .set(bookingRow(booking))
      .where('holder_id', '=', booking.holderId)
      .where('id', '=', booking.id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async getWebhook(holderId: string, id: string): Promise<Webhook | undefined> {
    const row = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toWebhook(row);
  }

  async listWebhooks(holderId: string, page: PageRequest): Promise<Webhook[]> {
    let query = this.db.selectFrom('webhooks').selectAll().where('holder_id', '=', holderId);
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '>', after.key), eb.and([eb('created_at', '=', after.key), eb('id', '>', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(page.limit).execute();
    return rows.map(toWebhook);
  }

  async insertWebhook(webhook: Webhook): Promise<void> {
    await this.db
      .insertInto('webhooks')
      .values({
        id: webhook.id,
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

  async updateWebhook(webhook: Webhook): Promise<void> {
    await this.db
      .updateTable('webhooks')
      .set({
        url: webhook.url,
        events: JSON.stringify(webhook.events),
        description: webhook.description,
        active: webhook.active ? 1 : 0,
        updated_at: webhook.updatedAt,
      })
      .where('holder_id', '=', webhook.holderId)
      .where('id', '=', webhook.id)
      .execute();
  }

  async deleteWebhook(holderId: string, id: string): Promise<boolean> {
    const webhook = await this.getWebhook(holderId, id);
    if (!webhook) return false;
    const deliveries = this.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id);
    // An attempt being recorded meanwhile holds its delivery: wait for it, so its attempt row is
    // deleted below instead of making the delivery's deletion violate the foreign key.
    if (this.engine.concurrentWriters) await deliveries.forUpdate().execute();
    await this.db.deleteFrom('webhook_delivery_attempts').where('delivery_id', 'in', deliveries).execute();
    await this.db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
    await this.db.deleteFrom('webhooks').where('id', '=', id).execute();
    return true;
  }

  async subscribedWebhookIds(holderId: string, type: WebhookEventType): Promise<string[]> {
    const rows = await activeWebhooksOf(this.db, this.engine.name, holderId);
    return rows.filter((w) => (JSON.parse(w.events) as string[]).includes(type)).map((w) => w.id);
  }

  async enqueueEvent(event: OutboxEvent, deliveries: Array<{ id: string; webhookId: string }>): Promise<void> {
    await insertEventRow(
      this.db,
      this.engine.name,
      event.id,
      event.holderId,
      event.type,
      event.payload,
      event.createdAt,
    );
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

  async restartDelivery(deliveryId: string, now: Instant): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', retry_step: 0, next_attempt_at: now, claimed_until: null, updated_at: now })
      .where('id', '=', deliveryId)
      .execute();
  }

  async listDeliveries(webhookId: string, page: PageRequest): Promise<Delivery[]> {
    let query = this.deliveries().where('webhook_deliveries.webhook_id', '=', webhookId);
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('webhook_deliveries.created_at', '<', after.key),
          eb.and([eb('webhook_deliveries.created_at', '=', after.key), eb('webhook_deliveries.id', '<', after.id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('webhook_deliveries.created_at', 'desc')
      .orderBy('webhook_deliveries.id', 'desc')
      .limit(page.limit)
      .execute();
    return this.withAttempts(rows);
  }

  async getDelivery(webhookId: string, deliveryId: string): Promise<Delivery | undefined> {
    const rows = await this.deliveries()
      .where('webhook_deliveries.webhook_id', '=', webhookId)
      .where('webhook_deliveries.id', '=', deliveryId)
      .execute();
    return (await this.withAttempts(rows))[0];
  }

  private deliveries() {
    return this.db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.event_id',
        'webhook_events.type',
        'webhook_deliveries.webhook_id',
        'webhook_deliveries.status',
        'webhook_deliveries.attempts',
        'webhook_deliveries.next_attempt_at',
        'webhook_deliveries.created_at',
        'webhook_deliveries.updated_at',
      ]);
  }

  private async withAttempts(
    rows: Array<{
      id: string;
      event_id: string;
      type: string;
      webhook_id: string;
      status: string;
      attempts: number;
      next_attempt_at: number | null;
      created_at: number;
      updated_at: number;
    }>,
  ): Promise<Delivery[]> {
    if (rows.length === 0) return [];
    const attempts = await this.db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('attempt')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      eventType: r.type as DeliveredEventType,
      webhookId: r.webhook_id,
      status: r.status as DeliveryStatus,
      attempts: r.attempts,
      nextAttemptAt: r.status === 'pending' ? nullableNumber(r.next_attempt_at) : null,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
      attemptLog: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({
          attempt: a.attempt,
          startedAt: Number(a.started_at),
          durationMs: a.duration_ms,
          statusCode: a.status_code,
          error: a.error,
          responseExcerpt: a.response_excerpt,
        })),
    }));
  }

  /**
   * Due deliveries of active webhooks, oldest due first, at most `perWebhook` per webhook (ranked
   * in SQL, so a backlog of one webhook cannot crowd another's deliveries out of the claim). With
   * concurrent writers the rows are locked, and rows another claim holds are passed over.
   */
  async dueDeliveries(request: ClaimRequest): Promise<DeliveryJob[]> {
    const skip = request.skipWebhookIds.length > 0 ? request.skipWebhookIds : ['-'];
    const result = await sql<{
      id: string;
      event_id: string;
      webhook_id: string;
      url: string;
      secret: string;
      payload: string;
      attempts: number;
      retry_step: number;
    }>`
      select d.id, d.event_id, d.webhook_id, w.url, w.secret, e.payload, d.attempts, d.retry_step
      from webhook_deliveries d
      join webhooks w on w.id = d.webhook_id
      join webhook_events e on e.id = d.event_id
      where d.id in (
        select id from (
          select d2.id, row_number() over (partition by d2.webhook_id order by d2.next_attempt_at, d2.id) as position
          from webhook_deliveries d2
          join webhooks w2 on w2.id = d2.webhook_id
          where d2.status = 'pending'
            and d2.next_attempt_at <= ${request.now}
            and (d2.claimed_until is null or d2.claimed_until <= ${request.now})
            and w2.active = 1
            and d2.webhook_id not in (${sql.join(skip)})
        ) ranked
        where position <= ${request.perWebhook}
      )
      and d.status = 'pending'
      and (d.claimed_until is null or d.claimed_until <= ${request.now})
      order by d.next_attempt_at, d.id
      limit ${request.limit}
      ${this.engine.concurrentWriters ? sql`for update of d skip locked` : sql``}`.execute(this.db);
    return result.rows.map((r) => ({
      deliveryId: r.id,
      eventId: r.event_id,
      webhookId: r.webhook_id,
      url: r.url,
      secret: r.secret,
      payload: r.payload,
      attempts: Number(r.attempts),
      retryStep: Number(r.retry_step),
    }));
  }

  async leaseDeliveries(deliveryIds: string[], until: Instant | null): Promise<void> {
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
    outcome: DeliveryOutcome,
    now: Instant,
  ): Promise<void> {
    let select = this.db
      .selectFrom('webhook_deliveries')
      .select(['webhook_id', 'attempts', 'retry_step'])
      .where('id', '=', deliveryId);
    // Locked, so a deletion running meanwhile either waits for this attempt or, first, leaves nothing to record.
    if (this.engine.concurrentWriters) select = select.forUpdate();
    const current = await select.executeTakeFirst();
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
  async claimIdempotencyKeyIn(claim: IdempotencyClaim): Promise<IdempotencyOutcome> {
    const fresh = {
      request_hash: claim.requestHash,
      state: 'in_flight',
      response_status: null,
      response_headers: null,
      response_body: null,
      created_at: claim.now,
      expires_at: claim.expiresAt,
    };
    const inserted = await this.db
      .insertInto('idempotency_keys')
      .values({ api_key_id: claim.apiKeyId, key: claim.key, ...fresh })
      .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'started' };
    const row = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('api_key_id', '=', claim.apiKeyId)
      .where('key', '=', claim.key)
      .executeTakeFirstOrThrow();
    const expired = Number(row.expires_at) <= claim.now;
    const abandoned = row.state === 'in_flight' && Number(row.created_at) <= claim.staleBefore;
    if (expired || abandoned) {
      await this.db
        .updateTable('idempotency_keys')
        .set(fresh)
        .where('api_key_id', '=', claim.apiKeyId)
        .where('key', '=', claim.key)
        .execute();
      return { kind: 'started' };
    }
    if (row.request_hash !== claim.requestHash) return { kind: 'mismatch' };
    if (row.state === 'in_flight') return { kind: 'in-flight' };
    return {
      kind: 'replay',
      response: {
        status: Number(row.response_status),
        headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
        body: row.response_body ?? '',
      },
    };
  }

  async completeIdempotencyKeyIn(apiKeyId: string, key: string, response: StoredResponse): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({
        state: 'done',
        response_status: response.status,
        response_headers: JSON.stringify(response.headers),
        response_body: response.body,
      })
      .where('api_key_id', '=', apiKeyId)
      .where('key', '=', key)
      .execute();
  }

  async releaseIdempotencyKeyIn(apiKeyId: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('key', '=', key).execute();
  }

  async countRequestIn(apiKeyId: string, windowStart: Instant): Promise<number> {
    const row = await this.db
      .insertInto('rate_limit_windows')
      .values({ api_key_id: apiKeyId, window_start: windowStart, requests: 1 })
      .onConflict((oc) =>
        oc.columns(['api_key_id', 'window_start']).doUpdateSet({ requests: sql`rate_limit_windows.requests + 1` }),
      )
      .returning('requests')
      .executeTakeFirstOrThrow();
    if (Number(row.requests) === 1) {
      // A new window: the key's older ones are finished with.
      await this.db
        .deleteFrom('rate_limit_windows')
        .where('api_key_id', '=', apiKeyId)
        .where('window_start', '<', windowStart)
        .execute();
    }
    return Number(row.requests);
  }
}

function toApiKey(row: {
  id: string;
  holder_id: string;
  holder_name: string;
  scopes: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}): ApiKey {
  return {
    id: row.id,
    holderId: row.holder_id,
    holderName: row.holder_name,
    scopes: row.scopes.split(',') as Scope[],
    createdAt: Number(row.created_at),
    expiresAt: nullableNumber(row.expires_at),
    revokedAt: nullableNumber(row.revoked_at),
  };
}

function toOccupancies(
  rows: Array<{ id: string; event_type_id: string; start_at: number; occupied_start: number; occupied_end: number }>,
  excludeBookingId: string | undefined,
): Occupancy[] {
  const occupancies: Occupancy[] = [];
  for (const row of rows) {
    if (row.id === excludeBookingId) continue;
    occupancies.push({
      eventTypeId: row.event_type_id,
      start: Number(row.start_at),
      occupiedStart: Number(row.occupied_start),
      occupiedEnd: Number(row.occupied_end),
    });
  }
  return occupancies;
}

function nullableNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

function toEventType(row: Selectable<Database['event_types']>): EventType {
  return {
    id: row.id,
    holderId: row.holder_id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    durationMinutes: row.duration_minutes,
    explicitSlotIntervalMinutes: row.slot_interval_minutes,
    slotIntervalMinutes: row.slot_interval_minutes ?? row.duration_minutes,
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    minimumNoticeMinutes: row.minimum_notice_minutes,
    bookingWindowDays: row.booking_window_days,
    maxBookingsPerDay: row.max_bookings_per_day,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function eventTypeRow(eventType: EventType) {
  return {
    id: eventType.id,
    holder_id: eventType.holderId,
    title: eventType.title,
    slug: eventType.slug,
    description: eventType.description,
    duration_minutes: eventType.durationMinutes,
    slot_interval_minutes: eventType.explicitSlotIntervalMinutes,
    buffer_before_minutes: eventType.bufferBeforeMinutes,
    buffer_after_minutes: eventType.bufferAfterMinutes,
    minimum_notice_minutes: eventType.minimumNoticeMinutes,
    booking_window_days: eventType.bookingWindowDays,
    max_bookings_per_day: eventType.maxBookingsPerDay,
    created_at: eventType.createdAt,
    updated_at: eventType.updatedAt,
  };
}

function toBooking(row: Selectable<Database['bookings']>): Booking {
  return {
    id: row.id,
    holderId: row.holder_id,
    eventTypeId: row.event_type_id,
    start: Number(row.start_at),
    end: Number(row.end_at),
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    status: row.status as BookingStatus,
    guestName: row.guest_name,
    guestEmail: row.guest_email,
    guestTimeZone: row.guest_time_zone,
    notes: row.notes,
    cancellationReason: row.cancellation_reason,
    cancelledAt: nullableNumber(row.cancelled_at),
    rescheduledFromId: row.rescheduled_from_id,
    rescheduledToId: row.rescheduled_to_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function bookingRow(booking: Booking): Database['bookings'] {
  const occupancy = occupancyOf(booking);
  return {
    id: booking.id,
    holder_id: booking.holderId,
    event_type_id: booking.eventTypeId,
    start_at: booking.start,
    end_at: booking.end,
    occupied_start: occupancy.occupiedStart,
    occupied_end: occupancy.occupiedEnd,
    buffer_before_minutes: booking.bufferBeforeMinutes,
    buffer_after_minutes: booking.bufferAfterMinutes,
    status: booking.status,
    guest_name: booking.guestName,
    guest_email: booking.guestEmail,
    guest_time_zone: booking.guestTimeZone,
    notes: booking.notes,
    cancellation_reason: booking.cancellationReason,
    cancelled_at: booking.cancelledAt,
    rescheduled_from_id: booking.rescheduledFromId,
    rescheduled_to_id: booking.rescheduledToId,
    created_at: booking.createdAt,
    updated_at: booking.updatedAt,
  };
}

function toWebhook(row: Selectable<Database['webhooks']>): Webhook {
  return {
    id: row.id,
    holderId: row.holder_id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    description: row.description,
    active: Boolean(row.active),
    secret: row.secret,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The store at the root of a connection: transactions, delivery claims and shutdown. */
export class KyselyRootStore extends KyselyStore implements Store {
  private readonly groupCommit: GroupCommit<KyselyStore> | null;
  /** Commits made through this store: `data_version` does not count a connection's own. */
  private commits = 0;
  /** `data_version` as read in this event-loop turn, or null before the turn's first read. */
  private dataVersionThisTurn: number | null = null;

  constructor(db: Kysely<Database>, engine: EngineTraits) {
    super(db, engine);
    this.groupCommit = engine.groupCommit
      ? new GroupCommit(
          (use) => this.db.connection().execute((connection) => use(this.batchSession(connection))),
          (error) => engine.translate(error),
        )
      : null;
  }

  transaction<T>(work: (tx: StoreWrites) => Promise<T>): Promise<T> {
    return this.retrying(work);
  }

  /**
   * Read once per event-loop turn: reading `data_version` takes SQLite's WAL read lock (two
   * system calls), and under load a turn handles the requests of many connections at once. A
   * request read in the same turn as the first that asked arrived before that read, so it was
   * sent before any commit the read missed was acknowledged: either order is a true one.
   */
  databaseVersion(): string | null {
    if (!this.engine.dataVersion) return null;
    if (this.dataVersionThisTurn === null) {
      this.dataVersionThisTurn = this.engine.dataVersion();
      setImmediate(() => {
        this.dataVersionThisTurn = null;
      });
    }
    return `${this.dataVersionThisTurn}:${this.commits}`;
  }

  /** Runs `work` in a transaction, again from the start when the engine says a failure allows it. */
  private async retrying<T>(work: (tx: KyselyStore) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.inTransaction(work);
      } catch (error) {
        if (!this.engine.isRetryable(error) || attempt >= MAX_TRANSACTION_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }

  claimDueDeliveries(request: ClaimRequest): Promise<DeliveryJob[]> {
    return this.inTransaction(async (tx) => {
      const jobs = await tx.dueDeliveries(request);
      await tx.leaseDeliveries(
        jobs.map((j) => j.deliveryId),
        request.leaseUntil,
      );
      return jobs;
    });
  }

  recordAttempt(deliveryId: string, attempt: DeliveryAttempt, outcome: DeliveryOutcome, now: Instant): Promise<void> {
    return this.retrying((tx) => tx.applyAttempt(deliveryId, attempt, outcome, now));
  }

  releaseDeliveries(deliveryIds: string[]): Promise<void> {
    return this.inTransaction((tx) => tx.leaseDeliveries(deliveryIds, null));
  }

  async countPendingDeliveries(): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyOutcome> {
    return this.retrying((tx) => tx.claimIdempotencyKeyIn(claim));
  }

  async completeIdempotencyKey(apiKeyId: string, key: string, response: StoredResponse): Promise<void> {
    await this.retrying((tx) => tx.completeIdempotencyKeyIn(apiKeyId, key, response));
  }

  async releaseIdempotencyKey(apiKeyId: string, key: string): Promise<void> {
    await this.retrying((tx) => tx.releaseIdempotencyKeyIn(apiKeyId, key));
  }

  countRequest(apiKeyId: string, windowStart: Instant): Promise<number> {
    return this.retrying((tx) => tx.countRequestIn(apiKeyId, windowStart));
  }

  pendingMigrations(): Promise<string[]> {
    return pendingMigrations(this.db, this.engine.name);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  private inTransaction<T>(work: (tx: KyselyStore) => Promise<T>): Promise<T> {
    if (this.groupCommit) return this.groupCommit.run(work);
    return this.db.connection().execute(async (connection) => {
      await sql.raw(this.engine.begin).execute(connection);
      try {
        const result = await work(new KyselyStore(connection, this.engine));
        await sql`commit`.execute(connection);
        this.commits++;
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw this.engine.translate(error);
      }
    });
  }

  private batchSession(connection: Kysely<Database>): BatchSession<KyselyStore> {
    const run = async (statement: CompiledQuery) => {
      await connection.executeQuery(statement);
    };
    const begin = CompiledQuery.raw(this.engine.begin);
    return {
      tx: new KyselyStore(connection, this.engine),
      begin: () => run(begin),
      savepoint: () => run(SAVEPOINT),
      release: () => run(RELEASE),
      rollbackToSavepoint: async () => {
        await run(ROLLBACK_TO);
        await run(RELEASE);
      },
      commit: async () => {
        await run(COMMIT);
        this.commits++;
      },
      rollback: () => run(ROLLBACK),
    };
  }
}

const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to unit');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
