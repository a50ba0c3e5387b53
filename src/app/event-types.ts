import { DomainError, invalidRequest, notFound } from '../domain/errors.js';
import { firstFreeSlug, slugify, type EventType } from '../domain/event-type.js';
import type { PageRequest } from '../domain/page.js';
import { questionListErrors, type Question, type QuestionType } from '../domain/questions.js';
import type { AppContext, Caller } from './context.js';
import { pageOf, type ListScope, type Page } from './paging.js';
import { UniqueViolation } from './ports/storage-errors.js';
import type { HeldEventType, Transaction } from './ports/store.js';

/** Fields a client may set; `undefined` means "not sent". */
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
  /** One of the holder's schedules; null: the default schedule. */
  scheduleId?: string | null;
}

export interface QuestionInput {
  id: string;
  label: string;
  type: QuestionType;
  required?: boolean;
  options?: string[];
}

export type CreateEventTypeInput = EventTypeFields & { title: string; durationMinutes: number };

export async function createEventType(
  context: AppContext,
  caller: Caller,
  input: CreateEventTypeInput,
): Promise<EventType> {
  return withSlugRetry(input.slug !== undefined, () =>
    context.store.transaction(async (tx) => {
      const scheduleId = await checkedScheduleId(tx, caller.holderId, input.scheduleId ?? null);
      const now = context.now();
      const draft: EventType = {
        id: context.ids.newId('evt'),
        holderId: caller.holderId,
        title: input.title,
        slug: '',
        description: input.description ?? null,
        durationMinutes: input.durationMinutes,
        explicitSlotIntervalMinutes: input.slotIntervalMinutes ?? null,
        slotIntervalMinutes: input.slotIntervalMinutes ?? input.durationMinutes,
        scheduleId,
        bufferBeforeMinutes: input.bufferBeforeMinutes ?? 0,
        bufferAfterMinutes: input.bufferAfterMinutes ?? 0,
        minimumNoticeMinutes: input.minimumNoticeMinutes ?? 0,
        bookingWindowDays: input.bookingWindowDays ?? null,
        maxBookingsPerDay: input.maxBookingsPerDay ?? null,
        public: input.public ?? false,
        questions: questionsOf(input.questions ?? []),
        createdAt: now,
        updatedAt: now,
      };
      const eventType = { ...draft, slug: await chooseSlug(tx, caller.holderId, input.slug, input.title, null) };
      await tx.eventTypes.insert(eventType);
      return eventType;
    }),
  );
}

export async function getEventType(context: AppContext, caller: Caller, id: string): Promise<EventType> {
  const eventType = await context.store.eventTypes.get(caller.holderId, id);
  if (!eventType) throw notFound(`Event type ${id}`);
  return eventType;
}

/** Oldest first: the holder's event types, or in account scope those of the account's live holders. */
export function listEventTypes(context: AppContext, scope: ListScope, page: PageRequest): Promise<Page<HeldEventType>> {
  return pageOf(
    page.limit,
    async (limit) => {
      if ('account' in scope)
        return context.store.eventTypes.listOfAccount(scope.account, { limit, after: page.after });
      const { holderId, holderHandle } = scope.caller;
      const eventTypes = await context.store.eventTypes.list(holderId, { limit, after: page.after });
      return eventTypes.map((eventType) => ({ ...eventType, holderHandle }));
    },
    (eventType) => eventType.createdAt,
  );
}

export async function updateEventType(
  context: AppContext,
  caller: Caller,
  id: string,
  changes: EventTypeFields,
): Promise<EventType> {
  return withSlugRetry(changes.slug !== undefined, () =>
    context.store.transaction(async (tx) => {
      // Checked first: a reference in the body is part of its validation (400 before 404).
      const scheduleId =
        changes.scheduleId === undefined ? undefined : await checkedScheduleId(tx, caller.holderId, changes.scheduleId);
      const current = await tx.eventTypes.get(caller.holderId, id);
      if (!current) throw notFound(`Event type ${id}`);
      const durationMinutes = changes.durationMinutes ?? current.durationMinutes;
      const explicitSlotIntervalMinutes =
        changes.slotIntervalMinutes === undefined ? current.explicitSlotIntervalMinutes : changes.slotIntervalMinutes;
      const slugChanged = changes.slug !== undefined && changes.slug !== current.slug;
      const updated: EventType = {
        ...current,
        title: changes.title ?? current.title,
        slug: slugChanged
          ? await chooseSlug(tx, caller.holderId, changes.slug, current.title, current.id)
          : current.slug,
        description: changes.description === undefined ? current.description : changes.description,
        durationMinutes,
        explicitSlotIntervalMinutes,
        slotIntervalMinutes: explicitSlotIntervalMinutes ?? durationMinutes,
        scheduleId: scheduleId === undefined ? current.scheduleId : scheduleId,
        bufferBeforeMinutes: changes.bufferBeforeMinutes ?? current.bufferBeforeMinutes,
        bufferAfterMinutes: changes.bufferAfterMinutes ?? current.bufferAfterMinutes,
        minimumNoticeMinutes: changes.minimumNoticeMinutes ?? current.minimumNoticeMinutes,
        bookingWindowDays:
          changes.bookingWindowDays === undefined ? current.bookingWindowDays : changes.bookingWindowDays,
        maxBookingsPerDay:
          changes.maxBookingsPerDay === undefined ? current.maxBookingsPerDay : changes.maxBookingsPerDay,
        public: changes.public ?? current.public,
        questions: changes.questions === undefined ? current.questions : questionsOf(changes.questions),
        updatedAt: context.now(),
      };
      await tx.eventTypes.update(updated);
      return updated;
    }),
  );
}

export async function deleteEventType(context: AppContext, caller: Caller, id: string): Promise<void> {
  const deleted = await context.store.transaction(async (tx) => {
    if (!(await tx.eventTypes.delete(caller.holderId, id, context.now()))) return false;
    // Its holds go with it: a deleted event type takes no new bookings (contract §4).
    await tx.holds.endAllOf(caller.holderId, id);
    return true;
  });
  if (!deleted) throw notFound(`Event type ${id}`);
}

/**
 * `scheduleId` when it names one of the holder's schedules (null: the default one), else 400 on
 * `scheduleId`. The holder's calendar lock is held from here to the commit, as a schedule's
 * deletion holds it: a schedule is never deleted while an event type moves onto it.
 */
async function checkedScheduleId(tx: Transaction, holderId: string, scheduleId: string | null): Promise<string | null> {
  if (scheduleId === null) return null;
  await tx.lockCalendar(holderId);
  if (!(await tx.schedules.get(holderId, scheduleId)))
    throw invalidRequest([{ field: 'scheduleId', message: 'is not a schedule of this holder' }]);
  return scheduleId;
}

/** The questions as stored (every field present), or 400 naming each inconsistency. */
function questionsOf(input: QuestionInput[]): Question[] {
  const questions = input.map((question) => ({
    id: question.id,
    label: question.label,
    type: question.type,
    required: question.required ?? false,
    options: question.options ?? null,
  }));
  const errors = questionListErrors(questions);
  if (errors.length > 0) throw invalidRequest(errors);
  return questions;
}

async function chooseSlug(
  tx: Transaction,
  holderId: string,
  explicit: string | undefined,
  title: string,
  selfId: string | null,
): Promise<string> {
  if (explicit !== undefined) {
    const taken = await tx.eventTypes.slugsLike(holderId, explicit);
    if (taken.has(explicit)) throw slugTaken(explicit);
    return explicit;
  }
  const base = slugify(title);
  const taken = await tx.eventTypes.slugsLike(holderId, base);
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
async function withSlugRetry<T>(explicit: boolean, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof UniqueViolation)) throw error;
      if (explicit || tries >= 5) throw new DomainError('conflict', 'Another event type already uses this slug.');
    }
  }
}

export function unknownEventType() {
  return invalidRequest([{ field: 'eventTypeId', message: 'is not an event type of this account' }]);
}
