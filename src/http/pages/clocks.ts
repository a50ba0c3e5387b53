import type { Locale } from './messages.js';

/** A time of day as a guest's clock shows it: `9:00 AM`, `9:00`. */
export type Clock = (instant: number) => string;

/**
 * The guests' clocks, one `Intl.DateTimeFormat` per language and zone, kept: making one costs
 * tens of microseconds and more, as much as rendering the rest of a month's page (`npm run bench`,
 * pages part). Bounded: past `capacity` the one used longest ago goes.
 */
export class ClockFormats {
  private readonly formats = new Map<string, Intl.DateTimeFormat>();

  constructor(private readonly capacity: number) {}

  of(zone: string, locale: Locale): Clock {
    const key = `${locale} ${zone}`;
    let format = this.formats.get(key);
    if (format) {
      // Most recently used last: a Map iterates in insertion order.
      this.formats.delete(key);
    } else {
      format = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: zone });
      if (this.formats.size >= this.capacity) this.formats.delete(this.formats.keys().next().value!);
    }
    this.formats.set(key, format);
    return (instant) => format.format(instant);
  }
}

/** The local date (`YYYY-MM-DD`) of an instant in a zone. */
export function isoDate(instant: number, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}
