// The form for the guest's details, each field with its problem next to it.
import type { PublicEventType } from '../../app/booking-pages.js';
import type { Hold } from '../../domain/hold.js';
import type { Instant } from '../../domain/instant.js';
import { isoDate, type Clock } from './clocks.js';
import { MESSAGES, type Locale } from './messages.js';
import { eventTypePath, withQuery, type Carried } from './paths.js';
import { attendees, CarriedFields, dayTitle, MeetingPlace } from './views.js';

/** A field of the details form and what is wrong with it, if anything. */
export interface FormField {
  value: string | string[];
  error: string | null;
}

export interface DetailsPageProps {
  page: PublicEventType;
  /** The time to book. */
  start: Instant;
  /** The session's live hold of it; null when the time is not held for the guest (contract §10). */
  hold: Hold | null;
  /** Why it is not held: a hold asked for ran out, or none could be given. */
  lapsed: boolean;
  zone: string;
  clock: Clock;
  locale: Locale;
  root: string;
  carried: Carried;
  csrfToken: string;
  /** What the guest sent last time, by field name (`name`, `email`, `notes`, `q_<question id>`). */
  fields: Record<string, FormField>;
  /** True when the form came back with errors. */
  invalid: boolean;
}

/**
 * The form for the guest's details, for a time held for the guest or, when no hold could be given
 * or it ran out, a time that was free when the form was shown; errors next to their fields.
 */
export function DetailsPage(props: DetailsPageProps) {
  const m = MESSAGES[props.locale];
  const { owner, eventType } = props.page;
  const here = eventTypePath(props.root, owner, eventType.slug);
  const field = (name: string): FormField => props.fields[name] ?? { value: '', error: null };
  const text = (name: string) => {
    const value = field(name).value;
    return typeof value === 'string' ? value : '';
  };
  const errorOf = (name: string) => field(name).error;
  const describedBy = (name: string) => (errorOf(name) ? `${name}-error` : undefined);
  const errorText = (name: string) =>
    errorOf(name) ? (
      <p class="field-error" id={`${name}-error`}>
        {errorOf(name)}
      </p>
    ) : null;
  /** The guest's own required fields: name and e-mail, each with its label and error. */
  const guestField = (
    name: 'name' | 'email',
    label: string,
    attributes: { type?: 'email'; autocomplete: string; maxLength: number },
  ) => (
    <>
      <label for={name}>{label}</label>
      <input
        id={name}
        name={name}
        // No type is text; Preact's types tell each type's attributes apart, so one of them stands for both.
        type={attributes.type as 'text' | undefined}
        autocomplete={attributes.autocomplete}
        maxLength={attributes.maxLength}
        required
        value={text(name)}
        aria-invalid={errorOf(name) ? 'true' : undefined}
        aria-describedby={describedBy(name)}
      />
      {errorText(name)}
    </>
  );
  const day = isoDate(props.start, props.zone);
  const timeOfDay = props.clock;
  return (
    <>
      <p class="back">
        <a href={withQuery(here, props.carried, { tz: props.zone, date: day })}>{m.changeTime}</a>
      </p>
      <h1>{m.yourDetails}</h1>
      <dl class="summary">
        <dt>{m.what}</dt>
        <dd>
          {eventType.title} · {attendees(props.page, props.locale)} · {m.minutes(eventType.durationMinutes)}
        </dd>
        {eventType.location && (
          <>
            <dt>{m.where}</dt>
            <dd>
              <MeetingPlace location={eventType.location} />
            </dd>
          </>
        )}
        <dt>{m.when}</dt>
        <dd>
          {dayTitle(day, props.locale)}, {timeOfDay(props.start)} ({props.zone})
        </dd>
      </dl>
      <p class="held">
        {props.hold ? m.heldUntil(timeOfDay(props.hold.expiresAt)) : props.lapsed ? m.holdRanOut : m.notHeld}
      </p>
      {props.invalid && (
        <p class="notice" role="alert">
          {m.fixErrors}
        </p>
      )}
      <form method="post" action={`${here}/book`} class="details" novalidate>
        {props.csrfToken && <input type="hidden" name="_csrf" value={props.csrfToken} />}
        <input type="hidden" name="start" value={new Date(props.start).toISOString()} />
        {props.hold && <input type="hidden" name="hold" value={props.hold.id} />}
        <input type="hidden" name="tz" value={props.zone} />
        <CarriedFields carried={props.carried} />
        {guestField('name', m.name, { autocomplete: 'name', maxLength: 200 })}
        {guestField('email', m.email, { type: 'email', autocomplete: 'email', maxLength: 320 })}
        {eventType.questions.map((question) => {
          const name = `q_${question.id}`;
          const label = (
            <>
              {question.label} {!question.required && <span class="optional">{m.optional}</span>}
            </>
          );
          const invalid = errorOf(name) ? 'true' : undefined;
          if (question.type === 'checkbox') {
            return (
              <div class="check">
                <input
                  id={name}
                  name={name}
                  type="checkbox"
                  checked={text(name) === 'on'}
                  aria-invalid={invalid}
                  aria-describedby={describedBy(name)}
                />
                <label for={name}>{label}</label>
                {errorText(name)}
              </div>
            );
          }
          if (question.type === 'select' || question.type === 'multiselect') {
            const chosen = new Set([field(name).value].flat());
            const type = question.type === 'select' ? 'radio' : 'checkbox';
            return (
              <fieldset aria-describedby={describedBy(name)}>
                <legend>{label}</legend>
                {question.options!.map((option, i) => (
                  <div class="check">
                    <input
                      id={`${name}-${i}`}
                      name={name}
                      type={type}
                      value={option}
                      checked={chosen.has(option)}
                      aria-invalid={invalid}
                    />
                    <label for={`${name}-${i}`}>{option}</label>
                  </div>
                ))}
                {errorText(name)}
              </fieldset>
            );
          }
          return (
            <>
              <label for={name}>{label}</label>
              {question.type === 'textarea' ? (
                <textarea id={name} name={name} rows={4} aria-invalid={invalid} aria-describedby={describedBy(name)}>
                  {text(name)}
                </textarea>
              ) : question.type === 'number' ? (
                <input
                  id={name}
                  name={name}
                  type="number"
                  step="any"
                  value={text(name)}
                  aria-invalid={invalid}
                  aria-describedby={describedBy(name)}
                />
              ) : (
                <input
                  id={name}
                  name={name}
                  // text, email or tel: the same attributes (Preact's types tell the three apart).
                  type={(question.type === 'phone' ? 'tel' : question.type) as 'text'}
                  value={text(name)}
                  aria-invalid={invalid}
                  aria-describedby={describedBy(name)}
                />
              )}
              {errorText(name)}
            </>
          );
        })}
        <label for="notes">
          {m.notes} <span class="optional">{m.optional}</span>
        </label>
        <textarea
          id="notes"
          name="notes"
          rows={3}
          maxLength={2000}
          aria-invalid={errorOf('notes') ? 'true' : undefined}
          aria-describedby={describedBy('notes')}
        >
          {text('notes')}
        </textarea>
        {errorText('notes')}
        <button type="submit" class="primary">
          {m.book}
        </button>
      </form>
    </>
  );
}
