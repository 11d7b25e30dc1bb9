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
import { MAX_DEPTH } from './depth.js';
import { wellFormedString } from './well-formed.js';
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
 * tree (nothing downstream expects two paths to one object). Its depth and size
 * are bounded as it goes, so the recursion is too. Numbers JSON cannot carry fail
 * here, as Go's json.Marshal fails in YAMLToJSON.
 */
function toJsonTree(value: unknown, budget: TreeBudget, depth: number): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badRequest(`${PREFIX}json: unsupported value: ${Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf'}`);
    return value;
  }
  // A "\ud800" escape in a double-quoted scalar: U+FFFD, as a Go decoder would hold.
  if (typeof value === 'string') return wellFormedString(value);
  if (value === null || typeof value !== 'object') return value;
  // Aliases share nodes, so a tree can be far larger and deeper than its text: both
  // are bounded here as well as by the tracker, so no input can make this walk explode.
  if (depth > MAX_DEPTH) yamlError(TOO_DEEP);
  if (++budget.nodes > budget.limit) yamlError('document contains excessive aliasing');
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = toJsonTree(value[i], budget, depth + 1);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = toJsonTree((value as Record<string, unknown>)[key], budget, depth + 1);
    // A "__proto__" key is data: defineProperty, where plain assignment would set the prototype.
    Object.defineProperty(out, wellFormedString(key), { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

interface TreeBudget {
  nodes: number;
  readonly limit: number;
}

/**
 * goyaml's aliasing rule lets a document decode at most a few million nodes
 * (4,000,000 steps at a 10% alias share); a body without aliases has fewer nodes
 * than bytes. Past both, the tracker has been bypassed and the answer is its answer.
 */
const MAX_TREE_NODES = 4_000_000;

export function decodeYaml(body: Buffer, opts?: DecodeOptions): unknown {
  // A leading byte-order mark is dropped here, not by js-yaml: the tracker reads the
  // same text js-yaml parses, and their offsets must agree (goyaml reads a BOM too).
  const decoded = body.toString('utf8');
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  const strict = opts?.strictErrors !== undefined;
  const tracker = createYamlTracker(text, { strict });
  let value: unknown;
  try {
    // json: true lets duplicate keys override instead of failing the whole body.
    // maxDepth counts js-yaml's nodes, one more than containers for the scalar inside and
    // one for the document; toJsonTree below holds the exact bound.
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
  const tree = toJsonTree(value, { nodes: 0, limit: MAX_TREE_NODES + text.length }, 1);
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
