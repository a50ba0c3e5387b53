import { firstFreeSlug } from '../../domain/event-type.js';
import { handleFrom } from '../../domain/holder.js';

/** Tries for a free handle this often when others take the candidates meanwhile. */
const HANDLE_ATTEMPTS = 5;

/**
 * The record of that name (an account, or a holder of an account), created if there is none yet
 * with the first free handle derived from the name, also when two create it at once: `insert`
 * does nothing when the name (another request created the record) or the handle (another record
 * took it) is taken meanwhile, and the loop then finds the one or picks again.
 */
export async function ensureNamed<T>(
  what: string,
  name: string,
  steps: {
    find(): Promise<T | undefined>;
    handlesLike(base: string): Promise<Set<string>>;
    insert(handle: string): Promise<void>;
  },
): Promise<T> {
  const base = handleFrom(name);
  for (let attempt = 0; attempt < HANDLE_ATTEMPTS; attempt++) {
    const existing = await steps.find();
    if (existing) return existing;
    await steps.insert(firstFreeSlug(base, await steps.handlesLike(base)));
  }
  const created = await steps.find();
  if (!created) throw new Error(`no free handle for ${what} ${name} after ${HANDLE_ATTEMPTS} attempts`);
  return created;
}
