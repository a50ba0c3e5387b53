/** A holder's public handle (contract §10): `[a-z0-9-]`, 1–64, unique on the instance. */
export const HANDLE_PATTERN = '^[a-z0-9-]{1,64}$';
export const MAX_HANDLE_LENGTH = 64;

/** `Dr. Ada Lovelace` → `dr-ada-lovelace`; `holder` when nothing usable is left. Room is left for a `-N` suffix. */
export function handleFrom(name: string): string {
  const handle = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_HANDLE_LENGTH - 6)
    .replace(/-+$/g, '');
  return handle || 'holder';
}
