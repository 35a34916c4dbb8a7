// The response serializers of every Fastify instance the panel builds, shared by schema. Fastify
// compiles each route's response schemas with fast-json-stringify when an instance becomes ready;
// the panel builds one instance per process — plus one per third-party plugin, and one per panel a
// test starts — from the same few hundred schemas, and compiling them again was most of the time
// ready() took. A compiled serializer is a pure function of its schema and options, so one compiled
// for the same schema, options and shared schemas serves every instance.
import SerializerSelector, { type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/**
 * A process-wide cache of what a schema compiles to, keyed by the schema's text: the route
 * validators (input-policy.ts) and the response serializers below both use one.
 */
export function compiledBySchemaText<T>(): (key: string, compile: () => T) => T {
  const compiled = new Map<string, T>();
  return (key, compile) => {
    let fn = compiled.get(key);
    if (fn === undefined) {
      fn = compile();
      compiled.set(key, fn);
    }
    return fn;
  };
}

const compileWithFastJsonStringify = SerializerSelector();
const serializers = compiledBySchemaText<Serializer>();

/** Fastify's `schemaController.compilersFactory.buildSerializer`: its default, compiled once per schema. */
export const sharedSerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = compileWithFastJsonStringify(externalSchemas, options);
  const scope = JSON.stringify([externalSchemas ?? null, options ?? null]);
  return (route) => serializers(`${scope}\n${JSON.stringify(route.schema ?? null)}`, () => compile(route));
};
