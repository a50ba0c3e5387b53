// Marks of the change signal (src/app/ports/change-signal.ts) as the store tests take them.
import type { Storage } from '../../src/storage/storage.js';

/**
 * A mark once the process hears other processes' commits (PostgreSQL: once its change poll has
 * answered) and has heard every commit made so far: a holder made before the mark is not heard
 * of after it (the poll's echo of this process's own commits).
 */
export async function markWhenHearing(storage: Pick<Storage, 'changes' | 'changesHeard'>): Promise<number> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    if (storage.changes.mark() !== null) {
      await storage.changesHeard();
      const mark = storage.changes.mark();
      if (mark !== null) return mark;
    }
    if (Date.now() > deadline) throw new Error('the change signal never started hearing');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits until `changed()` holds, up to `withinMs`: another process's commit is heard, not read. */
export async function heardWithin(withinMs: number, changed: () => boolean): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!changed()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return true;
}
