import { escape } from 'ical-generator';

// What every iCalendar text Slotwise writes (calendar files, invitation e-mails) goes through
// before ical-generator: a guest's name, a title, an answer or a location can only ever be a value.

/**
 * Every text a calendar file carries (names, titles, notes, answers, the guest's address) goes
 * through one of these, by where ical-generator 10 puts it. iCalendar cannot carry a control
 * character other than tab and a line break, in a value (RFC 5545 §3.3.11) or in a parameter
 * (§3.2): they are left out. The API refuses them in names (src/domain/names.ts), but names stored
 * before that, and notes from the booking page's form, reach this file as they were written.
 */
export const written = {
  /** SUMMARY, DESCRIPTION, the attendee's address: ical-generator escapes `\ ; ,` and line breaks. */
  value: (text: string): string => writable(text),
  /**
   * NAME and X-WR-CALNAME: ical-generator writes the calendar's name as given, so a line break in
   * a holder's name started lines of their own (a VEVENT, say). Escaped here as TEXT, by
   * ical-generator's own escape for values.
   */
  calendarName: (text: string): string => escape(writable(text), false),
  /**
   * The attendee's CN: ical-generator 10 quotes it and puts a backslash before `"`, but a quote
   * cannot appear in a parameter and a backslash escapes nothing there (§3.2): the quote ended
   * the value, and the rest of a guest's name became parameters (`x";ROLE=CHAIR`) or the address
   * (`x":mailto:…`). RFC 6868 writes `^` as `^^`, `"` as `^'` and a line break as `^n` (ical.js
   * and the common calendar apps read it); encoded here, ical-generator finds no quote or line
   * break left to escape. A backslash has no writing in a parameter that readers agree on:
   * ical-generator doubles it (a reader true to §3.2 shows two), and ical.js decodes parameters
   * as TEXT and then looks for the address too early (`\:` at a name's end was read as its
   * start). So the CN leaves backslashes out; the SUMMARY keeps the name whole.
   * ical-generator encodes RFC 6868 itself after 11.1.0 (commit 2ef3274; 11.x needs Node 22): on
   * that upgrade this encoding goes, or carets come out encoded twice
   * (test/http/calendar-files.property.test.ts fails then).
   */
  parameter: (text: string): string =>
    writable(text).replace(/\\/g, '').replace(/\^/g, '^^').replace(/"/g, "^'").replace(/\n/g, '^n'),
};

/** `text` without the control characters iCalendar cannot carry; CR LF and a lone CR become LF. */
function writable(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}
