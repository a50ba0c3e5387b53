import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';
import { WriteScope } from './write-scope.js';

/**
 * The SQL of one resource, over either the root handle (a pool or the one SQLite connection:
 * reads outside a transaction) or one connection inside a transaction, whose writes stay in its
 * scope: each write checks the holder it touches before it is sent.
 */
export abstract class Table {
  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly engine: EngineTraits,
    protected readonly scope: WriteScope = WriteScope.ANY,
  ) {}
}
