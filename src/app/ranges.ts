import { invalidRequest, type FieldError } from '../domain/errors.js';
import { DAY_MS, parseQueryInstant, type Instant } from '../domain/instant.js';

export const MAX_RANGE_DAYS = 62;
const MAX_RANGE_MS = MAX_RANGE_DAYS * DAY_MS;

/**
 * `from`/`to` of a query: parsed, `from < to`, at most 62 days apart, every problem reported at
 * once. Without `defaultFrom` both are required; with it, `from` defaults to it and `to` to
 * `from` + 62 days.
 */
export function queryRange(
  input: { from?: string; to?: string },
  defaultFrom?: Instant,
): { from: Instant; to: Instant } {
  const errors: FieldError[] = [];
  const parse = (field: 'from' | 'to', raw: string | undefined): Instant | undefined => {
    if (raw === undefined) {
      if (defaultFrom === undefined) errors.push({ field, message: 'is required' });
      return undefined;
    }
    const parsed = parseQueryInstant(raw);
    if (parsed.ok) return parsed.value;
    errors.push({ field, message: parsed.message });
    return undefined;
  };
  const parsedFrom = parse('from', input.from);
  const parsedTo = parse('to', input.to);
  if (errors.length > 0) throw invalidRequest(errors);
  const from = parsedFrom ?? (defaultFrom as Instant);
  const to = parsedTo ?? from + MAX_RANGE_MS;
  if (to <= from) throw invalidRequest([{ field: 'to', message: 'must be after from' }]);
  if (to - from > MAX_RANGE_MS)
    throw invalidRequest([{ field: 'to', message: `must be at most ${MAX_RANGE_DAYS} days after from` }]);
  return { from, to };
}
