// The two groups of value errors kube adds after the schema's own (validate-values.ts):
// x-kubernetes-embedded-resource (apiextensions objectmeta.Validate:
// apiVersion and kind required and well formed, metadata through the caller's
// ObjectMeta rules) and x-kubernetes-list-type set/map uniqueness (listtype
// validation: the later item is the Duplicate; a third copy is not reported again).
// Pure functions of a value and the path the walk is at, made only on an error.
import { invalidValue, required, type FieldError, type FieldPath } from '../field-errors.js';
import { goJson, goValue, goValueText } from '../go-json.js';
import type { Structural } from './structural.js';

/** The caller's ObjectMeta rules for an embedded resource's metadata (registry/ owns them). */
export type MetadataCheck = (metadata: unknown, at: FieldPath) => FieldError[];

// --- x-kubernetes-embedded-resource (group 2) ---------------------------------

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** validateEmbeddedResource: apiVersion and kind required (an empty object too), metadata through the hook. */
export function embeddedResourceErrors(at: () => FieldPath, v: Record<string, unknown>, metadata: MetadataCheck | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let p: FieldPath | undefined;
  const here = (): FieldPath => (p ??= at());
  if (!Object.hasOwn(v, 'apiVersion')) errs.push(required(here().child('apiVersion')));
  if (!Object.hasOwn(v, 'kind')) errs.push(required(here().child('kind')));
  for (const key in v) {
    if (!Object.hasOwn(v, key)) continue;
    const x = v[key];
    if (key === 'apiVersion') {
      const detail = typeof x !== 'string' ? 'must be a string' : x === '' ? 'must not be empty' : groupVersionError(x);
      if (detail !== undefined) errs.push(invalidValue(here().child(key), goValue(x), detail));
    } else if (key === 'kind') {
      const detail = typeof x !== 'string' ? 'must be a string' : x === '' ? 'must not be empty' : kindError(x);
      if (detail !== undefined) errs.push(invalidValue(here().child(key), goValue(x), detail));
    } else if (key === 'metadata' && metadata !== undefined) {
      errs.push(...metadata(x, here().child(key)));
    }
  }
  return errs;
}

/** schema.ParseGroupVersion: at most one slash. */
function groupVersionError(apiVersion: string): string | undefined {
  if (apiVersion === '/' || apiVersion.indexOf('/') === apiVersion.lastIndexOf('/')) return undefined;
  return `unexpected GroupVersion string: ${apiVersion}`;
}

function kindError(kind: string): string | undefined {
  const lower = kind.toLowerCase();
  const errs: string[] = [];
  if (lower.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(lower)) errs.push(DNS1035_MESSAGE);
  return errs.length === 0 ? undefined : `may have mixed case, but should otherwise match: ${errs.join(',')}`;
}

// --- x-kubernetes-list-type (group 3) ---------------------------------------

const UNSPECIFIED = Symbol('unspecified key');

/** A set's items, or a map's keys: scalars by value, compounds by their JSON (map keys sorted, as Go marshals). */
function identity(x: unknown): unknown {
  return x !== null && typeof x === 'object' ? `json:${goJson(x)}` : x;
}

/** The first repeat of each value (a third copy is not reported again), as validateListSet. */
function firstRepeats(values: readonly unknown[]): number[] {
  const seen = new Map<unknown, number>();
  const repeats: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const id = identity(values[i]);
    const times = seen.get(id) ?? 0;
    seen.set(id, times + 1);
    if (times === 1) repeats.push(i);
  }
  return repeats;
}

/** validateListSet / validateListMap of a list-type set or map; nothing for other lists. */
export function listTypeErrors(node: Structural, at: () => FieldPath, v: unknown[]): FieldError[] {
  if (node.extensions.listType === 'set') return setErrors(at, v);
  if (node.extensions.listType === 'map') return mapErrors(at, node.extensions.listMapKeys ?? [], v);
  return [];
}

function setErrors(at: () => FieldPath, v: unknown[]): FieldError[] {
  if (v.length <= 1) return [];
  const p = at();
  return firstRepeats(v).map((i) => duplicateAt(p.index(i), v[i]));
}

function mapErrors(at: () => FieldPath, keys: readonly string[], v: unknown[]): FieldError[] {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x !== null && (typeof x !== 'object' || Array.isArray(x))) {
      return [invalidValue(at().index(i), goValue(x), 'must be an object for an array of list-type map')];
    }
  }
  if (v.length <= 1) return [];
  const single = keys.length === 1 ? keys[0]! : undefined;
  const ids = v.map((x) => {
    const item = x as Record<string, unknown> | null;
    if (single !== undefined) return item !== null && Object.hasOwn(item, single) ? item[single] : UNSPECIFIED;
    const key: Record<string, unknown> = {};
    if (item !== null) for (const k of keys) if (Object.hasOwn(item, k)) defineOwn(key, k, item[k]);
    return key;
  });
  const p = at();
  return firstRepeats(ids).map((i) => {
    const id = ids[i];
    if (single === undefined) return duplicateAt(p.index(i), id);
    const shown: Record<string, unknown> = {};
    if (id !== UNSPECIFIED) defineOwn(shown, single, id);
    return duplicateAt(p.index(i), shown);
  });
}

function duplicateAt(p: FieldPath, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field: p.toString(), message: `${p}: Duplicate value: ${goValueText(value)}` };
}

function defineOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

