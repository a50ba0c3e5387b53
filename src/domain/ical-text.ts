/**
 * iCalendar text cut into its VEVENTs and the rest (busy-time.ts), before ical.js parses each
 * piece on its own.
 */
import ICAL from 'ical.js';
import { BusyLimitExceeded } from './ical-recurrence.js';

export interface CalendarText {
  /** Everything but the events: the calendars' own lines and their VTIMEZONEs. */
  frame: string;
  /** Each VEVENT's lines, with the components nested in it (VALARM). */
  events: string[];
  /** VEVENTs that their calendar's end (or the next calendar's start) cut off. */
  unclosedEvents: number;
}

/** `BEGIN:X` or `END:X` in upper case, or undefined for any other line. */
function componentMarker(line: string): string | undefined {
  return /^(BEGIN|END):/i.test(line) ? line.trimEnd().toUpperCase() : undefined;
}

/**
 * Splits the text into its VEVENT blocks and the rest by BEGIN/END lines alone (a line-level cut,
 * not parsing: ical.js parses each piece). ical.js refuses a whole text for one bad value (a
 * misspelt RRULE, a wrong date); parsed block by block, such an event is skipped and the rest of
 * the calendar still counts. Other top-level components (VTODO, VJOURNAL, VFREEBUSY…) are
 * dropped: they block nothing. Throws BusyLimitExceeded past `maxEvents` VEVENTs in the fetch's
 * texts so far (counted in `fetch`); a string is the
 * reason the text is not a calendar.
 */
export function splitCalendar(text: string, maxEvents: number, fetch: { events: number }): CalendarText | string {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\n|\r/);
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first += 1;
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === '') last -= 1;
  if (first === lines.length || componentMarker(lines[first]!) !== 'BEGIN:VCALENDAR') {
    return 'it is not iCalendar text (it does not begin with BEGIN:VCALENDAR)';
  }
  if (componentMarker(lines[last]!) !== 'END:VCALENDAR') return 'it is cut short (it does not end with END:VCALENDAR)';
  const frame: string[] = [];
  const events: string[] = [];
  let unclosedEvents = 0;
  let event: string[] = [];
  // 0: between calendars; 1: in a VCALENDAR; 2 and more: inside one of its components.
  let depth = 0;
  let route: 'frame' | 'event' | 'drop' = 'frame';
  for (let i = first; i <= last; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const marker = componentMarker(line);
    if (marker === 'BEGIN:VCALENDAR' || marker === 'END:VCALENDAR') {
      if (depth > 1 && route === 'event') unclosedEvents += 1;
      route = 'frame';
      depth = marker === 'BEGIN:VCALENDAR' ? 1 : 0;
      frame.push(line);
      continue;
    }
    if (marker?.startsWith('BEGIN:')) {
      if (depth === 1) {
        route = marker === 'BEGIN:VEVENT' ? 'event' : marker === 'BEGIN:VTIMEZONE' ? 'frame' : 'drop';
        if (route === 'event') {
          fetch.events += 1;
          if (fetch.events > maxEvents) throw new BusyLimitExceeded(`the calendar has more than ${maxEvents} events`);
          event = [];
        }
      }
      depth += 1;
    }
    if (route === 'frame') frame.push(line);
    else if (route === 'event') event.push(line);
    if (marker?.startsWith('END:') && depth > 1) {
      depth -= 1;
      if (depth === 1) {
        if (route === 'event') events.push(event.join('\r\n'));
        route = 'frame';
      }
    }
  }
  return { frame: frame.join('\r\n'), events, unclosedEvents };
}

/** The VCALENDARs of the frame, or undefined when ical.js refuses it or it holds anything else. */
export function calendarsOf(frame: string): ICAL.Component[] | undefined {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(frame);
  } catch {
    return undefined;
  }
  const roots = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[];
  const calendars = roots.map((root) => new ICAL.Component(root as unknown[]));
  return calendars.every((calendar) => calendar.name === 'vcalendar') ? calendars : undefined;
}
