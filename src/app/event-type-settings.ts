import { DomainError, type FieldError } from '../domain/errors.js';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  firstFreeSlug,
  slugify,
  type EventTypeSettings,
  type NotificationSettings,
} from '../domain/event-type.js';
import { locationErrors, type Location } from '../domain/location.js';
import { reminderErrors, type Reminder } from '../domain/reminders.js';
import { questionListErrors, type Question, type QuestionType } from '../domain/questions.js';
import type { Assignment, TeamHostInput } from '../domain/team-event-type.js';
import { UniqueViolation } from './ports/storage-errors.js';

// What every event type has, a holder's own or a team's (contract §4, §10, §14): the fields a
// client sets, their defaults, and the slug rule. The use cases of either kind build on these.

/** Fields a client may set on every event type; `undefined` means "not sent". */
export interface EventTypeFields {
  title?: string;
  slug?: string;
  description?: string | null;
  durationMinutes?: number;
  slotIntervalMinutes?: number | null;
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
  minimumNoticeMinutes?: number;
  bookingWindowDays?: number | null;
  maxBookingsPerDay?: number | null;
  public?: boolean;
  /** As sent: `required` and `options` may be absent. */
  questions?: QuestionInput[];
  /** The holder's schedule that offers its times (contract §13); null: the default schedule. */
  scheduleId?: string | null;
  /** Guests one occurrence takes (contract §15); null: one. */
  seats?: number | null;
  /** Where its meetings take place (contract §16); null: not said. */
  location?: Location | null;
  /** When its bookings are reminded of (contract §16); none by default. */
  reminders?: Reminder[];
  /** Who its bookings' changes are e-mailed to (contract §16); what is not sent stays (on creation: true). */
  notifications?: Partial<NotificationSettings>;
}

/** What only a team event type has (contract §14). */
export interface TeamFields {
  assignment?: Assignment;
  hosts?: TeamHostInput[];
}

/** A body of `PATCH /event-types/:id`, whichever kind it names. */
export type EventTypeChanges = EventTypeFields & TeamFields;

/** A body of `POST /event-types`. */
export type CreateEventTypeInput = EventTypeChanges & { title: string; durationMinutes: number };

export interface QuestionInput {
  id: string;
  label: string;
  type: QuestionType;
  required?: boolean;
  options?: string[];
}

/** The settings of a new event type, its slug still to be chosen; or what is wrong with `input`. */
export function newSettings(
  input: CreateEventTypeInput,
  id: string,
  now: number,
): { settings: EventTypeSettings; errors: FieldError[] } {
  const { questions, errors } = questionsOf(input.questions ?? []);
  const location = input.location ?? null;
  const reminders = input.reminders ?? [];
  return {
    settings: {
      id,
      title: input.title,
      slug: '',
      description: input.description ?? null,
      durationMinutes: input.durationMinutes,
      explicitSlotIntervalMinutes: input.slotIntervalMinutes ?? null,
      slotIntervalMinutes: input.slotIntervalMinutes ?? input.durationMinutes,
      bufferBeforeMinutes: input.bufferBeforeMinutes ?? 0,
      bufferAfterMinutes: input.bufferAfterMinutes ?? 0,
      minimumNoticeMinutes: input.minimumNoticeMinutes ?? 0,
      bookingWindowDays: input.bookingWindowDays ?? null,
      maxBookingsPerDay: input.maxBookingsPerDay ?? null,
      public: input.public ?? false,
      questions,
      scheduleId: input.scheduleId ?? null,
      seats: input.seats ?? null,
      location,
      reminders,
      notifications: { ...DEFAULT_NOTIFICATION_SETTINGS, ...input.notifications },
      createdAt: now,
      updatedAt: now,
    },
    errors: [...errors, ...locationErrors(location), ...reminderErrors(reminders)],
  };
}

/** `current` with the fields sent changed (the slug aside); or what is wrong with `changes`. */
export function changedSettings<T extends EventTypeSettings>(
  current: T,
  changes: EventTypeFields,
  now: number,
): { settings: T; errors: FieldError[] } {
  const durationMinutes = changes.durationMinutes ?? current.durationMinutes;
  const explicitSlotIntervalMinutes =
    changes.slotIntervalMinutes === undefined ? current.explicitSlotIntervalMinutes : changes.slotIntervalMinutes;
  const { questions, errors } =
    changes.questions === undefined ? { questions: current.questions, errors: [] } : questionsOf(changes.questions);
  const location = changes.location === undefined ? current.location : changes.location;
  const reminders = changes.reminders ?? current.reminders;
  return {
    settings: {
      ...current,
      title: changes.title ?? current.title,
      description: changes.description === undefined ? current.description : changes.description,
      durationMinutes,
      explicitSlotIntervalMinutes,
      slotIntervalMinutes: explicitSlotIntervalMinutes ?? durationMinutes,
      bufferBeforeMinutes: changes.bufferBeforeMinutes ?? current.bufferBeforeMinutes,
      bufferAfterMinutes: changes.bufferAfterMinutes ?? current.bufferAfterMinutes,
      minimumNoticeMinutes: changes.minimumNoticeMinutes ?? current.minimumNoticeMinutes,
      bookingWindowDays:
        changes.bookingWindowDays === undefined ? current.bookingWindowDays : changes.bookingWindowDays,
      maxBookingsPerDay:
        changes.maxBookingsPerDay === undefined ? current.maxBookingsPerDay : changes.maxBookingsPerDay,
      public: changes.public ?? current.public,
      questions,
      scheduleId: changes.scheduleId === undefined ? current.scheduleId : changes.scheduleId,
      seats: changes.seats === undefined ? current.seats : changes.seats,
      location,
      reminders,
      notifications: { ...current.notifications, ...changes.notifications },
      updatedAt: now,
    },
    errors: [...errors, ...locationErrors(location), ...reminderErrors(reminders)],
  };
}

/** The questions as stored (every field present), with each inconsistency named. */
function questionsOf(input: QuestionInput[]): { questions: Question[]; errors: FieldError[] } {
  const questions = input.map((question) => ({
    id: question.id,
    label: question.label,
    type: question.type,
    required: question.required ?? false,
    options: question.options ?? null,
  }));
  return { questions, errors: questionListErrors(questions) };
}

/**
 * The slug to store: the explicit one unless taken (409 `conflict`), else the first free one
 * derived from the title. `slugsLike` reads the taken ones among the event types a slug must be
 * unique in (a holder's own, or its account's team types); `selfId` is the event type changing.
 */
export async function chooseSlug(
  slugsLike: (base: string) => Promise<Set<string>>,
  explicit: string | undefined,
  title: string,
  selfId: string | null,
): Promise<string> {
  if (explicit !== undefined) {
    const taken = await slugsLike(explicit);
    if (taken.has(explicit)) throw slugTaken(explicit);
    return explicit;
  }
  const base = slugify(title);
  const taken = await slugsLike(base);
  if (selfId !== null) taken.delete(base);
  return firstFreeSlug(base, taken);
}

function slugTaken(slug: string): DomainError {
  return new DomainError('conflict', `Another event type already uses the slug "${slug}".`, [
    { field: 'slug', message: 'is already taken by another event type' },
  ]);
}

/**
 * The slug check and the insert share a transaction; on PostgreSQL a concurrent writer can still
 * win the unique index between them. An explicit slug then conflicts; a derived one tries again.
 */
export async function withSlugRetry<T>(explicit: boolean, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof UniqueViolation)) throw error;
      if (explicit || tries >= 5) throw new DomainError('conflict', 'Another event type already uses this slug.');
    }
  }
}
