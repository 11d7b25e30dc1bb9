// Validation results: strategies return FieldError[] built here and never throw for
// invalid input; the registry wraps them in invalid(). Types and message shapes are
// apimachinery's field.Error ("metadata.name: Required value").
import { renderFieldPath, type PathElement } from './field-path.js';

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotFound'
  | 'InternalError';

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly message: string;
}

/**
 * A field path: `path('spec', 'containers').index(0).child('image')`. Immutable;
 * printed by schema/field-path.ts (`spec.containers[0].image`, `metadata.labels[app]`).
 * Empty names are skipped, so `path()` is the root and `path().child('a')` is `a`.
 *
 * A path is its last step and the path it extends: validators make a path for
 * nearly every field they check and almost none is ever printed, so extending
 * one is a single small object, and the steps are gathered (and the text
 * rendered) only when an error asks. Paths that print alike are built alike
 * (one node per step), so tests may compare them with toEqual.
 */
export class FieldPath {
  /** Rendered on first use. A #private field, so equality of paths (tests' toEqual) does not depend on it. */
  #text: string | undefined;

  private constructor(
    /** The path this one extends; undefined for the root. */
    readonly parent: FieldPath | undefined,
    /** The last step; undefined for the root. */
    readonly step: PathElement | undefined,
  ) {}

  static readonly ROOT: FieldPath = new FieldPath(undefined, undefined);

  static root(...names: string[]): FieldPath {
    return FieldPath.ROOT.child(...names);
  }

  child(...names: string[]): FieldPath {
    let p: FieldPath = this;
    for (const name of names) if (name !== '') p = new FieldPath(p, name);
    return p;
  }

  index(i: number): FieldPath {
    return new FieldPath(this, i);
  }

  key(k: string): FieldPath {
    return new FieldPath(this, { key: k });
  }

  /** The steps from the root, in order. */
  get elements(): PathElement[] {
    const out: PathElement[] = [];
    for (let p: FieldPath | undefined = this; p !== undefined; p = p.parent) if (p.step !== undefined) out.push(p.step);
    return out.reverse();
  }

  toString(): string {
    this.#text ??= renderFieldPath(this.elements);
    return this.#text;
  }
}

export function path(...names: string[]): FieldPath {
  return FieldPath.root(...names);
}

/** Go's field.NewPath(""): the whole object, which kube prints as an empty subscript, `[]`. */
export function unnamedPath(): FieldPath {
  return FieldPath.ROOT.key('');
}

/**
 * A value kube prints with Go's %#v rather than as data: a struct
 * (`rbac.RoleRef{APIGroup:"…", …}`), an unsigned number (`0x0`). Shown as is.
 */
export class GoLiteral {
  constructor(readonly text: string) {}
}

export function goLiteral(text: string): GoLiteral {
  return new GoLiteral(text);
}

function render(value: unknown): string {
  if (value instanceof GoLiteral) return value.text;
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function required(p: FieldPath, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field: p.toString(), message: `${p}: Required value${detail === '' ? '' : `: ${detail}`}` };
}

export function invalidValue(p: FieldPath, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: p.toString(), message: `${p}: Invalid value: ${render(value)}${detail === '' ? '' : `: ${detail}`}` };
}

export function notSupported(p: FieldPath, value: unknown, valid: readonly string[]): FieldError {
  const list = valid.map((v) => JSON.stringify(v)).join(', ');
  return { type: 'FieldValueNotSupported', field: p.toString(), message: `${p}: Unsupported value: ${render(value)}: supported values: ${list}` };
}

export function duplicate(p: FieldPath, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field: p.toString(), message: `${p}: Duplicate value: ${render(value)}` };
}

export function forbiddenField(p: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field: p.toString(), message: `${p}: Forbidden: ${detail}` };
}

export function tooLong(p: FieldPath, max: number): FieldError {
  return { type: 'FieldValueTooLong', field: p.toString(), message: `${p}: Too long: may not be more than ${max} bytes` };
}

export function tooMany(p: FieldPath, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field: p.toString(), message: `${p}: Too many: ${actual}: must have at most ${max} items` };
}

export function typeInvalid(p: FieldPath, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueTypeInvalid', field: p.toString(), message: `${p}: Invalid value: ${render(value)}: ${detail}` };
}
