import { slugify } from './event-type.js';

/** A holder's public handle (contract §10): `[a-z0-9-]`, 1–64, unique on the instance. */
export const HANDLE_PATTERN = '^[a-z0-9-]{1,64}$';
export const MAX_HANDLE_LENGTH = 64;

/** `Dr. Ada Lovelace` → `dr-ada-lovelace`; `holder` when nothing usable is left. Room is left for a `-N` suffix. */
export function handleFrom(name: string): string {
  return slugify(name, MAX_HANDLE_LENGTH, 'holder');
}
