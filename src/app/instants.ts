import { invalidRequest } from '../domain/errors.js';
import { parseInstant, type Instant } from '../domain/instant.js';
import { canonicalTimeZone } from '../domain/zone.js';

/** Turns a request's instant into epoch ms, or a 400 that names the field. */
export function instantField(field: string, value: string | number): Instant {
  const parsed = parseInstant(value);
  if (!parsed.ok) throw invalidRequest([{ field, message: parsed.message }]);
  return parsed.value;
}

export function timeZoneField(field: string, value: string): string {
  const zone = canonicalTimeZone(value);
  if (!zone) throw invalidRequest([{ field, message: 'must be an IANA time zone name, e.g. Europe/Berlin' }]);
  return zone;
}
