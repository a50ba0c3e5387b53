import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database, Engine } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';

/**
 * A hot query built and compiled once per engine, then run with fresh parameters. Building and
 * compiling a Kysely query costs several times what SQLite takes to run it (docs/performance.md,
 * "hot reads compiled once"); the SQL text of a query shape never changes, only its parameters.
 *
 * `build` gets one placeholder per argument and must bind each exactly once, in argument order,
 * and bind nothing else (constants go in as `sql.lit`): the compiled query then runs as
 * `CompiledQuery.raw(sql, args)`. A query that breaks this fails when first compiled.
 */
export function compiledOnce<Row>(build: (db: Kysely<Database>, ...args: string[]) => Compilable<Row>) {
  const sqlByEngine = new Map<Engine, string>();
  return (db: Kysely<Database>, engine: Engine, ...args: unknown[]): Promise<Row[]> =>
    runCompiled(db, sqlByEngine, engine, (placeholders) => build(db, ...placeholders), args);
}

/** `compiledOnce` for a query whose SQL differs by engine beyond its dialect (a lock): `build` gets the engine's traits. */
export function compiledOnceFor<Row>(
  build: (db: Kysely<Database>, engine: EngineTraits, ...args: string[]) => Compilable<Row>,
) {
  const sqlByEngine = new Map<Engine, string>();
  return (db: Kysely<Database>, engine: EngineTraits, ...args: unknown[]): Promise<Row[]> =>
    runCompiled(db, sqlByEngine, engine.name, (placeholders) => build(db, engine, ...placeholders), args);
}

async function runCompiled<Row>(
  db: Kysely<Database>,
  sqlByEngine: Map<Engine, string>,
  engine: Engine,
  build: (placeholders: string[]) => Compilable<Row>,
  args: unknown[],
): Promise<Row[]> {
  let text = sqlByEngine.get(engine);
  if (text === undefined) {
    const placeholders = args.map((_, index) => `\u0000placeholder-${index}`);
    const compiled = build(placeholders).compile();
    if (
      compiled.parameters.length !== placeholders.length ||
      compiled.parameters.some((value, index) => value !== placeholders[index])
    ) {
      throw new Error(
        `compiledOnce: the query must bind its ${args.length} arguments once each, in order: ${compiled.sql}`,
      );
    }
    text = compiled.sql;
    sqlByEngine.set(engine, text);
  }
  return (await db.executeQuery<Row>(CompiledQuery.raw(text, args))).rows;
}
