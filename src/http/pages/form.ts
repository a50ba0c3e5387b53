// What the booking pages read from a query or a form, and how a details form is checked: the
// guest's own fields by the API's schema for them (`GuestForm`, from the definitions of
// `CreateBookingBody`), the answers by the event type's questions; every problem as a code the
// page words in the guest's language (messages.ts), never as the API's English.
import type { ErrorObject } from 'ajv';
import type { Static } from 'typebox';
import type { PublicEventType } from '../../app/booking-pages.js';
import type { FieldError, FieldErrorCode } from '../../domain/errors.js';
import { NAME_PATTERN } from '../../domain/names.js';
import type { Answers } from '../../domain/questions.js';
import { GuestForm } from '../schemas/index.js';
import { compileBodyValidator } from '../validation.js';
import { chooseLocale, fieldMessage, type Locale, type Messages } from './messages.js';
import type { FormField } from './details-view.js';

export type Query = Record<string, string | string[] | undefined>;
export type Form = Record<string, string | string[] | undefined>;

/** A query or form value that was sent once; a repeated one is no value. */
export function one(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function localeOf(source: Query | Form | undefined, acceptLanguage: string | undefined): Locale {
  return chooseLocale(one(source?.lang), acceptLanguage);
}

export type GuestDetails = Static<typeof GuestForm>;

const validGuest = compileBodyValidator<GuestDetails>(GuestForm);

/** A field's problem as the page shows it: its code, and for `too-long` the most characters. */
export interface FormError {
  field: string;
  code: FieldErrorCode;
  limit?: number;
}

/** The guest's name, e-mail and notes as the form sent them (name and e-mail trimmed); empty ones left out. */
function guestDetailsOf(form: Form): Partial<GuestDetails> {
  const name = (one(form.name) ?? '').trim();
  const email = (one(form.email) ?? '').trim();
  const notes = one(form.notes) ?? '';
  return {
    ...(name ? { guestName: name } : {}),
    ...(email ? { guestEmail: email } : {}),
    ...(notes ? { notes } : {}),
  };
}

/** Which problem of a field the guest is told first. */
const SHOWN_FIRST: readonly FieldErrorCode[] = ['required', 'invalid-email', 'too-long', 'not-one-line', 'invalid'];

/** The guest's own fields checked as the API checks them; one problem per field. */
export function guestErrors(form: Form): FormError[] {
  const details = guestDetailsOf(form);
  if (validGuest(details)) return [];
  const byField = new Map<string, FormError>();
  for (const error of validGuest.errors ?? []) {
    const found = formErrorOf(error);
    const shown = byField.get(found.field);
    if (!shown || SHOWN_FIRST.indexOf(found.code) < SHOWN_FIRST.indexOf(shown.code)) byField.set(found.field, found);
  }
  return [...byField.values()];
}

function formErrorOf(error: ErrorObject): FormError {
  if (error.keyword === 'required') return { field: String(error.params.missingProperty), code: 'required' };
  const field = error.instancePath.slice(1);
  // An address that breaks any rule is told to be one, however long it is.
  if (field === 'guestEmail') return { field, code: 'invalid-email' };
  if (error.keyword === 'maxLength') return { field, code: 'too-long', limit: Number(error.params.limit) };
  if (error.keyword === 'pattern' && error.params.pattern === NAME_PATTERN) return { field, code: 'not-one-line' };
  return { field, code: 'invalid' };
}

/** The guest's details to book with, once `guestErrors` found none. */
export function guestDetails(form: Form): { guestName: string; guestEmail: string; notes: string | undefined } {
  const { guestName = '', guestEmail = '', notes } = guestDetailsOf(form);
  return { guestName, guestEmail, notes: notes?.trim() || undefined };
}

/** The form's answers in the types the questions take; what is left empty is no answer. */
export function answersOf(page: PublicEventType, form: Form): Answers {
  const answers: Answers = {};
  for (const question of page.eventType.questions) {
    const value = form[`q_${question.id}`];
    if (question.type === 'checkbox') {
      if (value !== undefined) answers[question.id] = one(value) === 'on';
      else if (question.required) answers[question.id] = false;
      continue;
    }
    if (question.type === 'multiselect') {
      const chosen = [value ?? []].flat();
      if (chosen.length > 0) answers[question.id] = chosen;
      continue;
    }
    const text = (one(value) ?? '').trim();
    if (text === '') continue;
    answers[question.id] = question.type === 'number' && Number.isFinite(Number(text)) ? Number(text) : text;
  }
  return answers;
}

/**
 * The form as the guest sent it, each field with its problem in the guest's language: `errors`
 * name the API's fields (`guestName`, `answers.<id>`), the form its own (`name`, `q_<id>`).
 */
export function fieldsWithErrors(
  form: Form,
  errors: ReadonlyArray<FormError | FieldError>,
  m: Messages,
): Record<string, FormField> {
  const fields: Record<string, FormField> = {};
  for (const [name, value] of Object.entries(form)) {
    if (value !== undefined) fields[name] = { value, error: null };
  }
  for (const error of errors) {
    const name = formFieldOf(error.field);
    const limit = 'limit' in error ? error.limit : undefined;
    fields[name] = { value: fields[name]?.value ?? '', error: fieldMessage(m, error.code ?? 'invalid', limit) };
  }
  return fields;
}

/** The form field a booking error names: `guestName` → `name`, `answers.x` → `q_x`. */
function formFieldOf(field: string): string {
  if (field === 'guestName') return 'name';
  if (field === 'guestEmail') return 'email';
  if (field.startsWith('answers.')) return `q_${field.slice('answers.'.length)}`;
  return field;
}
