// The `fieldsV1` format: how a managedFields entry stores its field set (SMD's
// Set.ToJSON / FromJSON). A set level is a JSON object whose member names are
// serialized path elements; an element's value is the object for what is owned
// below it, `{}` when nothing is, and a `"."` entry marks an element that is owned
// itself as well as things below it. Member order is the element order (fields,
// keys, values, indexes), so the JSON kube writes is deterministic.
//
// fieldsV1 arrives from clients (a managedFields update) and from storage, so the
// reader refuses, with a FieldsV1Error, anything that is not that format: it never
// recurses past MAX_FIELD_SET_DEPTH, keys are data (a `__proto__` member is just
// an element name that fails or passes like any other), and it reads own members only.
import { compareElements, fieldElement, indexElement, keyElement, type KeyField, type PathElement, serializeElement, valueElement } from './element.js';
import type { JsonValue } from './json-text.js';
import { EMPTY_FIELD_SET, type FieldSet, type FieldSetChild, isEmpty, makeFieldSet, MAX_FIELD_SET_DEPTH, union } from './set.js';

/** fieldsV1 JSON: members named by serialized path elements, or `.`. */
export interface FieldsV1 {
  readonly [member: string]: FieldsV1;
}

/** The fieldsV1 kube would store for this set, member order included. */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  // Every member name carries a type prefix (`f:` …) or is `.`, so none can be a
  // prototype member; a plain object keeps the output ordinary JSON for callers.
  const out: Record<string, FieldsV1> = {};
  if (includeSelf) out['.'] = {};
  let m = 0;
  let c = 0;
  const { members, children } = set;
  while (m < members.length || c < children.length) {
    const order = m >= members.length ? 1 : c >= children.length ? -1 : compareElements(members[m]!, children[c]!.element);
    if (order < 0) {
      out[serializeElement(members[m++]!)] = {};
    } else {
      const child = children[c++]!;
      if (order === 0) m++;
      out[serializeElement(child.element)] = emit(child.set, order === 0);
    }
  }
  return out;
}

export class FieldsV1Error extends Error {
  override readonly name = 'FieldsV1Error';
  /** The member names leading to the refused entry, outermost first. */
  readonly at: readonly string[];

  constructor(message: string, at: readonly string[]) {
    super(at.length === 0 ? `invalid fieldsV1: ${message}` : `invalid fieldsV1 at ${JSON.stringify(at)}: ${message}`);
    this.at = at;
  }
}

export interface FromFieldsV1Options {
  /**
   * A member whose type prefix is not `f`, `k`, `v` or `i`. SMD skips these (a
   * later version may define them); by default we refuse them as garbage, since no
   * Kubernetes release writes any. 'drop' skips them like SMD.
   */
  readonly unknownElements?: 'refuse' | 'drop';
}

/** Reads fieldsV1 JSON (already parsed); throws FieldsV1Error for anything else. */
export function fromFieldsV1(json: unknown, options: FromFieldsV1Options = {}): FieldSet {
  const at: string[] = [];
  return read(json, at, options.unknownElements ?? 'refuse').set;
}

interface Level {
  readonly set: FieldSet;
  readonly isMember: boolean;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function read(json: unknown, at: string[], unknown: 'refuse' | 'drop'): Level {
  if (!isPlainObject(json)) throw new FieldsV1Error(`expected an object, got ${describe(json)}`, at);
  if (at.length > MAX_FIELD_SET_DEPTH) throw new FieldsV1Error(`nested deeper than ${MAX_FIELD_SET_DEPTH} levels`, at.slice(0, 8));
  const members: PathElement[] = [];
  const children: FieldSetChild[] = [];
  let self = false;
  let sawElement = false;
  for (const name of Object.keys(json)) {
    const value = json[name];
    at.push(name);
    if (name === '.') {
      // SMD skips whatever follows `.`; only `{}` is ever written, so only that is read.
      if (!isPlainObject(value) || Object.keys(value).length !== 0) throw new FieldsV1Error('"." must be {}', at);
      self = true;
    } else {
      const element = parseElement(name, at);
      if (element === undefined) {
        if (unknown === 'refuse') throw new FieldsV1Error('unknown path element type', at);
      } else {
        sawElement = true;
        const below = read(value, at, unknown);
        if (below.isMember) members.push(element);
        if (!isEmpty(below.set)) children.push({ element, set: below.set });
      }
    }
    at.pop();
  }
  // A level with no elements (`{}`, or only `.`) is an owned leaf; otherwise the
  // element above is owned itself only when `.` says so.
  return { set: sorted(members, children), isMember: self || !sawElement };
}

/**
 * Sorts what one level read. Two spellings of one element (`i:1` and `i:01`, key
 * fields in another order) are one element: members once, child sets united.
 */
function sorted(members: PathElement[], children: FieldSetChild[]): FieldSet {
  members.sort(compareElements);
  children.sort((a, b) => compareElements(a.element, b.element));
  const m = members.filter((e, i) => i === 0 || compareElements(members[i - 1]!, e) !== 0);
  const c: FieldSetChild[] = [];
  for (const child of children) {
    const last = c[c.length - 1];
    if (last !== undefined && compareElements(last.element, child.element) === 0) {
      c[c.length - 1] = Object.freeze({ element: last.element, set: union(last.set, child.set) });
    } else {
      c.push(Object.freeze(child));
    }
  }
  return m.length === 0 && c.length === 0 ? EMPTY_FIELD_SET : makeFieldSet(m, c);
}

/** How deep a value inside `k:` or `v:` may nest; real keys and set items are scalars. */
const MAX_VALUE_DEPTH = 32;

/** One member name as a path element; undefined for a well-formed but unknown type. */
export function parseElement(name: string, at: readonly string[] = [name]): PathElement | undefined {
  if (name.length < 2 || name[1] !== ':') throw new FieldsV1Error('member name is not "<type>:<content>"', at);
  const content = name.slice(2);
  switch (name[0]) {
    case 'f':
      return fieldElement(content);
    case 'v':
      return valueElement(parseJsonValue(content, at));
    case 'k': {
      const key = parseJsonValue(content, at);
      if (!isPlainObject(key)) throw new FieldsV1Error('a key must be a JSON object', at);
      const fields: KeyField[] = Object.keys(key).map((n) => ({ name: n, value: key[n] as JsonValue }));
      // SMD reads an empty key, but never writes one: a key names at least one field.
      if (fields.length === 0) throw new FieldsV1Error('a key must name at least one field', at);
      return keyElement(fields);
    }
    case 'i': {
      // Go's strconv.Atoi: an optional sign, decimal digits.
      if (!/^[+-]?\d{1,16}$/.test(content)) throw new FieldsV1Error('an index must be a decimal integer', at);
      const index = Number(content);
      if (!Number.isSafeInteger(index)) throw new FieldsV1Error('index out of range', at);
      return indexElement(index === 0 ? 0 : index);
    }
    default:
      return undefined;
  }
}

function parseJsonValue(text: string, at: readonly string[]): JsonValue {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new FieldsV1Error(`malformed JSON in element: ${(err as Error).message}`, at);
  }
  if (!withinDepth(value, MAX_VALUE_DEPTH)) throw new FieldsV1Error(`element value nested deeper than ${MAX_VALUE_DEPTH} levels`, at);
  return value as JsonValue;
}

/** Stops descending at the limit, so its own recursion is bounded too. */
function withinDepth(v: unknown, left: number): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (left === 0) return false;
  const items = Array.isArray(v) ? v : Object.values(v);
  return items.every((item) => withinDepth(item, left - 1));
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'a non-plain object' : `a ${typeof v}`;
}
