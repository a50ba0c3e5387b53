import type { FieldError } from './errors.js';

/** Where a meeting takes place (contract §16): an event type's, copied to each booking made or moved. */
export const LOCATION_TYPES = ['address', 'link', 'phone', 'text'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

export interface Location {
  type: LocationType;
  value: string;
}

export const MAX_LOCATION_LENGTH = 500;

/**
 * What the schema cannot say: a `link` is an absolute https URL (a guest opens it from an e-mail
 * or a calendar, so no other scheme and nothing relative).
 */
export function locationErrors(location: Location | null): FieldError[] {
  if (location === null || location.type !== 'link' || isHttpsUrl(location.value)) return [];
  return [{ field: 'location.value', message: 'must be an absolute https URL for a link' }];
}

/** URL parsing drops tabs and line breaks, so they are refused first: a link is written where text is not escaped. */
function isHttpsUrl(value: string): boolean {
  if (/[\s\u0000-\u001f\u007f]/.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname !== '';
}
