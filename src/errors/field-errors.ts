// Validation results: strategies return FieldError[] built here and never throw for
// invalid input; the registry wraps them in invalid(). Types and message shapes are
// apimachinery's field.Error ("metadata.name: Required value").
import { renderFieldPath, type PathElement } from '../schema/field-path.js';

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
 */
export class FieldPath {
  /**
   * Rendered on first use: most paths are made for checks that find nothing. A
   * #private field, so equality of paths (tests' toEqual) does not depend on it.
   */
  #text: string | undefined;

  private constructor(readonly elements: readonly PathElement[]) {}

  static root(...names: string[]): FieldPath {
    return new FieldPath(names.filter((s) => s !== ''));
  }

  child(...names: string[]): FieldPath {
    return new FieldPath([...this.elements, ...names.filter((s) => s !== '')]);
  }

  index(i: number): FieldPath {
    return new FieldPath([...this.elements, i]);
  }

  key(k: string): FieldPath {
    return new FieldPath([...this.elements, { key: k }]);
  }

  toString(): string {
    this.#text ??= renderFieldPath(this.elements);
    return this.#text;
  }
}

export function path(...names: string[]): FieldPath {
  return FieldPath.root(...names);
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
