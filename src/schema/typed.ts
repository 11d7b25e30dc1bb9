// Typed decoding of client objects against the schema table: what kube-apiserver
// gets for free by decoding JSON into Go structs. One walk per write, before any
// strategy, admission or storage code reads a field:
//   - a value of the wrong JSON type is refused with Go's encoding/json wording
//     (`json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name
//     of type string`), or the wording of the Go type's own UnmarshalJSON
//     (Quantity, Time, IntOrString, base64 bytes);
//   - nulls become what Go makes of them: an absent field, or the zero value of a
//     list item or map value, so nothing downstream meets a null it did not expect;
//   - fields the schema does not declare are reported (fieldValidation), found
//     through own properties only, so `toString` or `__proto__` are never "known".
// The caller has already bounded the depth (codecs/), so recursion here is safe.
import { refName, type Definitions, type OpenApiSchema } from './definitions.js';
import { renderFieldPath, setOwnField } from './field-path.js';
import { goJsonType } from './object.js';
import { parseQuantity, QuantityParseError, QuantityRangeError } from './quantity.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** A value Go's decoder would refuse; `detail` is the decoder's error text. */
export class SchemaTypeError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'SchemaTypeError';
  }
}

export function isSchemaTypeError(err: unknown): err is SchemaTypeError {
  return err instanceof SchemaTypeError;
}

export interface TypedCheck {
  /** Paths of undeclared fields in the strict decoder's wording (`spec.containers[0].bar`), in document order. */
  readonly unknownFields: string[];
  /**
   * Removes the undeclared fields from the checked object, as decoding into Go
   * structs drops them. By reference, not by path: a field named `a.b`, `x[0]` or
   * the empty string cannot be found again from its rendered path.
   */
  dropUnknownFields(): void;
}

/**
 * Checks `obj` against the named definition and normalizes its nulls in place.
 * Throws SchemaTypeError at the first value Go would refuse (Go keeps the first
 * error too). An unknown definition name checks nothing and reports nothing.
 */
export function checkTyped(schemaName: string, obj: unknown, definitions: Definitions): TypedCheck {
  const schema = Object.hasOwn(definitions, schemaName) ? definitions[schemaName] : undefined;
  const unknownFields: string[] = [];
  const holders: UnknownField[] = [];
  const dropUnknownFields = (): void => {
    for (const u of holders) delete u.holder[u.key];
  };
  if (schema === undefined) return { unknownFields, dropUnknownFields };
  const w: Walk = { definitions, unknownFields, holders, path: [], fields: [], struct: '' };
  walk(w, { $ref: `#/definitions/${schemaName}` }, obj);
  return { unknownFields, dropUnknownFields };
}

interface UnknownField {
  readonly holder: Record<string, unknown>;
  readonly key: string;
}

interface Walk {
  readonly definitions: Definitions;
  readonly unknownFields: string[];
  /** Where each unknown field is, for dropUnknownFields. */
  readonly holders: UnknownField[];
  /** The JSON path (keys and indices), for unknown-field reports; map keys print as names, as the strict decoder does. */
  readonly path: (string | number)[];
  /** Go's error context: struct field names from the root, no indices or map keys. */
  readonly fields: string[];
  /** The Go struct whose field is being decoded. */
  struct: string;
}

interface Resolved {
  readonly schema: OpenApiSchema;
  /** The definition the schema came from, when it came through a `$ref`. */
  readonly name: string | undefined;
}

/** Follows `$ref` and the single-element `allOf: [{$ref}]` wrapper OpenAPI v3 uses. */
function resolve(w: Walk, schema: OpenApiSchema): Resolved | undefined {
  let s: OpenApiSchema | undefined = schema;
  let name: string | undefined;
  for (let hops = 0; s !== undefined && hops < 8; hops++) {
    if (s.$ref !== undefined) {
      name = refName(s.$ref);
      s = Object.hasOwn(w.definitions, name) ? w.definitions[name] : undefined;
    } else if (s.properties === undefined && s.allOf?.length === 1) {
      s = s.allOf[0];
    } else {
      return { schema: s, name };
    }
  }
  return undefined;
}

/** Go's name for a definition: `io.k8s.api.core.v1.PodSpec` -> `v1.PodSpec`. */
function goNamed(name: string): string {
  const parts = name.split('.');
  return parts.length < 2 ? name : `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
}

function structName(name: string | undefined): string {
  if (name === undefined) return '';
  return name.slice(name.lastIndexOf('.') + 1);
}

/** The Go type a schema decodes into, as reflect.Type.String() prints it. */
function goType(w: Walk, schema: OpenApiSchema): string {
  const r = resolve(w, schema);
  if (r === undefined) return 'interface {}';
  if (r.name !== undefined) return goNamed(r.name);
  const s = r.schema;
  switch (s.type) {
    case 'string':
      return s.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return s.format === 'int32' || s.format === 'int64' ? s.format : 'int';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return `[]${s.items === undefined ? 'interface {}' : goType(w, s.items)}`;
    default:
      if (typeof s.additionalProperties === 'object') return `map[string]${goType(w, s.additionalProperties)}`;
      return 'map[string]interface {}';
  }
}

/** encoding/json's UnmarshalTypeError text, with the struct context when there is one. */
function mismatch(w: Walk, found: string, type: string): never {
  if (w.struct === '' || w.fields.length === 0) throw new SchemaTypeError(`json: cannot unmarshal ${found} into Go value of type ${type}`);
  throw new SchemaTypeError(`json: cannot unmarshal ${found} into Go struct field ${w.struct}.${w.fields.join('.')} of type ${type}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const INT32 = 2 ** 31;
const INT64 = 2 ** 63;

function checkInteger(w: Walk, schema: OpenApiSchema, value: unknown): void {
  if (typeof value !== 'number') return mismatch(w, goJsonType(value), goType(w, schema));
  const bound = schema.format === 'int32' ? INT32 : INT64;
  if (!Number.isInteger(value) || value < -bound || value >= bound) mismatch(w, `number ${String(value)}`, goType(w, schema));
}

// --- Go types with their own UnmarshalJSON ---------------------------------------

/** resource.Quantity's UnmarshalJSON: a JSON number is read as its text, quoted text trimmed. */
function checkQuantity(value: unknown): void {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
  try {
    // Objects, lists and booleans reach ParseQuantity as their raw JSON: never a quantity.
    parseQuantity(text ?? '');
  } catch (err) {
    if (err instanceof QuantityParseError || err instanceof QuantityRangeError) throw new SchemaTypeError(err.message);
    throw err;
  }
}

const RFC3339 = '2006-01-02T15:04:05Z07:00';
/** The elements of Go's RFC 3339 layout, in order, with what each accepts. */
const RFC3339_ELEMENTS: readonly { readonly layout: string; readonly re: RegExp }[] = [
  { layout: '2006', re: /^\d{4}/ },
  { layout: '-', re: /^-/ },
  { layout: '01', re: /^\d{2}/ },
  { layout: '-', re: /^-/ },
  { layout: '02', re: /^\d{2}/ },
  { layout: 'T', re: /^[Tt]/ },
  { layout: '15', re: /^\d{2}/ },
  { layout: ':', re: /^:/ },
  { layout: '04', re: /^\d{2}/ },
  { layout: ':', re: /^:/ },
  // Go accepts fractional seconds after the seconds element even when the layout has none.
  { layout: '05', re: /^\d{2}(?:\.\d+)?/ },
  { layout: 'Z07:00', re: /^(?:[Zz]|[+-]\d{2}:\d{2})/ },
];

/** metav1.Time / MicroTime: a JSON string in RFC 3339, checked as time.Parse checks it. */
function checkTime(value: unknown): void {
  if (typeof value !== 'string') {
    throw new SchemaTypeError(`json: cannot unmarshal ${goJsonType(value)} into Go value of type string`);
  }
  let rest = value;
  const quoted = JSON.stringify(value);
  for (let i = 0; i < RFC3339_ELEMENTS.length; i++) {
    const element = RFC3339_ELEMENTS[i]!;
    const m = element.re.exec(rest);
    if (m === null) {
      throw new SchemaTypeError(`parsing time ${quoted} as "${RFC3339}": cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(element.layout)}`);
    }
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') throw new SchemaTypeError(`parsing time ${quoted}: extra text: ${JSON.stringify(rest)}`);
  const [month, day, hour, minute, second] = [value.slice(5, 7), value.slice(8, 10), value.slice(11, 13), value.slice(14, 16), value.slice(17, 19)].map(Number);
  const range = (what: string) => new SchemaTypeError(`parsing time ${quoted}: ${what} out of range`);
  if (month! < 1 || month! > 12) throw range('month');
  const year = Number(value.slice(0, 4));
  const days = new Date(Date.UTC(year, month!, 0)).getUTCDate();
  if (day! < 1 || day! > days) throw range('day');
  if (hour! > 23) throw range('hour');
  if (minute! > 59) throw range('minute');
  if (second! > 59) throw range('second');
}

/** intstr.IntOrString: a quoted string, or a JSON value decoded as int32. */
function checkIntOrString(value: unknown): void {
  if (typeof value === 'string') return;
  if (typeof value !== 'number') throw new SchemaTypeError(`json: cannot unmarshal ${goJsonType(value)} into Go value of type int32`);
  if (!Number.isInteger(value) || value < -INT32 || value >= INT32) {
    throw new SchemaTypeError(`json: cannot unmarshal number ${String(value)} into Go value of type int32`);
  }
}

const BASE64_CHAR = /^[A-Za-z0-9+/]$/;

/**
 * []byte fields: standard padded base64, as Go's base64.StdEncoding reads it (CR and
 * LF ignored; `=` only to pad the last quantum), refused with its CorruptInputError text.
 */
function checkBase64(value: string): void {
  const at: number[] = [];
  for (let i = 0; i < value.length; i++) if (value[i] !== '\r' && value[i] !== '\n') at.push(i);
  const n = at.length;
  const corrupt = (i: number) => new SchemaTypeError(`illegal base64 data at input byte ${i}`);
  for (let k = 0; k < n; k++) {
    const c = value[at[k]!]!;
    if (c === '=') {
      const q = k % 4;
      if (q === 3 && k + 1 === n) return;
      if (q === 2 && k + 2 === n && value[at[k + 1]!] === '=') return;
      throw corrupt(at[k]!);
    }
    if (!BASE64_CHAR.test(c)) throw corrupt(at[k]!);
  }
  if (n % 4 !== 0) throw corrupt(value.length);
}

/** Definitions whose Go type decodes itself; `opaque` ones take any JSON value (raw bytes). */
const SELF_DECODING: ReadonlyMap<string, (w: Walk, value: unknown) => void> = new Map<string, (w: Walk, value: unknown) => void>([
  ['io.k8s.apimachinery.pkg.api.resource.Quantity', (_w, v) => checkQuantity(v)],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.Time', (_w, v) => checkTime(v)],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', (_w, v) => checkTime(v)],
  ['io.k8s.apimachinery.pkg.util.intstr.IntOrString', (_w, v) => checkIntOrString(v)],
  ['io.k8s.apimachinery.pkg.runtime.RawExtension', () => undefined],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1', () => undefined],
]);

// --- the walk ---------------------------------------------------------------------

/** What Go leaves in a list item or map value that was null: the element type's zero value. */
function zeroValue(w: Walk, schema: OpenApiSchema): unknown {
  const r = resolve(w, schema);
  if (r === undefined) return null;
  if (r.name === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return '0';
  if (r.name !== undefined && SELF_DECODING.has(r.name)) return null;
  const s = r.schema;
  if (s['x-kubernetes-int-or-string'] === true || s.format === 'int-or-string') return 0;
  switch (s.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return s.properties === undefined && s.additionalProperties === undefined ? null : {};
    default:
      return null;
  }
}

function walk(w: Walk, schema: OpenApiSchema, value: unknown): void {
  const r = resolve(w, schema);
  if (r === undefined) return;
  const s = r.schema;
  if (r.name !== undefined) {
    const own = SELF_DECODING.get(r.name);
    if (own !== undefined) return own(w, value);
  }
  if (s['x-kubernetes-int-or-string'] === true || s.format === 'int-or-string') return checkIntOrString(value);
  switch (s.type) {
    case 'string':
      if (typeof value !== 'string') return mismatch(w, goJsonType(value), goType(w, schema));
      if (s.format === 'byte') checkBase64(value);
      return;
    case 'integer':
      return checkInteger(w, s, value);
    case 'number':
      if (typeof value !== 'number') mismatch(w, goJsonType(value), goType(w, schema));
      return;
    case 'boolean':
      if (typeof value !== 'boolean') mismatch(w, goJsonType(value), goType(w, schema));
      return;
    case 'array':
      if (!Array.isArray(value)) return mismatch(w, goJsonType(value), goType(w, schema));
      return walkArray(w, s, value);
    default:
      return walkObject(w, r, schema, value);
  }
}

function walkArray(w: Walk, s: OpenApiSchema, value: unknown[]): void {
  const items = s.items;
  if (items === undefined) return;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === null) {
      value[i] = zeroValue(w, items);
      continue;
    }
    w.path.push(i);
    walk(w, items, value[i]);
    w.path.pop();
  }
}

function walkObject(w: Walk, r: Resolved, schema: OpenApiSchema, value: unknown): void {
  const s = r.schema;
  const props = s.properties;
  const additional = s.additionalProperties;
  // An object schema that declares neither properties nor a value schema is opaque in
  // Kubernetes (RawExtension, FieldsV1, apiextensions JSON): its Go type takes raw
  // JSON of any shape, so nothing inside is checked.
  if (props === undefined && typeof additional !== 'object') return;
  if (!isPlainObject(value)) return mismatch(w, goJsonType(value), goType(w, schema));
  if (props === undefined) return walkMap(w, additional as OpenApiSchema, value);
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const open = s['x-kubernetes-preserve-unknown-fields'] === true || additional === true;
  const outerStruct = w.struct;
  const struct = structName(r.name) || outerStruct;
  for (const key of Object.keys(value)) {
    const child = value[key];
    const declared = Object.hasOwn(props, key) ? props[key] : embedded && key === 'metadata' ? { $ref: `#/definitions/${OBJECT_META}` } : undefined;
    if (declared !== undefined) {
      // Go leaves a field that was null at its zero value, which omitempty drops.
      if (child === null) {
        delete value[key];
        continue;
      }
      w.path.push(key);
      w.fields.push(key);
      w.struct = struct;
      walk(w, declared, child);
      w.struct = outerStruct;
      w.fields.pop();
      w.path.pop();
    } else if (embedded && (key === 'apiVersion' || key === 'kind')) {
      if (child !== null && typeof child !== 'string') {
        w.struct = struct;
        w.fields.push(key);
        mismatch(w, goJsonType(child), 'string');
      }
    } else if (typeof additional === 'object') {
      walkMapEntry(w, additional, value, key);
    } else if (!open) {
      w.path.push(key);
      w.unknownFields.push(renderFieldPath(w.path));
      w.holders.push({ holder: value, key });
      w.path.pop();
    }
  }
}

function walkMap(w: Walk, additional: OpenApiSchema, value: Record<string, unknown>): void {
  for (const key of Object.keys(value)) walkMapEntry(w, additional, value, key);
}

/** A map value: Go's error context stays on the map field (no key in the path). */
function walkMapEntry(w: Walk, additional: OpenApiSchema, value: Record<string, unknown>, key: string): void {
  const child = value[key];
  if (child === null) {
    // A client-named key is data: `value[key] =` would call the `__proto__` setter.
    setOwnField(value, key, zeroValue(w, additional));
    return;
  }
  w.path.push(key);
  walk(w, additional, child);
  w.path.pop();
}
