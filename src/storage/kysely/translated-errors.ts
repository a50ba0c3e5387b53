import { StoreUnavailable } from '../../app/ports/storage-errors.js';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';

/** Statements sent through one dialect (a round trip each on PostgreSQL). */
export interface QueryTally {
  sent: number;
}

/**
 * The dialect as the ports see it: every failure of its driver (a query, or getting a connection)
 * passed through `translate` on the way out, so that engine errors become the ports' errors
 * (app/ports/storage-errors.ts) in this one place, for reads and writes, whichever adapter ran
 * the query; and every statement counted in `tally` (what the bench and the tests count round
 * trips by).
 */
export function portDialect(dialect: Dialect, translate: (error: unknown) => unknown, tally: QueryTally): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new TranslatingDriver(dialect.createDriver(), translate, tally),
  };
}

class TranslatingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly translate: (error: unknown) => unknown,
    private readonly tally: QueryTally,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.tally.sent++;
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (error) {
      throw this.translate(error);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.tally.sent++;
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** The driver's own methods get its own connection back (PostgreSQL's release needs it). */
class TranslatingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly translate: (error: unknown) => unknown,
    private readonly tally: QueryTally,
  ) {}

  async init(): Promise<void> {
    try {
      await this.inner.init();
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** Not getting a connection at all (refused, timed out, the database not accepting any) is always the store being unavailable. */
  async acquireConnection(): Promise<DatabaseConnection> {
    try {
      return new TranslatingConnection(await this.inner.acquireConnection(), this.translate, this.tally);
    } catch (error) {
      const translated = this.translate(error);
      if (translated instanceof StoreUnavailable) throw translated;
      throw new StoreUnavailable('The database refuses connections', 5, { cause: error });
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(innerOf(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(innerOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(innerOf(connection));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function innerOf(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof TranslatingConnection ? connection.inner : connection;
}
