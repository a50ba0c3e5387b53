import pg from 'pg';

/** Distinct statement texts prepared under a name; past this, a statement is parsed on every run. */
const MAX_PREPARED_TEXTS = 500;

/**
 * The name each parameterised statement text is prepared under, the same on every connection.
 * Bounded: the process's statement texts are the fixed shapes of its adapters (`compiledOnce`),
 * but a text built per call (an `in` list of varying length) must not grow every connection's
 * prepared statements without end.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private generation = 0;

  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= MAX_PREPARED_TEXTS) return known;
    const name = `slotwise_${this.generation}_${this.names.size}`;
    this.names.set(text, name);
    return name;
  }

  /**
   * New names for every text: a prepared statement whose result columns changed (another
   * instance's migration added a column to a `select *`) cannot run again, on any connection.
   * The old ones stay prepared until their connections close: a few per schema change.
   */
  renew(): void {
    this.names.clear();
    this.generation++;
  }
}

/**
 * pg's client with every parameterised statement prepared once per connection, under the name
 * `names` gives its text, and run by name afterwards: no Parse message, and no planning on every
 * run once PostgreSQL settles on a generic plan. Measured on the bookings bench part (a booking
 * runs eight statements): parse and bind had cost 0.2–0.4 ms of PostgreSQL's CPU per booking.
 * Statements without parameters (`begin`, `commit`) stay simple queries, one message each.
 */
export function preparingClient(names: StatementNames): new () => pg.Client {
  return class PreparingClient extends pg.Client {
    // Typed loosely to stand in for every overload of pg's `query`; Kysely calls it as
    // `query(text, values)`, and what this does not prepare goes to pg's own as it came.
    override query(...args: any[]): any {
      const [text, values, callback] = args as [unknown, unknown, unknown];
      if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || callback !== undefined)
        return (super.query as (...rest: unknown[]) => unknown)(...args);
      return this.prepared(text, values);
    }

    private async prepared(text: string, values: unknown[]): Promise<pg.QueryResult> {
      const name = names.nameOf(text);
      if (name === undefined) return super.query(text, values);
      try {
        return await super.query({ name, text, values });
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        names.renew();
        try {
          return await super.query({ name: names.nameOf(text), text, values });
        } catch (again) {
          // Inside a transaction, which the first failure aborted: the transaction runs again
          // (`isRetryable`), its statements under the new names.
          throw isAbortedTransaction(again) ? error : again;
        }
      }
    }
  };
}

/** feature_not_supported "cached plan must not change result type": the statement's columns changed under it. */
export function isStalePlan(error: unknown): boolean {
  return (
    (error as { code?: unknown } | undefined)?.code === '0A000' && /cached plan/.test(String((error as Error).message))
  );
}

function isAbortedTransaction(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '25P02';
}
