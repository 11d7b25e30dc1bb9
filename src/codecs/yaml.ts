// YAML in both directions (application/yaml). Decoding yields what kube-apiserver
// makes of the same bytes: sigs.k8s.io/yaml's YAMLToJSON over goyaml v2, i.e.
// YAML 1.1-style scalars (yaml-schema.ts), a repeated key keeps the last value,
// aliases expanded but bounded as goyaml bounds them, a self-containing anchor
// refused (yaml-tracker.ts), values JSON cannot hold (.inf, .nan) refused, and
// nesting held to MAX_DEPTH. Encoding sorts keys and leaves sequences unindented,
// as sigs.k8s.io/yaml writes, and quotes every string goyaml would read back as
// something else.
import yaml from 'js-yaml';
import { badRequest, isStatusError } from '../errors/status-error.js';
import type { Codec, DecodeOptions } from './codec.js';
import { MAX_DEPTH, tooDeepAt } from './depth.js';
import { GO_YAML_DUMP_SCHEMA, GO_YAML_SCHEMA, TagMismatch } from './yaml-schema.js';
import { createYamlTracker, YamlDecodeFailure } from './yaml-tracker.js';

export const YAML_MEDIA_TYPE = 'application/yaml';

// Every YAML failure keeps the prefix the codec has always used (kube's
// sigs.k8s.io/yaml.Unmarshal wording); the text after it is goyaml's.
const PREFIX = 'error converting YAML to JSON: ';

function yamlError(why: string): never {
  throw badRequest(`${PREFIX}yaml: ${why}`);
}

const TOO_DEEP = `exceeded max depth of ${MAX_DEPTH}`;

/**
 * js-yaml shares one object among an anchor and its aliases; the result must be a
 * tree (nothing downstream expects two paths to one object). Depth was checked
 * first, so this recursion is bounded. Numbers JSON cannot carry fail here, as
 * Go's json.Marshal fails in YAMLToJSON.
 */
function toJsonTree(value: unknown): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badRequest(`${PREFIX}json: unsupported value: ${Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf'}`);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = toJsonTree(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = toJsonTree((value as Record<string, unknown>)[key]);
    // A "__proto__" key is data; plain assignment would set the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}

export function decodeYaml(body: Buffer, opts?: DecodeOptions): unknown {
  const text = body.toString('utf8');
  const strict = opts?.strictErrors !== undefined;
  const tracker = createYamlTracker(text, { strict });
  let value: unknown;
  try {
    // json: true lets duplicate keys override instead of failing the whole body.
    // maxDepth counts js-yaml's nodes, one more than containers for the scalar inside and
    // one for the document; tooDeepAt below holds the exact bound.
    const options = { schema: GO_YAML_SCHEMA, json: true, listener: tracker.listener, maxDepth: MAX_DEPTH + 2 };
    value = yaml.load(text, options as yaml.LoadOptions);
  } catch (err) {
    if (isStatusError(err)) throw err;
    if (err instanceof YamlDecodeFailure || err instanceof TagMismatch) yamlError(err.message);
    if (err instanceof yaml.YAMLException) {
      if (err.reason.startsWith('nesting exceeded maxDepth')) yamlError(TOO_DEEP);
      yamlError(err.message.split('\n')[0]!);
    }
    // js-yaml's parser recurses; should the stack run out before maxDepth does,
    // the body is still only too deep.
    if (err instanceof RangeError) yamlError(TOO_DEEP);
    throw err;
  }
  if (value === undefined || value === null) return null;
  // Aliases can nest deeper than the text does.
  if (tooDeepAt(value) !== undefined) yamlError(TOO_DEEP);
  const tree = toJsonTree(value);
  if (strict && tracker.duplicates.length > 0) {
    // goyaml's TypeError, as YAMLToJSONStrict returns it (no sigs.k8s.io prefix).
    opts.strictErrors!.push(`yaml: unmarshal errors:\n  ${tracker.duplicates.join('\n  ')}`);
  }
  return tree;
}

export function encodeYaml(obj: unknown): Buffer {
  return Buffer.from(yaml.dump(obj, { schema: GO_YAML_DUMP_SCHEMA, sortKeys: true, noArrayIndent: true, lineWidth: -1 }), 'utf8');
}

export const yamlCodec: Codec = {
  mediaType: YAML_MEDIA_TYPE,
  decode: (body, opts) => decodeYaml(body, opts),
  encode: (obj) => encodeYaml(obj),
};
