import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

const buildSerializer = SerializerSelector();

/** Distinct schemas kept, at most: the API has a few hundred; past this the cache starts again. */
const MAX_COMPILED = 5_000;

/**
 * What is compiled from a JSON schema, once per process for each schema's text. Fastify compiles
 * every route's validators and serialisers anew for each app it builds, and many routes build
 * their schemas when registered. One process serves one app, so this changes nothing there; the
 * tests build an app per case, where compiling some 300 schemas was most of a case's own time.
 */
export class CompiledBySchema<T> {
  private readonly compiled = new Map<string, T>();

  of(schema: unknown, compile: () => T, variant = ''): T {
    const key = `${variant}\u0000${JSON.stringify(schema)}`;
    const known = this.compiled.get(key);
    if (known !== undefined) return known;
    const made = compile();
    if (this.compiled.size >= MAX_COMPILED) this.compiled.clear();
    this.compiled.set(key, made);
    return made;
  }
}

const serializers = new CompiledBySchema<Serializer>();

/**
 * Reply serialisers, each compiled once per process (`CompiledBySchema`): every app has the same
 * shared schemas (`registerSharedSchemas`) and serialiser options (none), so a schema's text
 * names its serialiser.
 */
export const serializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = buildSerializer(externalSchemas, options);
  return (route) => serializers.of(route.schema, () => compile(route));
};
