import { DateFormats } from '../../domain/date-formats.js';
import type { Locale } from './messages.js';

/** A time of day as a guest's clock shows it: `9:00 AM`, `9:00`. */
export type Clock = (instant: number) => string;

/**
 * The guests' clocks, one per language and zone (`DateFormats`, bounded: past `capacity` the one
 * used longest ago goes).
 */
export class ClockFormats {
  private readonly formats: DateFormats;

  constructor(capacity: number) {
    this.formats = new DateFormats(capacity);
  }

  of(zone: string, locale: Locale): Clock {
    const format = this.formats.of('clock', zone, locale);
    return (instant) => format.format(instant);
  }
}

/** The local date (`YYYY-MM-DD`) of an instant in a zone. */
export function isoDate(instant: number, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}
