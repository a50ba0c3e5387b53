import type { Migration } from 'kysely';
import type { Engine } from '../schema.js';
import base from './0001_base.js';
import idempotencyAndRateLimits from './0002_idempotency_and_rate_limits.js';
import calendarVersionAndCoveringOccupancy from './0003_calendar_version_and_covering_occupancy.js';
import calendarVersionBumpedAtCommit from './0004_calendar_version_bumped_at_commit.js';
import finishedDeliveriesByAge from './0005_finished_deliveries_by_age.js';
import holds from './0006_holds.js';
import publicProfileAndBookingFields from './0007_public_profile_and_booking_fields.js';
import calendarSources from './0008_calendar_sources.js';
import changesByTransaction from './0009_changes_by_transaction.js';
import pageHoldClients from './0010_page_hold_clients.js';
import accounts from './0011_accounts.js';
import accountWebhooks from './0012_account_webhooks.js';
import bookingsOfDeletedHolders from './0013_bookings_of_deleted_holders.js';
import schedules from './0014_schedules.js';
import occupancies from './0015_occupancies.js';
import teamEventTypes from './0016_team_event_types.js';
import teamBookingHosts from './0017_team_booking_hosts.js';
import seats from './0018_seats.js';
import locations from './0019_locations.js';
import guestLanguage from './0020_guest_language.js';
import notifications from './0021_notifications.js';
import appointments from './0022_appointments.js';
import reminders from './0023_reminders.js';
import calendarWriteBack from './0024_calendar_write_back.js';
import seatNumbers from './0025_seat_numbers.js';
import emailChanges from './0026_email_changes.js';
import calendarBumpedOnce from './0027_calendar_bumped_once.js';

/**
 * Every migration by name, in order, as its engine runs it: one file each, one text for both
 * engines, the few differences named where they occur. Names are what existing databases
 * recorded as run: never rename one.
 */
export function migrations(engine: Engine): Record<string, Migration> {
  return {
    '0001_base': base(engine),
    '0002_idempotency_and_rate_limits': idempotencyAndRateLimits(engine),
    '0003_calendar_version_and_covering_occupancy': calendarVersionAndCoveringOccupancy(engine),
    '0004_calendar_version_bumped_at_commit': calendarVersionBumpedAtCommit(engine),
    '0005_finished_deliveries_by_age': finishedDeliveriesByAge(engine),
    '0006_holds': holds(engine),
    '0007_public_profile_and_booking_fields': publicProfileAndBookingFields(engine),
    '0008_calendar_sources': calendarSources(engine),
    '0009_changes_by_transaction': changesByTransaction(engine),
    '0010_page_hold_clients': pageHoldClients(engine),
    '0011_accounts': accounts(engine),
    '0012_account_webhooks': accountWebhooks(engine),
    '0013_bookings_of_deleted_holders': bookingsOfDeletedHolders(engine),
    '0014_schedules': schedules(engine),
    '0015_occupancies': occupancies(engine),
    '0016_team_event_types': teamEventTypes(engine),
    '0017_team_booking_hosts': teamBookingHosts(engine),
    '0018_seats': seats(engine),
    '0019_locations': locations(engine),
    '0020_guest_language': guestLanguage(engine),
    '0021_notifications': notifications(engine),
    '0022_appointments': appointments(engine),
    '0023_reminders': reminders(engine),
    '0024_calendar_write_back': calendarWriteBack(engine),
    '0025_seat_numbers': seatNumbers(engine),
    '0026_email_changes': emailChanges(engine),
    '0027_calendar_bumped_once': calendarBumpedOnce(engine),
  };
}
