import { invalidRequest, type FieldError } from '../domain/errors.js';
import { DAY_MS, parseQueryInstant, type Instant } from '../domain/instant.js';

export const MAX_RANGE_DAYS = 62;
const MAX_RANGE_MS = MAX_RANGE_DAYS * DAY_MS;

/**
 * `from`/`to` of a query as sent: each parsed when present (and, with `required`, reported when
 * absent), `to` after `from` when both are, every problem reported at once.
 */
export function queryBounds(
  input: { from?: string; to?: string },
  required = false,
): { from: Instant | undefined; to: Instant | undefined } {
  const errors: FieldError[] = [];
  const parse = (field: 'from' | 'to', raw: string | undefined): Instant | undefined => {
    if (raw === undefined) {
      if (required) errors.push({ field, message: 'is required' });
      return undefined;
    }
    const parsed = parseQueryInstant(raw);
    if (parsed.ok) return parsed.value;
    errors.push({ field, message: parsed.message });
    return undefined;
  };
  const from = parse('from', input.from);
  const to = parse('to', input.to);
  if (errors.length > 0) throw invalidRequest(errors);
  if (from !== undefined && to !== undefined && to <= from)
    throw invalidRequest([{ field: 'to', message: 'must be after from' }]);
  return { from, to };
}

/**
 * `from`/`to` of a query: parsed, `from < to`, at most 62 days apart, every problem reported at
 * once. Without `defaultFrom` both are required; with it, `from` defaults to it and `to` to
 * `from` + 62 days.
 */
export function queryRange(
  input: { from?: string; to?: string },
  defaultFrom?: Instant,
): { from: Instant; to: Instant } {
  const bounds = queryBounds(input, defaultFrom === undefined);
  const from = bounds.from ?? (defaultFrom as Instant);
  const to = bounds.to ?? from + MAX_RANGE_MS;
  if (to <= from) throw invalidRequest([{ field: 'to', message: 'must be after from' }]);
  if (to - from > MAX_RANGE_MS)
    throw invalidRequest([{ field: 'to', message: `must be at most ${MAX_RANGE_DAYS} days after from` }]);
  return { from, to };
}
