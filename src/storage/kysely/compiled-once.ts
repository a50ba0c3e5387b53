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
