/** The `Intl.DateTimeFormat` options of each way a time or a day is written for a person. */
const STYLES = {
  /** A time of day: `9:00 AM`, `9:00`. */
  clock: { hour: 'numeric', minute: '2-digit' },
  /** A day in full: `Monday, January 5, 2026`, `Montag, 5. Januar 2026`. */
  day: { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof STYLES;

/**
 * `Intl.DateTimeFormat`s by style, language and zone, kept: making one costs tens of microseconds
 * and more, as much as rendering the rest of a month's page or composing the rest of an e-mail
 * (`npm run bench`). Bounded: past `capacity` the one used longest ago goes. Built by the
 * composition root, one per use.
 */
export class DateFormats {
  private readonly formats = new Map<string, Intl.DateTimeFormat>();

  constructor(private readonly capacity: number) {}

  of(style: DateStyle, zone: string, locale: string): Intl.DateTimeFormat {
    const key = `${style} ${locale} ${zone}`;
    let format = this.formats.get(key);
    if (format) {
      // Most recently used last: a Map iterates in insertion order.
      this.formats.delete(key);
    } else {
      format = new Intl.DateTimeFormat(locale, { ...STYLES[style], timeZone: zone });
      if (this.formats.size >= this.capacity) this.formats.delete(this.formats.keys().next().value!);
    }
    this.formats.set(key, format);
    return format;
  }
}
