// Why MAX_DEPTH is what it is: everything that walks a decoded object must work on
// a document nested exactly MAX_DEPTH deep with Node's default stack (kube's own
// 10,000 would overflow V8's JSON.stringify at about 4,100). Each row runs one
// consumer on the deepest documents the decoders let through.
import { describe, expect, test } from 'vitest';
import { MAX_DEPTH } from '../../src/codecs/depth.js';
import { encodeJson } from '../../src/codecs/json.js';
import { encodeYaml } from '../../src/codecs/yaml.js';
import { decodePatch, type Json, type JsonMap } from '../../src/patch/index.js';
import { goFormat } from '../../src/patch/json.js';
import { cloneJson } from '../../src/schema/object.js';
import { builtinDefinitions, builtinSchema } from '../../src/schema/definitions.js';
import { checkTyped, isSchemaTypeError } from '../../src/schema/typed.js';

const SCHEMA_PROPS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';

function typedOrTypeError(run: () => unknown): unknown {
  try {
    return run();
  } catch (err) {
    if (isSchemaTypeError(err)) return err;
    throw err;
  }
}

/** `{properties: {a: {properties: {a: …}}}}` as deep as the document: two levels per step. */
function schemaPropsNested(doc: JsonMap): JsonMap {
  let depth = 0;
  for (let v: unknown = doc.data; typeof v === 'object' && v !== null; v = Array.isArray(v) ? v[0] : (v as JsonMap).a) depth++;
  let out: JsonMap = { type: 'string' };
  for (let i = 0; i < Math.floor(depth / 2); i++) out = { type: 'object', properties: { a: out } };
  return out;
}

function nested(open: '[' | '{', depth: number): Json {
  const text = open === '[' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return JSON.parse(text) as Json;
}

describe('consumers at MAX_DEPTH', () => {
  // The object's own top level is one container, so a value under `data` may be MAX_DEPTH - 1 deep.
  const docs: { name: string; doc: () => JsonMap }[] = [
    { name: 'arrays', doc: () => ({ metadata: { name: 'x' }, data: nested('[', MAX_DEPTH - 1) }) },
    { name: 'objects', doc: () => ({ metadata: { name: 'x' }, data: nested('{', MAX_DEPTH - 1) }) },
  ];
  const consumers: { name: string; run: (doc: JsonMap) => unknown }[] = [
    { name: 'cloneJson', run: (doc) => cloneJson(doc) },
    { name: 'JSON encode', run: (doc) => encodeJson(doc) },
    { name: 'YAML encode', run: (doc) => encodeYaml(doc) },
    { name: 'goFormat', run: (doc) => goFormat(doc) },
    { name: 'merge patch with itself', run: (doc) => decodePatch({ type: 'merge', body: JSON.stringify(doc), strict: false, schema: builtinSchema('') }).apply(doc) },
    { name: 'strategic merge with itself', run: (doc) => decodePatch({ type: 'strategic', body: JSON.stringify(doc), strict: false, schema: builtinSchema('io.k8s.api.core.v1.ConfigMap') }).apply(doc) },
    { name: 'JSON patch copy of the whole value', run: (doc) => decodePatch({ type: 'json', body: '[{"op":"copy","from":"/data","path":"/other"}]', strict: false, schema: builtinSchema('') }).apply(doc) },
    // A wrong type is a decoder answer, not a failure; only a stack overflow would be.
    { name: 'typed walk', run: (doc) => typedOrTypeError(() => checkTyped('io.k8s.api.core.v1.ConfigMap', doc, builtinDefinitions)) },
    // JSONSchemaProps nests itself: the one built-in schema a typed walk can follow to any depth.
    { name: 'typed walk through JSONSchemaProps', run: (doc) => checkTyped(SCHEMA_PROPS, schemaPropsNested(doc), builtinDefinitions) },
  ];
  for (const d of docs) {
    for (const c of consumers) {
      test(`${c.name} on ${d.name}`, () => {
        expect(() => c.run(d.doc())).not.toThrow();
      });
    }
  }
});
