import type { Kysely } from 'kysely';
import type {
  AccountReads,
  ApiKeyReads,
  AppointmentReads,
  BookingReads,
  BusyTimeReads,
  CalendarSourceReads,
  DeliveryReads,
  EventTypeReads,
  HolderReads,
  HoldReads,
  ReminderReads,
  ScheduleReads,
  Store,
  TeamEventTypeReads,
  Transaction,
  TransactionScope,
  WebhookReads,
} from '../../app/ports/store.js';
import type { NotificationReads } from '../../app/ports/notification-store.js';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';
import { KyselyRecords } from './records.js';
import type { SeatClaimRegistry } from './seat-claims.js';
import type { TransactionRunner } from './transactions.js';
import { WriteScope } from './write-scope.js';

/** The calendar store: reads on the root handle, writes only inside `transaction`. */
export class KyselyStore implements Store {
  readonly accounts: AccountReads;
  readonly holders: HolderReads;
  readonly apiKeys: ApiKeyReads;
  readonly eventTypes: EventTypeReads;
  readonly teamEventTypes: TeamEventTypeReads;
  readonly schedules: ScheduleReads;
  readonly bookings: BookingReads;
  readonly appointments: AppointmentReads;
  readonly holds: HoldReads;
  readonly webhooks: WebhookReads;
  readonly deliveries: DeliveryReads;
  readonly calendarSources: CalendarSourceReads;
  readonly busyTime: BusyTimeReads;
  readonly reminders: ReminderReads;
  readonly notifications: NotificationReads;

  constructor(
    db: Kysely<Database>,
    private readonly engine: EngineTraits,
    private readonly transactions: TransactionRunner,
    private readonly seatClaims: SeatClaimRegistry,
  ) {
    const root = new KyselyRecords(db, engine);
    this.accounts = root.accounts;
    this.holders = root.holders;
    this.apiKeys = root.apiKeys;
    this.eventTypes = root.eventTypes;
    this.teamEventTypes = root.teamEventTypes;
    this.schedules = root.schedules;
    this.bookings = root.bookings;
    this.appointments = root.appointments;
    this.holds = root.holds;
    this.webhooks = root.webhooks;
    this.deliveries = root.deliveries;
    this.calendarSources = root.calendarSources;
    this.busyTime = root.busyTime;
    this.reminders = root.reminders;
    this.notifications = root.notifications;
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>, scope?: TransactionScope): Promise<T> {
    // Every attempt's seat numbers stay claimed until the last has ended (committed or not).
    const claims = this.seatClaims.session();
    try {
      return await this.transactions.retrying(
        (connection) => work(new KyselyRecords(connection, this.engine, WriteScope.of(scope), claims)),
        scope?.ownerIds,
      );
    } finally {
      claims.release();
    }
  }
}
