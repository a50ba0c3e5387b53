import type { Location } from './location.js';
import type { Question } from './questions.js';
import type { Reminder } from './reminders.js';
import type { SlotPolicy } from './slots.js';

/** What every event type has, a holder's own or a team's (contract §4, §10). */
export interface EventTypeSettings extends SlotPolicy {
  id: string;
  title: string;
  slug: string;
  description: string | null;
  /** Whether guests can book it on its booking page (contract §10). */
  public: boolean;
  /** What a booking of it answers, in order. */
  questions: Question[];
  /** Null while the interval follows the duration (the default); resolved in `slotIntervalMinutes`. */
  explicitSlotIntervalMinutes: number | null;
  /** The holder's schedule whose hours and zone it is booked in (contract §13); null: the default schedule. */
  scheduleId: string | null;
  /** Guests one occurrence takes, 2–1000 (contract §15); null: one. */
  seats: number | null;
  /** Where its meetings take place (contract §16); null: not said. */
  location: Location | null;
  /** When its bookings are reminded of (contract §16), each offset once; a booking takes them when made or moved. */
  reminders: Reminder[];
  /** Who its bookings' changes are e-mailed to (contract §16). */
  notifications: NotificationSettings;
  createdAt: number;
  updatedAt: number;
}

/** Whether an event type's bookings tell the guest and the hosts by e-mail (contract §16); both by default. */
export interface NotificationSettings {
  guest: boolean;
  hosts: boolean;
}

export const DEFAULT_NOTIFICATION_SETTINGS: Readonly<NotificationSettings> = { guest: true, hosts: true };

export const MIN_SEATS = 2;
export const MAX_SEATS = 1_000;

/** A holder's own event type: its holder's time is booked. */
export interface EventType extends EventTypeSettings {
  holderId: string;
}

export const MAX_SLUG_LENGTH = 80;

/**
 * `Weekly 1:1 — Café` → `weekly-1-1-cafe`, leaving room for a `-N` suffix within `maxLength`;
 * `fallback` when nothing usable is left. An event type's slug, a holder's handle.
 */
export function slugify(text: string, maxLength = MAX_SLUG_LENGTH, fallback = 'event'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength - 6)
    .replace(/-+$/g, '');
  return slug || fallback;
}

/** The first of `base`, `base-2`, `base-3`, … that is not taken. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
