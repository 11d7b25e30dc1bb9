// Path elements: one step from a value to a child (structured-merge-diff's
// fieldpath.PathElement). A field of a map or struct (`f:`), an associative-list
// item by its key fields (`k:`), a set item by its value (`v:`), or a list index
// (`i:`). Elements have one total order, the one SMD keeps sets sorted by and
// writes fieldsV1 in: every field before every key before every value before
// every index, and within a kind by name, key fields, value or number.
import { compareGoStrings as compareStrings } from '../../go-strings.js';
import { goNumber, wellFormed } from '../../go-json.js';
import { goQuote } from '../../go-quote.js';
import { encodeName, encodeValue, type JsonValue } from './json-text.js';

export interface FieldElement {
  readonly kind: 'field';
  readonly name: string;
}

/** One field of a list-map key; a key's fields are sorted by name. */
export interface KeyField {
  readonly name: string;
  readonly value: JsonValue;
}

export interface KeyElement {
  readonly kind: 'key';
  readonly fields: readonly KeyField[];
}

export interface ValueElement {
  readonly kind: 'value';
  readonly value: JsonValue;
}

/**
 * An index. Kube's typed field sets never hold one (an atomic list is owned as a
 * whole, a granular one by key or value); SMD writes them only for values walked
 * without a schema. Kept so any stored fieldsV1 reads and writes back unchanged.
 */
export interface IndexElement {
  readonly kind: 'index';
  readonly index: number;
}

export type PathElement = FieldElement | KeyElement | ValueElement | IndexElement;
export type Path = readonly PathElement[];

export function fieldElement(name: string): FieldElement {
  return Object.freeze({ kind: 'field', name: wellFormed(name) });
}

/** A key from its fields, in any order (a record or a list of fields). */
export function keyElement(fields: Readonly<Record<string, JsonValue>> | readonly KeyField[]): KeyElement {
  const list: KeyField[] = Array.isArray(fields)
    ? (fields as readonly KeyField[]).map((f) => Object.freeze({ name: wellFormed(f.name), value: normalizeValue(f.value) }))
    : Object.keys(fields).map((name) => Object.freeze({ name: wellFormed(name), value: normalizeValue((fields as Record<string, JsonValue>)[name]!) }));
  // Stable, like SMD's FieldList.Sort, so the order of equal names is the caller's.
  list.sort((a, b) => compareStrings(a.name, b.name));
  return Object.freeze({ kind: 'key', fields: Object.freeze(list) });
}

export function valueElement(value: JsonValue): ValueElement {
  return Object.freeze({ kind: 'value', value: normalizeValue(value) });
}

export function indexElement(index: number): IndexElement {
  return Object.freeze({ kind: 'index', index });
}

/** Strings made well formed all the way down (see wellFormed); everything else as given. */
function normalizeValue(v: JsonValue): JsonValue {
  if (typeof v === 'string') return wellFormed(v);
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return Object.freeze((v as readonly JsonValue[]).map(normalizeValue));
  const out: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
  const obj = v as { readonly [key: string]: JsonValue };
  for (const k of Object.keys(obj)) out[wellFormed(k)] = normalizeValue(obj[k]!);
  return Object.freeze(out);
}

const KIND_ORDER: Readonly<Record<PathElement['kind'], number>> = { field: 0, key: 1, value: 2, index: 3 };

export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as FieldElement).name);
    case 'key':
      return compareKeys(a.fields, (b as KeyElement).fields);
    case 'value':
      return compareValues(a.value, (b as ValueElement).value);
    case 'index':
      return Math.sign(a.index - (b as IndexElement).index);
  }
}

export function elementsEqual(a: PathElement, b: PathElement): boolean {
  return compareElements(a, b) === 0;
}

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareStrings(a[i]!.name, b[i]!.name) || compareValues(a[i]!.value, b[i]!.value);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

// SMD's total order of values across types: numbers, strings, booleans, lists,
// maps, null. Go keeps ints and floats apart but compares them numerically, which
// is what one JavaScript number does.
const TYPE_ORDER = { number: 0, string: 1, boolean: 2, list: 3, map: 4, null: 5 } as const;

function typeOf(v: JsonValue): keyof typeof TYPE_ORDER {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'map' : (typeof v as 'number' | 'string' | 'boolean');
}

export function compareValues(a: JsonValue, b: JsonValue): number {
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (ta !== tb) return TYPE_ORDER[ta] - TYPE_ORDER[tb];
  switch (ta) {
    case 'number':
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 'string':
      return compareStrings(a as string, b as string);
    case 'boolean':
      return a === b ? 0 : a === false ? -1 : 1;
    case 'list':
      return compareLists(a as readonly JsonValue[], b as readonly JsonValue[]);
    case 'map':
      return compareMaps(a as Record<string, JsonValue>, b as Record<string, JsonValue>);
    case 'null':
      return 0;
  }
}

function compareLists(a: readonly JsonValue[], b: readonly JsonValue[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

/** Maps zipped in key order; the first key only one side has decides (SMD's MapCompare). */
function compareMaps(a: Readonly<Record<string, JsonValue>>, b: Readonly<Record<string, JsonValue>>): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const keys = [...new Set([...ka, ...kb])].sort(compareStrings);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i === ka.length) return -1;
    if (i === kb.length) return 1;
    if (!Object.hasOwn(a, k)) return 1;
    if (!Object.hasOwn(b, k)) return -1;
    const c = compareValues(a[k]!, b[k]!);
    if (c !== 0) return c;
  }
  return 0;
}

/** The element as a fieldsV1 member name: `f:name`, `k:{"name":"c"}`, `v:"x"`, `i:0`. */
export function serializeElement(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `f:${e.name}`;
    case 'key':
      return `k:{${e.fields.map((f) => `${encodeName(f.name)}:${encodeValue(f.value)}`).join(',')}}`;
    case 'value':
      return `v:${encodeValue(e.value)}`;
    case 'index':
      return `i:${e.index}`;
  }
}

/** The element as SMD prints it in conflict messages: `.name`, `[name="c"]`, `[="x"]`, `[0]`. */
export function elementString(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `.${e.name}`;
    case 'key':
      return `[${e.fields.map((f) => `${f.name}=${valueString(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${valueString(e.value)}]`;
    case 'index':
      return `[${e.index}]`;
  }
}

/** A path as SMD prints it: `.spec.template.spec.containers[name="c"].image`. */
export function pathString(path: Path): string {
  return path.map(elementString).join('');
}

/** SMD's value.ToString. Go prints a map in its iteration order; sorted keys here. */
function valueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${(v as readonly JsonValue[]).map(valueString).join(',')}]`;
  const obj = v as { readonly [key: string]: JsonValue };
  return Object.keys(obj).sort(compareStrings).map((k) => `${k}=${valueString(obj[k]!)}`).join('');
}
