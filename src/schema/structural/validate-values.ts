// Value validation of a decoded object against its compiled schema: what
// kube-apiserver runs on every custom resource write after pruning and defaulting
// (apiextensions-apiserver customResourceStrategy.Validate), in its order:
//   1. the OpenAPI value validations, as kube-openapi's SchemaValidator judges them
//      (pkg/validation/validate: schema.go, type.go, schema_props.go, validator.go,
//      values.go, slice_validator.go, object_validator.go) and as
//      kubeOpenAPIResultToFieldErrors (pkg/apiserver/validation/validation.go)
//      turns its results into field errors;
//   2. apiVersion, kind and metadata of x-kubernetes-embedded-resource objects
//      (pkg/apiserver/schema/objectmeta/validation.go);
//   3. x-kubernetes-list-type set and map uniqueness
//      (pkg/apiserver/schema/listtype/validation.go).
// One walk of the value fills the three lists. Go walks maps in random order; we
// walk members in document order, so the result is deterministic.
//
// The paths of group 1 are kube-openapi's own text (`spec.items[0].name`, and a
// map value `spec.labels.key`, a dot, not `[key]`), given whole to field.Path.Child
// as kube does; groups 2 and 3 use field.Path (`spec.labels[key]`). Errors that
// kube-openapi raises without a field name (allOf/anyOf/oneOf/not, numeric range)
// land on the caller's path, which is nil for a custom resource: `<nil>`.
//
// Past the house limit on purpose (about 680 lines): kube-openapi's validator
// order, match counting and path texts share one walk and only make sense read
// together. The string formats are in formats.ts, the embedded-resource and
// list-type groups in resource-checks.ts, Go's value texts in schema/go-json.ts.
import { RE2JS } from 're2js';
import { checkStringFormat, isKnownFormat } from './formats.js';
import { goFloat, goJson, goValue, isInt64 } from '../go-json.js';
import { embeddedResourceErrors, listTypeErrors } from './resource-checks.js';
import { FieldPath, goLiteral, invalidValue, notSupported, path, required, tooLong, tooMany, typeInvalid, type FieldError } from '../field-errors.js';
import { goQuote } from '../go-quote.js';
import { SELF_DECODING } from '../typed-values.js';
import type { NestedValueValidation, Structural, ValueValidation } from './structural.js';

export interface ValidateValuesOptions {
  /**
   * Where the value sits (kube's fldPath). Unset for a custom resource, as kube
   * validates one: errors without a field name then print as `<nil>`.
   */
  readonly path?: FieldPath;
  /**
   * Checks an embedded resource's `metadata` as ObjectMeta (name, namespace,
   * labels, annotations); ObjectMeta rules live in registry/, above this layer.
   * Unset: embedded metadata is not checked.
   */
  readonly validateEmbeddedMetadata?: (metadata: unknown, path: FieldPath) => FieldError[];
}

/** The three groups, each in document order. */
export interface ValueErrors {
  readonly schema: FieldError[];
  readonly embedded: FieldError[];
  readonly listTypes: FieldError[];
}

/** Every value error of `value` under `node`, in kube's order (see the file header). */
export function validateValues(node: Structural, value: unknown, options: ValidateValuesOptions = {}): FieldError[] {
  const { schema, embedded, listTypes } = validateValueGroups(node, value, options);
  if (embedded.length === 0 && listTypes.length === 0) return schema;
  return [...schema, ...embedded, ...listTypes];
}

/** The same errors by group; defaulting's check (validateDefaults) reads them apart, as kube does. */
export function validateValueGroups(node: Structural, value: unknown, options: ValidateValuesOptions = {}): ValueErrors {
  const w: Walk = { base: options.path, steps: [], keyed: [], embedded: undefined, listTypes: undefined, metadata: options.validateEmbeddedMetadata };
  const sink = new Sink();
  checkValue(w, sink, node, value);
  return { schema: dedupe(sink.errors ?? []), embedded: w.embedded ?? [], listTypes: w.listTypes ?? [] };
}

type Shape = Structural | NestedValueValidation;

interface Walk {
  readonly base: FieldPath | undefined;
  /** The value's path: member names, map keys and indices, pushed and popped as the walk goes. */
  readonly steps: (string | number)[];
  /** Beside steps: whether a name is a map key (additionalProperties), printed differently. */
  readonly keyed: boolean[];
  embedded: FieldError[] | undefined;
  listTypes: FieldError[] | undefined;
  readonly metadata: ValidateValuesOptions['validateEmbeddedMetadata'];
}

/**
 * Errors of one kube-openapi Result and its MatchCount: how many validators ran
 * and passed. anyOf/oneOf report the failing branch that matched most, so the
 * count is kept exactly as kube-openapi increments it.
 */
class Sink {
  errors: FieldError[] | undefined = undefined;
  count = 0;

  add(e: FieldError): void {
    (this.errors ??= []).push(e);
  }

  merge(other: Sink): void {
    if (other.errors !== undefined) for (const e of other.errors) this.add(e);
  }
}

/** kube-openapi's Result keeps one error per message text (AddErrors). */
function dedupe(errors: FieldError[]): FieldError[] {
  if (errors.length < 2) return errors;
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.message) && seen.add(e.message) !== undefined);
}

function isStructural(s: Shape): s is Structural {
  return (s as Structural).extensions !== undefined;
}

function push(w: Walk, step: string | number, keyed: boolean): void {
  w.steps.push(step);
  w.keyed.push(keyed);
}

function pop(w: Walk): void {
  w.steps.pop();
  w.keyed.pop();
}

/** kube-openapi's path text: `a.b`, `a[0]`, a map value `a.key` (a root map value `.key`). */
function nameOf(w: Walk): string {
  let s = '';
  for (let i = 0; i < w.steps.length; i++) {
    const step = w.steps[i]!;
    if (typeof step === 'number') s += `[${step}]`;
    else if (w.keyed[i]) s += `.${step}`;
    else s = s === '' ? step : `${s}.${step}`;
  }
  return s;
}

/** field.Path's `<nil>`: the text of a nil path (a custom resource's fldPath). */
const NIL_PATH = path('<nil>');

/** kubeOpenAPIResultToFieldErrors: fldPath.Child(name without one leading dot), or fldPath for no name. */
function errPath(w: Walk, name: string): FieldPath {
  if (name === '' || name === '.') return w.base ?? NIL_PATH;
  return (w.base ?? FieldPath.ROOT).child(name.startsWith('.') ? name.slice(1) : name);
}

/** An error kube-openapi raises without a field (errors.New): Invalid at fldPath with value "". */
function unnamed(w: Walk, message: string): FieldError {
  return invalidValue(w.base ?? NIL_PATH, '', message);
}

/** The value's field.Path, for the embedded-resource and list-type groups. */
function fieldPathOf(w: Walk): FieldPath {
  let p = w.base ?? FieldPath.ROOT;
  for (let i = 0; i < w.steps.length; i++) {
    const step = w.steps[i]!;
    p = typeof step === 'number' ? p.index(step) : w.keyed[i] ? p.key(step) : p.child(step);
  }
  return p;
}

const NO_TYPES: readonly string[] = Object.freeze([]);
const INT_OR_STRING: readonly string[] = Object.freeze(['integer', 'string']);
const SINGLE_TYPES = new Map<string, readonly string[]>();

/**
 * The schema's types as kube converts them for kube-openapi: int-or-string is
 * `[integer, string]` (the built-in table spells it `format: int-or-string`).
 * Built-in types that decode themselves (Quantity, Time, IntOrString, RawExtension)
 * are checked by typed decoding, which accepts more than their OpenAPI type says.
 */
function typesOf(node: Structural): readonly string[] {
  if (node.name !== undefined && SELF_DECODING.has(node.name)) return NO_TYPES;
  if (node.extensions.intOrString || node.format === 'int-or-string') return INT_OR_STRING;
  const t = node.type;
  if (t === undefined || t === '') return NO_TYPES;
  let list = SINGLE_TYPES.get(t);
  if (list === undefined) SINGLE_TYPES.set(t, (list = Object.freeze([t])));
  return list;
}

const formats = new WeakMap<Structural, string>();

/**
 * The format kube-openapi is given: apiextensions strips those it does not
 * support for the type (StripUnsupportedFormatsPostProcessorForVersion): string
 * formats of kube-openapi's registry, int32/int64, float/double.
 */
function formatOf(node: Structural, types: readonly string[]): string {
  const raw = node.format;
  if (raw === undefined || raw === '' || raw === 'int-or-string') return '';
  if (node.name !== undefined && SELF_DECODING.has(node.name)) return '';
  let format = formats.get(node);
  if (format === undefined) {
    const type = types.length === 1 ? types[0] : '';
    if (type === '' || type === 'string') format = isKnownFormat(raw) ? raw : '';
    else if (type === 'integer') format = raw === 'int32' || raw === 'int64' ? raw : '';
    else if (type === 'number') format = raw === 'float' || raw === 'double' ? raw : '';
    else format = '';
    formats.set(node, format);
  }
  return format;
}

/**
 * One SchemaValidator.Validate: errors into `sink`, the MatchCount returned. The
 * walk recurses once per level of the value through checkValue and checkMap or
 * checkList; both keep their frames small (rare work lives in helpers), so the
 * 1,000 levels decoding allows (codecs/depth.ts) stay far from the stack's end.
 */
function checkValue(w: Walk, sink: Sink, s: Shape, v: unknown): number {
  if (v === null || v === undefined) return checkNull(w, sink, s);
  if (typeof v !== 'object') return checkScalar(w, sink, s, v);
  return Array.isArray(v) ? checkList(w, sink, s, v) : checkMap(w, sink, s, v as Record<string, unknown>);
}

/** What every non-null value meets first: the type, then allOf/anyOf/oneOf/not (with the validators' increments). */
function checkHead(w: Walk, sink: Sink, s: Shape, v: unknown): number {
  let count = 2;
  if (isStructural(s)) {
    const types = typesOf(s);
    const format = formatOf(s, types);
    if (types.length > 0 || format !== '') count += checkType(w, sink, types, format, v) + 1;
  }
  return count + checkCombinators(w, sink, s.validation, v);
}

/** A string, number or boolean: string or format validators, or the number validator, then enum. */
function checkScalar(w: Walk, sink: Sink, s: Shape, v: unknown): number {
  let count = checkHead(w, sink, s, v) + 1;
  const vv = s.validation;
  const types = isStructural(s) ? typesOf(s) : NO_TYPES;
  const format = isStructural(s) ? formatOf(s, types) : '';
  if (typeof v === 'string') {
    if (vv !== undefined) checkString(w, sink, vv, v);
    count += 1;
    if (format !== '' && checkFormat(w, sink, format, v)) count += 1;
  } else if (typeof v === 'number') {
    checkNumber(w, sink, types, format, vv, v);
    count += 2;
  }
  if (vv?.enum !== undefined && vv.enum.length > 0) checkEnum(w, sink, vv.enum, v);
  return count;
}

/** A list: list-type uniqueness (its own group), then the slice validator, then enum. */
function checkList(w: Walk, sink: Sink, s: Shape, v: unknown[]): number {
  if (isStructural(s) && (s.extensions.listType === 'set' || s.extensions.listType === 'map')) {
    const errs = listTypeErrors(s, () => fieldPathOf(w), v);
    if (errs.length > 0) (w.listTypes ??= []).push(...errs);
  }
  let count = checkHead(w, sink, s, v) + 3;
  const items = s.items;
  if (items !== undefined) {
    for (let i = 0; i < v.length; i++) {
      push(w, i, false);
      count += checkValue(w, sink, items, v[i]);
      pop(w);
    }
  }
  const vv = s.validation;
  if (vv !== undefined) {
    checkItemCount(w, sink, vv, v);
    if (vv.enum !== undefined && vv.enum.length > 0) checkEnum(w, sink, vv.enum, v);
  }
  return count;
}

/**
 * An object: enum, embedded apiVersion/kind/metadata (their own group), then the
 * object validator: property counts, members in document order, required.
 */
function checkMap(w: Walk, sink: Sink, s: Shape, v: Record<string, unknown>): number {
  let count = checkHead(w, sink, s, v) + 2;
  const vv = s.validation;
  if (vv !== undefined) checkMapHead(w, sink, vv, v);
  if (isStructural(s) && s.extensions.embeddedResource) {
    const errs = embeddedResourceErrors(() => fieldPathOf(w), v, w.metadata);
    if (errs.length > 0) (w.embedded ??= []).push(...errs);
  }
  const props = s.properties as ReadonlyMap<string, Shape> | undefined;
  const additional = s.additionalProperties;
  // for-in over own keys: no key array per object, and inherited names are skipped.
  for (const key in v) {
    if (!Object.hasOwn(v, key)) continue;
    const prop = props?.get(key);
    if (prop !== undefined) {
      push(w, key, false);
      count += checkValue(w, sink, prop, v[key]);
      pop(w);
    } else if (typeof additional === 'object') {
      push(w, key, true);
      count += checkValue(w, sink, additional as Shape, v[key]);
      pop(w);
    } else if (additional === false) {
      forbidden(w, sink, key);
    }
  }
  if (vv?.required !== undefined) checkRequired(w, sink, vv.required, v);
  return count;
}

/** A null value meets only the type validator (refused unless nullable or untyped) and enum. */
function checkNull(w: Walk, sink: Sink, s: Shape): number {
  let count = 1;
  if (isStructural(s) && !s.nullable) {
    const types = typesOf(s);
    if (types.length > 0) {
      typeError(w, sink, types.join(','), 'null');
      count = 0;
    }
  }
  // kube-openapi never matches null against an enum, even one that lists null.
  const values = s.validation?.enum;
  if (values !== undefined && values.length > 0) checkEnum(w, sink, values, null);
  return count;
}

function typeError(w: Walk, sink: Sink, typeName: string, found: string): void {
  const name = nameOf(w);
  sink.add(typeInvalid(errPath(w, name), found, `${name} in body must be of type ${typeName}: ${goQuote(found)}`));
}

/**
 * typeValidator. A JSON integer is Go's int64 (format int64), any other number
 * float64. With a format, a non-string value is named by its Go format
 * (`must be of type int32: "float64"`), and a string or list passes a string format.
 */
function checkType(w: Walk, sink: Sink, types: readonly string[], format: string, v: unknown): number {
  const isArray = Array.isArray(v);
  let jsonType: string;
  let goFormat = '';
  switch (typeof v) {
    case 'string':
      jsonType = 'string';
      break;
    case 'boolean':
      jsonType = 'boolean';
      break;
    case 'number':
      jsonType = isInt64(v) ? 'integer' : 'number';
      goFormat = jsonType === 'integer' ? 'int64' : 'float64';
      break;
    default:
      jsonType = isArray ? 'array' : 'object';
  }
  const hasType = types.includes(jsonType);
  // An int64 passes `number`; Go's float64 that is a whole number never reaches
  // here as one (a whole JSON number is an integer to us).
  const intAsNumber = jsonType === 'integer' && types.includes('number');
  const stringLike = typeof v === 'string' || isArray;
  if (!stringLike && format !== '' && !(hasType || goFormat === format || intAsNumber)) {
    typeError(w, sink, format, goFormat);
    return 0;
  }
  if (format !== '' && stringLike && !types.includes('number') && !types.includes('integer')) return 1;
  if (!(hasType || intAsNumber)) {
    typeError(w, sink, types.join(','), jsonType);
    return 0;
  }
  return 1;
}


/** schemaPropsValidator: anyOf, oneOf, allOf, not, in kube-openapi's order and wording. */
function checkCombinators(w: Walk, sink: Sink, vv: ValueValidation | undefined, v: unknown): number {
  if (vv === undefined) return 1;
  let count = 1;
  if (vv.anyOf !== undefined && vv.anyOf.length > 0) {
    let best: Sink | undefined;
    let success: Sink | undefined;
    for (const branch of vv.anyOf) {
      const r = evaluate(w, branch, v);
      if (r.errors === undefined) {
        success = r;
        best = undefined;
        break;
      }
      if (best === undefined || r.count > best.count) best = r;
    }
    if (success === undefined) sink.add(unnamed(w, `${goQuote(nameOf(w))} must validate at least one schema (anyOf)`));
    count += mergeCounted(sink, best ?? success);
  }
  if (vv.oneOf !== undefined && vv.oneOf.length > 0) {
    let best: Sink | undefined;
    let first: Sink | undefined;
    let valid = 0;
    for (const branch of vv.oneOf) {
      const r = evaluate(w, branch, v);
      if (r.errors === undefined) {
        valid++;
        best = undefined;
        first ??= r;
      } else if (valid === 0 && (best === undefined || r.count > best.count)) {
        best = r;
      }
    }
    if (valid !== 1) {
      const found = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
      sink.add(unnamed(w, `${goQuote(nameOf(w))} must validate one and only one schema (oneOf). ${found}`));
      count += mergeCounted(sink, best);
    } else {
      count += mergeCounted(sink, first);
    }
  }
  if (vv.allOf !== undefined && vv.allOf.length > 0) {
    let valid = 0;
    for (const branch of vv.allOf) {
      const r = evaluate(w, branch, v);
      if (r.errors === undefined) valid++;
      count += mergeCounted(sink, r);
    }
    if (valid !== vv.allOf.length) {
      sink.add(unnamed(w, `${goQuote(nameOf(w))} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
    }
  }
  if (vv.not !== undefined && evaluate(w, vv.not, v).errors === undefined) {
    sink.add(unnamed(w, `${goQuote(nameOf(w))} must not validate the schema (not)`));
  }
  return count;
}

/** One branch of a combinator, validated on its own (the same value, the same path). */
function evaluate(w: Walk, branch: NestedValueValidation, v: unknown): Sink {
  const r = new Sink();
  r.count = checkValue(w, r, branch, v);
  return r;
}

/** Result.Merge: the branch's errors, and its MatchCount to add. */
function mergeCounted(sink: Sink, r: Sink | undefined): number {
  if (r === undefined) return 0;
  sink.merge(r);
  return r.count;
}

/** stringValidator: the first failing of maxLength, minLength, pattern (lengths in runes). */
function checkString(w: Walk, sink: Sink, vv: ValueValidation, v: string): void {
  if (vv.maxLength !== undefined && v.length > vv.maxLength && runeCount(v) > vv.maxLength) {
    sink.add(tooLongOf(errPath(w, nameOf(w)), vv.maxLength));
    return;
  }
  if (vv.minLength !== undefined && (v.length < vv.minLength || runeCount(v) < vv.minLength)) {
    const name = nameOf(w);
    sink.add(invalidValue(errPath(w, name), goValue(v), `${name} in body should be at least ${vv.minLength} chars long`));
    return;
  }
  if (vv.pattern === undefined || vv.pattern === '') return;
  const re = patternOf(vv);
  if (typeof re === 'string') {
    const name = nameOf(w);
    sink.add(invalidValue(errPath(w, name), goValue(v), `${name} in body should match '${vv.pattern}, but pattern is invalid: ${re}'`));
  } else if (!re.test(v)) {
    const name = nameOf(w);
    sink.add(invalidValue(errPath(w, name), goValue(v), `${name} in body should match '${vv.pattern}'`));
  }
}

/** Go's utf8.RuneCountInString: code points, a lone surrogate (invalid UTF-8 to Go) counting one. */
function runeCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** field.TooLong: `byte` for a limit of one. */
function tooLongOf(p: FieldPath, max: number): FieldError {
  if (max !== 1) return tooLong(p, max);
  return { type: 'FieldValueTooLong', field: p.toString(), message: `${p}: Too long: may not be more than 1 byte` };
}

/** field.TooMany: `item` for a limit of one. */
function tooManyOf(p: FieldPath, actual: number, max: number): FieldError {
  if (max !== 1) return tooMany(p, actual, max);
  return { type: 'FieldValueTooMany', field: p.toString(), message: `${p}: Too many: ${actual}: must have at most 1 item` };
}

// Patterns are compiled once per schema node. kube-openapi compiles them with Go's
// regexp (RE2 syntax and linear-time matching), not ECMA-262 as OpenAPI says;
// re2js is a port of the same engine, so what kube accepts and refuses is the same
// here: no lookaround or backreferences (a compile error in both), `(?i)` and
// `\z` accepted, `\d` and `\w` ASCII-only, `$` only at the end of the text. A JS
// RegExp would accept patterns kube refuses and backtrack exponentially on
// `(a+)+$`; re2js matches in time linear in the input, so no pattern can hang a write.
const patterns = new WeakMap<ValueValidation, RE2JS | string>();

/** The compiled pattern, or the compile error's text. */
function patternOf(vv: ValueValidation): RE2JS | string {
  let re = patterns.get(vv);
  if (re === undefined) {
    try {
      re = RE2JS.compile(vv.pattern!);
    } catch (err) {
      re = (err as Error).message;
    }
    patterns.set(vv, re);
  }
  return re;
}

/** formatValidator: answers whether it applied (a format kube-openapi's registry knows). */
function checkFormat(w: Walk, sink: Sink, format: string, v: string): boolean {
  const valid = checkStringFormat(format, v);
  if (valid === undefined) return false;
  if (!valid) {
    const name = nameOf(w);
    sink.add(typeInvalid(errPath(w, name), goValue(v), `${name} in body must be of type ${format}: ${goQuote(v)}`));
  }
  return true;
}

const MAX_FLOAT32 = 3.4028234663852886e38;

/** The single numeric type and format kube-openapi's numberValidator is given ('' for neither). */
function numericOf(types: readonly string[], format: string): { readonly type: string; readonly format: string } {
  if (types.length !== 1) return NO_NUMERIC;
  if (types[0] === 'integer') return format === 'int32' || format === 'int64' ? { type: 'integer', format } : INTEGER;
  if (types[0] === 'number') return format === 'float' || format === 'double' ? { type: 'number', format } : NUMBER;
  return NO_NUMERIC;
}

const NO_NUMERIC = { type: '', format: '' };
const INTEGER = { type: 'integer', format: '' };
const NUMBER = { type: 'number', format: '' };

/** IsValueValidAgainstRange: whether `x` converts to the type and format without loss. */
function fitsNumeric(x: number, type: string, format: string): boolean {
  if (type === 'integer') return Number.isInteger(x) && (format === 'int32' ? x >= -(2 ** 31) && x < 2 ** 31 : isInt64(x));
  if (format === 'float') return Math.abs(x) <= MAX_FLOAT32;
  return true;
}

function rangeError(w: Walk, what: string, numeric: { readonly type: string; readonly format: string }): FieldError {
  const kind = numeric.format === '' ? `${numeric.type} (default format)` : `${numeric.type} with format ${numeric.format}`;
  return unnamed(w, `${what} value must be of type ${kind} in ${nameOf(w)}`);
}

/**
 * numberValidator: range of the value, then multipleOf, minimum, maximum. An
 * int64 value meets bounds truncated to integers (Go's int64(bound)), a float
 * the bounds as written; a bound outside the type's range is itself an error.
 */
function checkNumber(w: Walk, sink: Sink, types: readonly string[], format: string, vv: ValueValidation | undefined, v: number): void {
  const numeric = numericOf(types, format);
  const int = isInt64(v);
  if (numeric.type !== '' && !fitsNumeric(v, numeric.type, numeric.format)) sink.add(rangeError(w, 'Checked', numeric));
  if (vv === undefined) return;
  if (vv.multipleOf !== undefined) {
    const ok = fitsNumeric(vv.multipleOf, numeric.type, numeric.format);
    if (!ok) sink.add(rangeError(w, 'MultipleOf', numeric));
    const factor = ok && int ? Math.trunc(vv.multipleOf) : vv.multipleOf;
    if (factor <= 0) {
      const name = nameOf(w);
      const shown = ok && int ? String(factor) : goFloat(factor);
      sink.add(invalidValue(errPath(w, name), goLiteral(shown), `factor MultipleOf declared for ${name} must be positive: ${shown}`));
    } else if (ok && int ? v % factor !== 0 : !isJsonInteger(factor < 1 ? (1 / factor) * v : v / factor)) {
      const name = nameOf(w);
      const shown = ok && int ? String(factor) : goFloat(factor);
      sink.add(invalidValue(errPath(w, name), goLiteral(ok && int ? String(v) : goFloat(v)), `${name} in body should be a multiple of ${shown}`));
    }
  }
  if (vv.minimum !== undefined) checkBound(w, sink, { v, int, numeric, bound: vv.minimum, exclusive: vv.exclusiveMinimum, min: true });
  if (vv.maximum !== undefined) checkBound(w, sink, { v, int, numeric, bound: vv.maximum, exclusive: vv.exclusiveMaximum, min: false });
}

interface Bound {
  readonly v: number;
  readonly int: boolean;
  readonly numeric: { readonly type: string; readonly format: string };
  readonly bound: number;
  readonly exclusive: boolean;
  readonly min: boolean;
}

function checkBound(w: Walk, sink: Sink, b: Bound): void {
  const ok = fitsNumeric(b.bound, b.numeric.type, b.numeric.format);
  if (!ok) sink.add(rangeError(w, b.min ? 'Minimum boundary' : 'Maximum boundary', b.numeric));
  const native = ok && b.int;
  const bound = native ? Math.trunc(b.bound) : b.bound;
  const fails = b.min ? (b.exclusive ? b.v <= bound : b.v < bound) : b.exclusive ? b.v >= bound : b.v > bound;
  if (!fails) return;
  const name = nameOf(w);
  const relation = `${b.min ? 'greater' : 'less'} than${b.exclusive ? '' : ' or equal to'}`;
  const shown = native ? String(bound) : goFloat(bound);
  sink.add(invalidValue(errPath(w, name), goLiteral(native ? String(b.v) : goFloat(b.v)), `${name} in body should be ${relation} ${shown}`));
}

/** swag.IsFloat64AJSONInteger: a whole number within ±(2^53-1), up to a relative 1e-9. */
function isJsonInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > Number.MAX_SAFE_INTEGER) return false;
  const rounded = Math.round(f);
  if (f === rounded) return true;
  if (rounded === 0) return false;
  return Math.abs(f - rounded) < 1e-9 * Math.abs(rounded);
}

/** schemaSliceValidator after its items: minItems, maxItems, uniqueItems. */
function checkItemCount(w: Walk, sink: Sink, vv: ValueValidation, v: unknown[]): void {
  if (vv.minItems !== undefined && v.length < vv.minItems) {
    const name = nameOf(w);
    sink.add(invalidValue(errPath(w, name), v.length, `${name} in body should have at least ${vv.minItems} items`));
  }
  if (vv.maxItems !== undefined && v.length > vv.maxItems) sink.add(tooManyOf(errPath(w, nameOf(w)), v.length, vv.maxItems));
  if (vv.uniqueItems && v.length > 1) {
    // Compared as Go's DeepEqual would, through a canonical text, so the check is linear.
    const seen = new Set<string>();
    for (const item of v) {
      const key = goJson(item);
      if (seen.has(key)) {
        const name = nameOf(w);
        sink.add(invalidValue(errPath(w, name), '', `${name} in body shouldn't contain duplicates`));
        break;
      }
      seen.add(key);
    }
  }
}

/** basicCommonValidator: Unsupported value, listing strings as they are and other values as JSON. */
function checkEnum(w: Walk, sink: Sink, values: readonly unknown[], v: unknown): void {
  if (v !== null) for (const e of values) if (enumEquals(v, e)) return;
  const supported = values.map((e) => (typeof e === 'string' ? e : goJson(e)));
  sink.add(notSupported(errPath(w, nameOf(w)), goValue(v), supported));
}

/**
 * reflect.DeepEqual after kube-openapi's type conversion. Enum values were decoded
 * by encoding/json (every number a float64), the object by kube's decoder (whole
 * numbers int64): at the top an int64 converts to float64 (and, as Go allows, to
 * the one-rune string of that code point); inside a list or map it does not, so a
 * whole number there never equals an enum's.
 */
function enumEquals(v: unknown, e: unknown, nested = false): boolean {
  if (e === null || v === null) return nested && v === e;
  if (typeof v === 'number') {
    if (typeof e === 'string') return !nested && isInt64(v) && goRune(v) === e;
    return typeof e === 'number' && v === e && !(nested && isInt64(v));
  }
  if (typeof v !== 'object') return v === e;
  if (typeof e !== 'object' || Array.isArray(v) !== Array.isArray(e)) return false;
  if (Array.isArray(v)) {
    const list = e as unknown[];
    return v.length === list.length && v.every((item, i) => enumEquals(item, list[i], true));
  }
  const a = v as Record<string, unknown>;
  const b = e as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && enumEquals(a[k], b[k], true));
}

function goRune(n: number): string {
  return n >= 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\ufffd';
}

/** The common validator's enum, then the object validator's min/maxProperties. */
function checkMapHead(w: Walk, sink: Sink, vv: ValueValidation, v: Record<string, unknown>): void {
  if (vv.enum !== undefined && vv.enum.length > 0) checkEnum(w, sink, vv.enum, v);
  if (vv.minProperties === undefined && vv.maxProperties === undefined) return;
  const n = Object.keys(v).length;
  if (vv.minProperties !== undefined && n < vv.minProperties) {
    const name = nameOf(w);
    sink.add(invalidValue(errPath(w, name), n, `${name} in body should have at least ${vv.minProperties} properties`));
  }
  if (vv.maxProperties !== undefined && n > vv.maxProperties) sink.add(tooManyOf(errPath(w, nameOf(w)), n, vv.maxProperties));
}

/** additionalProperties: false (never in a CRD, which kube refuses): each undeclared member. */
function forbidden(w: Walk, sink: Sink, key: string): void {
  const name = nameOf(w);
  sink.add(invalidValue(errPath(w, name), goValue(key), `${name}.${key} in body is a forbidden property`));
}

/** A member that is absent (present as null counts as present). */
function checkRequired(w: Walk, sink: Sink, names: readonly string[], v: Record<string, unknown>): void {
  for (const r of names) if (!Object.hasOwn(v, r)) sink.add(required(errPath(w, `${nameOf(w)}.${r}`)));
}
