// RFC 7386 JSON merge patch (application/merge-patch+json): objects merge key by
// key, null deletes, anything else (lists included) replaces. Decoding follows
// kube's patch handler: with fieldValidation Strict or Warn the body is first
// decoded strictly into a map ("error decoding patch: ..."), and evanphx/json-patch
// refuses bodies that are not JSON, null or a scalar ("Invalid JSON Patch"). An
// array is a valid merge patch that replaces the whole document; the result then
// fails to decode as the kind.
import { patchUndecodable } from './errors.js';
import { getOwn, goJsonType, isJsonMap, parseJson, setOwn, type Json, type JsonMap } from './json.js';

const BAD_MERGE_PATCH = 'Invalid JSON Patch';

export function decodeMergePatch(body: Buffer | string, opts: { strict: boolean }): Json {
  const parsed = parseJson(body);
  if (opts.strict) {
    if (!parsed.ok) throw patchUndecodable(`error decoding patch: ${parsed.message}`);
    if (!isJsonMap(parsed.value) && parsed.value !== null) {
      throw patchUndecodable(`error decoding patch: json: cannot unmarshal ${goJsonType(parsed.value)} into Go value of type map[string]interface {}`);
    }
  }
  if (!parsed.ok || parsed.value === null) throw patchUndecodable(BAD_MERGE_PATCH);
  if (!isJsonMap(parsed.value) && !Array.isArray(parsed.value)) throw patchUndecodable(BAD_MERGE_PATCH);
  return parsed.value;
}

/** Nulls mean "delete" only against a target; a value with no target keeps none of them. */
function withoutNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isJsonMap(value)) return value;
  const out: JsonMap = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) setOwn(out, k, withoutNulls(v));
  return out;
}

/**
 * The merge of `patch` into `target`; neither input is changed. Keys are own
 * members only (a `__proto__` key is merged as data). The result is never deeper
 * than the deeper of its inputs, so decode-time depth bounds hold after it.
 */
export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isJsonMap(patch)) return withoutNulls(patch);
  // Spread copies own enumerable members as data, `__proto__` included.
  const out: JsonMap = isJsonMap(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setOwn(out, key, mergePatch(getOwn(out, key), value));
  }
  return out;
}
