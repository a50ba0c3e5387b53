/**
 * A name is one line of text: a guest's name, a holder's name and display name, an event type's
 * title, a question's label and options, a calendar source's name. It is shown as one line on
 * pages, in lists and in calendar files, so Unicode's control characters (C0 with tab, CR and LF;
 * DEL; C1) have no reading in it and are refused wherever a name comes in: the API's schemas,
 * the booking page's form, the CLI. Free text (notes, answers, descriptions, reasons) may hold
 * line breaks and tabs; what writes text out escapes it (src/http/calendar-files.ts), which
 * also covers names stored before this rule.
 */
export const NAME_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';

/** What a refused name is told, on its field. */
export const NAME_MESSAGE = 'must be one line, without control characters (line breaks, tabs)';

const ONE_LINE = new RegExp(NAME_PATTERN, 'u');

/** Whether `text` may be a name: no control character in it. */
export function isOneLine(text: string): boolean {
  return ONE_LINE.test(text);
}
