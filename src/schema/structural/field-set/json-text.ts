// Text forms of values inside field-set path elements. The strings kube stores in
// `fieldsV1` (`k:{"name":"c"}`, `v:"x"`) are compared byte for byte by every client
// that reads managedFields, so they must be spelled exactly as structured-merge-diff
// spells them: its serializer writes key-field NAMES with a plain JSON string writer
// (no HTML escaping) and VALUES with an encoding/json-compatible one (HTML escaping,
// U+2028/U+2029 escaped, map keys sorted). Conflict messages print paths with Go's
// fmt verbs (%q strings, %v numbers), reproduced here too.

import { goJson, goJsonString } from '../../go-json.js';

/** A JSON value as a path element carries it (list-map key values, set items). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A key-field name inside `k:{...}`: quotes, backslashes and control characters only. */
export function encodeName(s: string): string {
  return goJsonString(s, false);
}

/** A value as structured-merge-diff writes it: encoding/json's text (schema/go-json.ts). */
export function encodeValue(v: JsonValue): string {
  return goJson(v);
}
