// The booking pages' words, in every language they speak. A message is a string, or a function
// of its values (for plurals and word order); the pages never build sentences from pieces.
import type { FieldErrorCode } from '../../domain/errors.js';

export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

const en = {
  languageName: 'English',
  notFoundTitle: 'Page not found',
  tooManyTitle: 'Too many requests',
  tooManyText: 'This address has asked for too many pages in a short time. Please wait a minute and try again.',
  notFoundText: 'There is no booking page at this address. Check the link you were given.',
  bookWith: (name: string) => `Book a time with ${name}`,
  noPublicEventTypes: 'There is nothing to book here at the moment.',
  minutes: (count: number) => `${count} min`,
  chooseLanguage: 'Language',
  poweredBy: 'Scheduling by Slotwise',
  withHolder: (name: string) => `with ${name}`,
  withFixedAndOneOf: (fixed: string, oneOf: string) => `with ${fixed}, and ${oneOf}`,
  timesShownIn: 'Times are shown in',
  timeZone: 'Time zone',
  changeTimeZone: 'Show times in this zone',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  calendarOf: (month: string) => `Days of ${month}`,
  timesCount: (count: number) => (count === 1 ? '1 free time' : `${count} free times`),
  noTimesThisMonth: 'No free times this month.',
  timesOn: (day: string) => `Free times on ${day}`,
  allEventTypes: 'All event types',
  pickTime: (time: string) => `Choose ${time}`,
  seatsLeft: (count: number) => (count === 1 ? '1 seat left' : `${count} seats left`),
  timeTaken: 'Sorry, that time was just taken. Please choose another.',
  yourDetails: 'Your details',
  heldUntil: (time: string) => `We hold this time for you until ${time}.`,
  holdRanOut: 'The time we held for you ran out, but it is still free: send your details to book it.',
  notHeld:
    'We could not hold this time for you while you fill in the form, but it is free now: send your details to book it.',
  name: 'Name',
  email: 'E-mail',
  notes: 'Anything to add?',
  optional: '(optional)',
  book: 'Book',
  changeTime: 'Choose another time',
  fixErrors: 'Please correct the marked fields.',
  required: 'Please fill this in.',
  tooLong: (max: number) => `Please use at most ${max} characters.`,
  invalidEmail: 'Please enter an e-mail address.',
  oneLine: 'Please remove line breaks, tabs and other invisible control characters.',
  invalidAnswer: 'Please check this answer.',
  booked: 'Your booking is confirmed',
  bookingCancelled: 'This booking was cancelled.',
  bookingMoved: 'This booking was moved to another time.',
  addToCalendar: 'Add to your calendar (.ics)',
  keepLink: 'Keep this page’s address: it lets you see, cancel or move your booking.',
  openBooking: 'Open your booking in a new window',
  keepManageLink: 'Keep the address of that window: it lets you see, cancel or move your booking.',
  language: 'Language',
  moveBooking: 'Move to another time',
  cancelReason: 'Why are you cancelling?',
  cancelBooking: 'Cancel the booking',
  chooseNewTime: 'Choose a new time',
  cannotChange: 'This booking can no longer be changed.',
  when: 'When',
  what: 'What',
  where: 'Where',
  who: 'Guest',
};

export type Messages = typeof en;

const de: Messages = {
  languageName: 'Deutsch',
  notFoundTitle: 'Seite nicht gefunden',
  tooManyTitle: 'Zu viele Anfragen',
  tooManyText:
    'Von dieser Adresse kamen in kurzer Zeit zu viele Anfragen. Bitte warten Sie eine Minute und versuchen Sie es dann erneut.',
  notFoundText: 'Unter dieser Adresse gibt es keine Buchungsseite. Bitte prüfen Sie den Link, den Sie erhalten haben.',
  bookWith: (name) => `Termin bei ${name} buchen`,
  noPublicEventTypes: 'Hier ist im Moment nichts zu buchen.',
  minutes: (count) => `${count} Min.`,
  chooseLanguage: 'Sprache',
  poweredBy: 'Terminbuchung mit Slotwise',
  withHolder: (name) => `mit ${name}`,
  withFixedAndOneOf: (fixed, oneOf) => `mit ${fixed} sowie ${oneOf}`,
  timesShownIn: 'Zeiten in der Zeitzone',
  timeZone: 'Zeitzone',
  changeTimeZone: 'Zeiten in dieser Zone zeigen',
  previousMonth: 'Vorheriger Monat',
  nextMonth: 'Nächster Monat',
  calendarOf: (month) => `Tage im ${month}`,
  timesCount: (count) => (count === 1 ? '1 freier Termin' : `${count} freie Termine`),
  noTimesThisMonth: 'In diesem Monat gibt es keine freien Termine.',
  timesOn: (day) => `Freie Termine am ${day}`,
  allEventTypes: 'Alle Terminarten',
  pickTime: (time) => `${time} wählen`,
  seatsLeft: (count) => (count === 1 ? '1 Platz frei' : `${count} Plätze frei`),
  timeTaken: 'Diese Zeit wurde gerade vergeben. Bitte wählen Sie eine andere.',
  yourDetails: 'Ihre Angaben',
  heldUntil: (time) => `Wir halten diese Zeit bis ${time} Uhr für Sie frei.`,
  holdRanOut: 'Die für Sie reservierte Zeit ist abgelaufen, aber noch frei: Senden Sie Ihre Angaben, um sie zu buchen.',
  notHeld:
    'Wir konnten diese Zeit nicht für Sie reservieren, solange Sie das Formular ausfüllen, aber sie ist jetzt frei: Senden Sie Ihre Angaben, um sie zu buchen.',
  name: 'Name',
  email: 'E-Mail',
  notes: 'Möchten Sie etwas ergänzen?',
  optional: '(optional)',
  book: 'Buchen',
  changeTime: 'Andere Zeit wählen',
  fixErrors: 'Bitte korrigieren Sie die markierten Felder.',
  required: 'Bitte füllen Sie dieses Feld aus.',
  tooLong: (max) => `Bitte höchstens ${max} Zeichen verwenden.`,
  invalidEmail: 'Bitte geben Sie eine E-Mail-Adresse ein.',
  oneLine: 'Bitte entfernen Sie Zeilenumbrüche, Tabulatoren und andere unsichtbare Steuerzeichen.',
  invalidAnswer: 'Bitte prüfen Sie diese Angabe.',
  booked: 'Ihre Buchung ist bestätigt',
  bookingCancelled: 'Diese Buchung wurde abgesagt.',
  bookingMoved: 'Diese Buchung wurde auf eine andere Zeit verschoben.',
  addToCalendar: 'In den Kalender übernehmen (.ics)',
  keepLink:
    'Bewahren Sie die Adresse dieser Seite auf: Damit können Sie Ihre Buchung ansehen, absagen oder verschieben.',
  openBooking: 'Ihre Buchung in einem neuen Fenster öffnen',
  keepManageLink:
    'Bewahren Sie die Adresse dieses Fensters auf: Damit können Sie Ihre Buchung ansehen, absagen oder verschieben.',
  language: 'Sprache',
  moveBooking: 'Auf eine andere Zeit verschieben',
  cancelReason: 'Warum sagen Sie ab?',
  cancelBooking: 'Buchung absagen',
  chooseNewTime: 'Neue Zeit wählen',
  cannotChange: 'Diese Buchung kann nicht mehr geändert werden.',
  when: 'Wann',
  what: 'Was',
  where: 'Wo',
  who: 'Gast',
};

export const MESSAGES: Readonly<Record<Locale, Messages>> = { en, de };

/** Each language's lists of names, made once: `Ada, Bob, and Cy` / `Ada, Bob und Cy`; `Ada or Bob` / `Ada oder Bob`. */
const LISTS: Readonly<Record<Locale, { and: Intl.ListFormat; or: Intl.ListFormat }>> = Object.freeze({
  en: {
    and: new Intl.ListFormat('en', { type: 'conjunction' }),
    or: new Intl.ListFormat('en', { type: 'disjunction' }),
  },
  de: {
    and: new Intl.ListFormat('de', { type: 'conjunction' }),
    or: new Intl.ListFormat('de', { type: 'disjunction' }),
  },
});

/** Names as the language lists them: all of them (`and`), or any one of them (`or`). */
export function namesList(locale: Locale, names: readonly string[], kind: 'and' | 'or'): string {
  return LISTS[locale][kind].format(names);
}

/** What a form field's problem is called in the guest's language (`limit`: a `too-long` field's most characters). */
export function fieldMessage(m: Messages, code: FieldErrorCode, limit?: number): string {
  switch (code) {
    case 'required':
      return m.required;
    case 'too-long':
      return limit === undefined ? m.invalidAnswer : m.tooLong(limit);
    case 'not-one-line':
      return m.oneLine;
    case 'invalid-email':
      return m.invalidEmail;
    case 'invalid':
      return m.invalidAnswer;
  }
}

/**
 * The page's language: `?lang=` when it names one we speak, else the first of the browser's
 * `Accept-Language` (by quality) that we speak (`de-AT` → `de`), else English.
 */
export function chooseLocale(query: string | undefined, acceptLanguage: string | undefined): Locale {
  if (isLocale(query)) return query;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', quality: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => Number.isFinite(entry.quality) && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((entry) => entry.language).find(isLocale) ?? 'en';
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
