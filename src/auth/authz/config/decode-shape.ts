// Decoded JSON walked against the Go types of a config file, as encoding/json
// (sigs.k8s.io/json) fills them: case-sensitive field names, Go's zero values
// for what is absent or null, nil for absent pointers, Go's first type error
// ("json: cannot unmarshal …") while the walk goes on to collect unknown fields
// for the strict decoder, and metav1.Duration's own decoding, whose failures
// stop the decode at once as a custom UnmarshalJSON's do.

export type Shape =
  | { readonly kind: 'string' }
  /** *string: undefined when absent or null. */
  | { readonly kind: 'optionalString' }
  /** *bool: undefined when absent or null. */
  | { readonly kind: 'optionalBool' }
  /** metav1.Duration: a Go duration string, in milliseconds. */
  | { readonly kind: 'duration' }
  | { readonly kind: 'list'; readonly goType: string; readonly of: Shape }
  /** A struct (`name` for field errors, `goType` for type errors); a `pointer` one is undefined when absent or null. */
  | { readonly kind: 'struct'; readonly name: string; readonly goType: string; readonly pointer?: boolean; readonly fields: ReadonlyMap<string, Shape> };

export interface WalkState {
  /** Go's first type error; decoding goes on to find strict errors, as encoding/json does. */
  typeError: string | undefined;
  readonly strict: string[];
  /** Milliseconds of a Go duration; throws Go's error text. */
  readonly parseDuration: (text: string) => number;
}

export interface WalkAt {
  /** Go's dotted field path (no indices), for type errors. */
  readonly goPath: string;
  /** The strict decoder's path (with indices), for unknown fields. */
  readonly path: string;
  /** The struct that holds the field, for type errors. */
  readonly struct: string;
}

/** A failure that ends decoding at once (metav1.Duration.UnmarshalJSON's errors). */
export class ShapeDecodeError extends Error {
  override readonly name = 'ShapeDecodeError';
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

function typeError(value: unknown, at: WalkAt, goType: string): string {
  return `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${at.struct}.${at.goPath} of type ${goType}`;
}

function duration(value: unknown, at: WalkAt, state: WalkState): number {
  // Go calls UnmarshalJSON even for null, whose string is "" (not a duration).
  const text = value === null || value === undefined ? '' : value;
  if (typeof text !== 'string') throw new ShapeDecodeError(typeError(value, at, 'string'));
  try {
    return state.parseDuration(text);
  } catch (err) {
    throw new ShapeDecodeError((err as Error).message);
  }
}

export function zero(shape: Shape): unknown {
  switch (shape.kind) {
    case 'string':
      return '';
    case 'duration':
      return 0;
    case 'list':
      return [];
    case 'struct':
      return shape.pointer === true ? undefined : walk({}, shape, { goPath: '', path: '', struct: shape.name }, { typeError: undefined, strict: [], parseDuration: () => 0 });
    default:
      return undefined;
  }
}

/** The value in the shape's Go type; nothing is read through the prototype chain. */
export function walk(value: unknown, shape: Shape, at: WalkAt, state: WalkState): unknown {
  if (shape.kind === 'duration') return value === undefined ? 0 : duration(value, at, state);
  if (value === null || value === undefined) return zero(shape);
  const mismatch = (goType: string): unknown => {
    state.typeError ??= typeError(value, at, goType);
    return zero(shape);
  };
  switch (shape.kind) {
    case 'string':
    case 'optionalString':
      return typeof value === 'string' ? value : mismatch('string');
    case 'optionalBool':
      return typeof value === 'boolean' ? value : mismatch('bool');
    case 'list':
      if (!Array.isArray(value)) return mismatch(shape.goType);
      return value.map((item, i) => walk(item, shape.of, { ...at, path: `${at.path}[${i}]` }, state));
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return mismatch(shape.goType);
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [name, fieldShape] of shape.fields) out[name] = zero(fieldShape);
      for (const key of Object.keys(value)) {
        const fieldShape = shape.fields.get(key);
        const path = at.path === '' ? key : `${at.path}.${key}`;
        if (fieldShape === undefined) {
          state.strict.push(`unknown field ${JSON.stringify(path)}`);
          continue;
        }
        const goPath = at.goPath === '' ? key : `${at.goPath}.${key}`;
        out[key] = walk((value as Record<string, unknown>)[key], fieldShape, { goPath, path, struct: shape.name }, state);
      }
      return out;
    }
  }
}
