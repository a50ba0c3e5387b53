import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database, Engine } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';

/**
 * Stands, in a query `compiledOnce` builds, for the value of the parameter `name`, typed as that
 * value: a misnamed parameter, or one bound where a value of another type goes, does not compile.
 */
export type Param<Params> = <Name extends keyof Params & string>(name: Name) => Params[Name];

/** What a query compiled to: its SQL, and which parameter each of its placeholders binds. */
interface Compiled<Params> {
  sql: string;
  names: Array<keyof Params & string>;
}

const MARKER = '\u0000param:';

/**
 * A hot query built and compiled once per engine, then run with fresh parameters, which the caller
 * names: `compiledOnce<{ holderId: string; from: number }>()((db, param) => db…where('holder_id',
 * '=', param('holderId'))…)`, run as `query(db, engine, { holderId, from })`. Building and compiling
 * a Kysely query costs several times what SQLite takes to run it (docs/performance.md, "hot reads
 * compiled once"); the SQL text of a query shape never changes, only its parameters. On
 * PostgreSQL the one text is also prepared once per connection (`postgres-prepared.ts`).
 *
 * The query binds only parameters, each as often as it needs, and every parameter at least once;
 * constants go in as `sql.lit`. A query that breaks this fails when first compiled. `build` gets
 * the engine's traits for SQL that differs by engine beyond its dialect (a lock).
 */
export function compiledOnce<Params extends object>() {
  return <Row>(build: (db: Kysely<Database>, param: Param<Params>, engine: EngineTraits) => Compilable<Row>) => {
    const compiledByEngine = new Map<Engine, Compiled<Params>>();
    return async (db: Kysely<Database>, engine: EngineTraits, params: Params): Promise<Row[]> => {
      let compiled = compiledByEngine.get(engine.name);
      if (compiled === undefined) {
        compiled = compile(
          build(db, (name) => `${MARKER}${name}` as never, engine),
          params,
        );
        compiledByEngine.set(engine.name, compiled);
      }
      const values = compiled.names.map((name) => params[name]);
      return (await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, values))).rows;
    };
  };
}

/**
 * Stands, in a query `compiledPerCount` builds, for the value of `name` of the row at `index`,
 * typed as that value.
 */
export type RowParam<Params> = <Name extends keyof Params & string>(index: number, name: Name) => Params[Name];

/** What a query of several rows compiled to: its SQL, and which row's value each placeholder binds. */
interface CompiledRows<Params> {
  sql: string;
  places: Array<{ index: number; name: keyof Params & string }>;
}

/**
 * `compiledOnce` for a query whose shape grows with its rows (a multi-row insert): built and
 * compiled once for each count of rows, up to `maxRows`, then run with the rows' values, each row
 * named alike (`rowParam(index, 'guest_name')`). Measured on the seats bench part, where a batch
 * of seats inserts its bookings in one statement: building and compiling that insert of a dozen
 * rows cost more of this process's CPU than any other of the batch's statements
 * (docs/performance.md, "Issue 29, session 21"). The same rules as `compiledOnce`'s: only rows'
 * values are bound, and each row's every value at least once.
 */
export function compiledPerCount<Params extends object>(maxRows: number) {
  return <Row>(
    build: (db: Kysely<Database>, rowParam: RowParam<Params>, count: number, engine: EngineTraits) => Compilable<Row>,
  ) => {
    const compiledByEngine = new Map<Engine, Map<number, CompiledRows<Params>>>();
    return async (db: Kysely<Database>, engine: EngineTraits, rows: readonly Params[]): Promise<Row[]> => {
      if (rows.length === 0 || rows.length > maxRows)
        throw new Error(`compiledPerCount: ${rows.length} rows, where 1 to ${maxRows} are compiled`);
      let byCount = compiledByEngine.get(engine.name);
      if (byCount === undefined) compiledByEngine.set(engine.name, (byCount = new Map()));
      let compiled = byCount.get(rows.length);
      if (compiled === undefined) {
        const { sql, names } = compile(
          build(db, (index, name) => `${MARKER}${index}:${name}` as never, rows.length, engine),
          Object.fromEntries(rows.flatMap((row, index) => Object.keys(row).map((name) => [`${index}:${name}`, true]))),
        );
        const places = names.map((place) => {
          const colon = place.indexOf(':');
          return { index: Number(place.slice(0, colon)), name: place.slice(colon + 1) as keyof Params & string };
        });
        byCount.set(rows.length, (compiled = { sql, places }));
      }
      const values = compiled.places.map(({ index, name }) => rows[index]![name]);
      return (await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, values))).rows;
    };
  };
}

function compile<Params extends object>(query: Compilable<unknown>, params: Params): Compiled<Params> {
  const { sql, parameters } = query.compile();
  const names = parameters.map((value) => {
    if (typeof value !== 'string' || !value.startsWith(MARKER))
      throw new Error(`compiledOnce: the query binds a value that is no parameter (use sql.lit): ${sql}`);
    return value.slice(MARKER.length) as keyof Params & string;
  });
  const unbound = Object.keys(params).filter((name) => !names.includes(name as keyof Params & string));
  if (unbound.length > 0) throw new Error(`compiledOnce: the query never binds ${unbound.join(', ')}: ${sql}`);
  return { sql, names };
}
