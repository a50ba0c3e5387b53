import type { Kysely } from 'kysely';
import type { SeatClaims, Transaction } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { KyselyApiKeys } from './api-keys.js';
import { KyselyAppointments } from './appointments.js';
import { KyselyBusyTime, KyselyCalendarSources } from './calendar-sources.js';
import { KyselyBookings } from './bookings.js';
import { KyselyDecisions } from './decisions.js';
import { KyselyDeliveries } from './deliveries.js';
import type { EngineTraits } from './engine-traits.js';
import { KyselyEventTypes } from './event-types.js';
import { KyselyAccounts } from './accounts.js';
import { KyselyHolders } from './holders.js';
import { KyselyHolds } from './holds.js';
import { KyselyNotifications } from './notifications.js';
import { KyselyOutbox } from './outbox.js';
import { KyselyReminders } from './reminders.js';
import { KyselyTeamEventTypes } from './team-event-types.js';
import { KyselySchedules } from './schedules.js';
import { NO_SEAT_CLAIMS } from './seat-claims.js';
import { KyselyWebhooks } from './webhooks.js';
import { WriteScope } from './write-scope.js';

/** Every resource's SQL over one handle: the root (for reads) or a transaction's connection, with its scope. */
export class KyselyRecords implements Transaction {
  readonly decisions: KyselyDecisions;
  readonly accounts: KyselyAccounts;
  readonly holders: KyselyHolders;
  readonly apiKeys: KyselyApiKeys;
  readonly eventTypes: KyselyEventTypes;
  readonly teamEventTypes: KyselyTeamEventTypes;
  readonly schedules: KyselySchedules;
  readonly bookings: KyselyBookings;
  readonly appointments: KyselyAppointments;
  readonly holds: KyselyHolds;
  readonly webhooks: KyselyWebhooks;
  readonly deliveries: KyselyDeliveries;
  readonly calendarSources: KyselyCalendarSources;
  readonly busyTime: KyselyBusyTime;
  readonly reminders: KyselyReminders;
  readonly outbox: KyselyOutbox;
  readonly notifications: KyselyNotifications;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: EngineTraits,
    scope: WriteScope = WriteScope.ANY,
    readonly seatClaims: SeatClaims = NO_SEAT_CLAIMS,
  ) {
    this.decisions = new KyselyDecisions(db, engine, scope);
    this.accounts = new KyselyAccounts(db, engine, scope);
    this.holders = new KyselyHolders(db, engine, scope);
    this.apiKeys = new KyselyApiKeys(db, engine, scope);
    this.eventTypes = new KyselyEventTypes(db, engine, scope);
    this.teamEventTypes = new KyselyTeamEventTypes(db, engine, scope);
    this.schedules = new KyselySchedules(db, engine, scope);
    this.bookings = new KyselyBookings(db, engine, scope);
    this.appointments = new KyselyAppointments(db, engine, scope);
    this.holds = new KyselyHolds(db, engine, scope);
    this.webhooks = new KyselyWebhooks(db, engine, scope);
    this.deliveries = new KyselyDeliveries(db, engine, scope);
    this.calendarSources = new KyselyCalendarSources(db, engine, scope);
    this.busyTime = new KyselyBusyTime(db, engine, scope);
    this.reminders = new KyselyReminders(db, engine, scope);
    this.outbox = new KyselyOutbox(db, engine, scope);
    this.notifications = new KyselyNotifications(db, engine, scope);
  }

  lockCalendar(holderId: string): Promise<void> {
    return this.engine.lockCalendar(this.db, holderId);
  }

  lockTeamEventType(eventTypeId: string): Promise<void> {
    return this.engine.lockTeamEventType(this.db, eventTypeId);
  }
}
