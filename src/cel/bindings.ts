// JSON (as decoded from a request or storage) → CEL values, typed by a DeclType.
// Objects become instances of a class registered per object type, read lazily
// field by field, so a rule touching two fields of a large object converts two.
// Keys from the object are data: they go through Object.hasOwn and Map, never
// through the prototype chain (STYLE §11).
import type { Environment } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import type { DeclType } from './schema-types.js';

/** Base class of every object type: a Map over the escaped field names, filled on first read. */
export class SchemaObject extends Map<string, unknown> {
  constructor(
    readonly raw: Readonly<Record<string, unknown>>,
    readonly decl: DeclType,
  ) {
    super();
  }

  override get(field: string): unknown {
    if (super.has(field)) return super.get(field);
    const f = this.decl.fields?.get(field);
    const v = f !== undefined && Object.hasOwn(this.raw, f.jsonName) ? toCelValue(this.raw[f.jsonName], f.type) : undefined;
    super.set(field, v);
    return v;
  }

  override has(field: string): boolean {
    return this.get(field) !== undefined;
  }
}

const classes = new WeakMap<DeclType, typeof SchemaObject>();
const registered = new WeakMap<Environment, WeakSet<DeclType>>();

/**
 * Lists read from a schema with x-kubernetes-list-type set or map, with their
 * declaration: `+` and `==` on them follow Kubernetes' list-type rules
 * (list-types.ts). A side table, so the lists stay plain arrays for the base library.
 */
const typedLists = new WeakMap<readonly unknown[], DeclType>();

export function listTypeOf(v: unknown): DeclType | undefined {
  return Array.isArray(v) ? typedLists.get(v) : undefined;
}

/** Marks a list computed from a typed list (the result of `+`) with the same list type. */
export function markListType(v: readonly unknown[], decl: DeclType): readonly unknown[] {
  typedLists.set(v, decl);
  return v;
}

/**
 * Registers the object types reachable from `decl` on `env` (depth first, so a
 * field's type exists before the object that declares it).
 */
export function registerDeclTypes(env: Environment, decl: DeclType): void {
  if (decl.elem !== undefined) registerDeclTypes(env, decl.elem);
  if (decl.kind !== 'object') return;
  for (const f of decl.fields!.values()) registerDeclTypes(env, f.type);
  // One class per declaration, registered once per environment (a DeclType may serve several).
  let done = registered.get(env);
  if (done === undefined) registered.set(env, (done = new WeakSet()));
  if (done.has(decl)) return;
  done.add(decl);
  let ctor = classes.get(decl);
  if (ctor === undefined) {
    ctor = { [decl.celType]: class extends SchemaObject {} }[decl.celType]!;
    classes.set(decl, ctor);
  }
  const fields: Record<string, string> = Object.create(null);
  for (const [name, f] of decl.fields!) fields[name] = f.type.celType;
  env.registerType(decl.celType, { ctor, fields });
  // Objects compare by value, not identity (`self == oldSelf` in transition rules).
  env.registerOperator(`${decl.celType} == ${decl.celType}`, (a: SchemaObject, b: SchemaObject) => deepEqualJson(a.raw, b.raw, decl));
}

/**
 * Equality of two JSON values of one declaration type. Lists with
 * x-kubernetes-list-type set or map compare as unordered (Kubernetes' list
 * equality for those types); everything else element by element.
 */
export function deepEqualJson(a: unknown, b: unknown, decl: DeclType | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const elem = decl?.elem;
    if (decl?.listType === 'set' || decl?.listType === 'map') return a.every((x) => b.some((y) => deepEqualJson(x, y, elem)));
    return a.every((x, i) => deepEqualJson(x, b[i], elem));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && deepEqualJson(a[k], b[k], fieldDecl(decl, k)));
  }
  return false;
}

function fieldDecl(decl: DeclType | undefined, jsonName: string): DeclType | undefined {
  if (decl?.kind === 'map') return decl.elem;
  for (const f of decl?.fields?.values() ?? []) if (f.jsonName === jsonName) return f.type;
  return undefined;
}

/** Converts one JSON value to the CEL value of `decl`; values of the wrong JSON type are passed through for the evaluator to reject. */
export function toCelValue(v: unknown, decl: DeclType): unknown {
  if (v === null || v === undefined) return v;
  switch (decl.kind) {
    case 'dyn':
      return dynValue(v);
    case 'object': {
      const ctor = classes.get(decl);
      return ctor !== undefined && isPlainObject(v) ? new ctor(v, decl) : v;
    }
    case 'list': {
      if (!Array.isArray(v)) return v;
      const list = v.map((e) => toCelValue(e, decl.elem!));
      if (decl.listType === 'set' || decl.listType === 'map') typedLists.set(list, decl);
      return list;
    }
    case 'map': {
      if (!isPlainObject(v)) return v;
      const m = new Map<string, unknown>();
      for (const k of Object.keys(v)) m.set(k, toCelValue(v[k], decl.elem!));
      return m;
    }
    default:
      return scalarValue(v, decl.celType);
  }
}

function scalarValue(v: unknown, celType: string): unknown {
  switch (celType) {
    case 'int':
      return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v;
    case 'double':
      return typeof v === 'bigint' ? Number(v) : v;
    case 'bytes':
      return typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : v;
    case 'google.protobuf.Timestamp':
      return typeof v === 'string' ? new Date(v) : v;
    case 'google.protobuf.Duration':
      return typeof v === 'string' ? parseDuration(v) ?? v : v;
    default:
      return v;
  }
}

/** Unstructured JSON as Kubernetes types it: integral numbers are int, the rest double. */
export function dynValue(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(dynValue);
  if (isPlainObject(v)) {
    const m = new Map<string, unknown>();
    for (const k of Object.keys(v)) m.set(k, dynValue(v[k]));
    return m;
  }
  return v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
}

const UNIT_NANOS: Readonly<Record<string, bigint>> = {
  ns: 1n, us: 1_000n, 'µs': 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n,
};

/** A Go duration string (`1h30m`, `-1.5s`) as a CEL duration, undefined when malformed. */
function parseDuration(s: string): Duration | undefined {
  const m = /^([-+]?)((?:\d+(?:\.\d*)?(?:ns|us|µs|ms|s|m|h))+|0)$/.exec(s);
  if (m === null) return undefined;
  let nanos = 0n;
  for (const part of m[2]!.matchAll(/(\d+)(?:\.(\d*))?(ns|us|µs|ms|s|m|h)/g)) {
    const unit = UNIT_NANOS[part[3]!]!;
    const frac = part[2] ?? '';
    nanos += BigInt(part[1]!) * unit + (frac === '' ? 0n : (BigInt(frac) * unit) / 10n ** BigInt(frac.length));
  }
  if (m[1] === '-') nanos = -nanos;
  return new Duration(nanos / 1_000_000_000n, Number(nanos % 1_000_000_000n));
}
