import type { AppContext } from './context.js';
import { transactionWithEvents, type TransactionEvents } from './outbox.js';
import type { Transaction } from './ports/store.js';

/**
 * Tells a transaction's work that its writes will touch these owners (holders, an account); when
 * the transaction is scoped to fewer, the work stops here and runs again scoped to them too.
 */
export type Needs = (ownerIds: readonly string[]) => void;

/** Thrown by `Needs` to end a run whose scope is too narrow; never leaves `transactionOfOwners`. */
class ScopeTooNarrow extends Error {
  constructor(readonly missing: readonly string[]) {
    super(`the transaction needs ${missing.join(', ')} in its scope`);
  }
}

/** Runs before one is left unscoped: a work whose owners change under it twice in a row is rare. */
const SCOPED_RUNS = 3;

/**
 * A transaction (with its events) whose owners (`TransactionScope`) are learnt only by reading in
 * it: the account and hosts of a team booking a host changes, the hosts of a team type being
 * booked or deleted. It runs scoped to the owners `expected`; when its work finds it needs others
 * (`needs`), the run is rolled back and the work runs again, scoped to those too. A work still
 * finding new owners on its third run (rows changing between runs) runs unscoped: right, at the
 * cost of this process's caches of every holder, as any unscoped transaction.
 */
export async function transactionOfOwners<T>(
  context: AppContext,
  expected: readonly string[],
  work: (tx: Transaction, events: TransactionEvents, needs: Needs) => Promise<T>,
): Promise<T> {
  let owners: Set<string> | undefined = new Set(expected);
  for (let run = 1; ; run++) {
    const scoped: Set<string> | undefined = owners;
    const needs: Needs = (ownerIds) => {
      const missing = scoped === undefined ? [] : ownerIds.filter((ownerId) => !scoped.has(ownerId));
      if (missing.length > 0) throw new ScopeTooNarrow(missing);
    };
    try {
      return await transactionWithEvents(
        context,
        (tx, events) => work(tx, events, needs),
        scoped && { ownerIds: [...scoped] },
      );
    } catch (error) {
      if (!(error instanceof ScopeTooNarrow) || scoped === undefined) throw error;
      owners = run < SCOPED_RUNS ? new Set([...scoped, ...error.missing]) : undefined;
    }
  }
}

/** Rows of holders' and team bookings' accounts, by whose they are: the holder's, else the account's. */
export function byOwner<Row extends { holderId: string | null; accountId: string }>(
  rows: readonly Row[],
): Map<string, Row[]> {
  const grouped = new Map<string, Row[]>();
  for (const row of rows) {
    const owner = row.holderId ?? row.accountId;
    const rowsOfOwner = grouped.get(owner);
    if (rowsOfOwner) rowsOfOwner.push(row);
    else grouped.set(owner, [row]);
  }
  return grouped;
}
