// Field paths, in one place: the text a definition names a field by (reset fields,
// status and scale paths, `spec.replicas`, or `.spec.replicas` as a CRD's scale
// subresource writes it), the walk of a JSON object along such a path, and the
// text kube prints for a path in field errors (`spec.containers[0].image`,
// `metadata.labels[app]`) and strict-decoding errors (`spec.containers[0].bar`).
//
// The objects walked here come from clients, so a step is data, never a
// prototype member (STYLE §11): reads see own properties only, writes define own
// properties, and `__proto__`, `constructor` or `toString` are ordinary names.
// Nothing recurses, so a path is as deep as its text, whatever that is.

/**
 * One step of a path: a member name, a list index, or a map key. Names and keys
 * walk an object alike; they differ only in how they are printed (`.name` against
 * `[key]`), as apimachinery's field.Path Child and Key differ.
 */
export type PathElement = string | number | { readonly key: string };

/** A path's text was not a path. */
export class FieldPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldPathError';
  }
}

/**
 * The names of a dotted path. One leading dot is allowed (`.spec.replicas`, the
 * form of a CRD's specReplicasPath); empty names (`spec..replicas`, a trailing
 * dot, an empty path) are refused. Brackets are not parsed: the paths written
 * this way name object members only, and `a[0]` is one member's name.
 */
export function parseFieldPath(text: string): string[] {
  const body = text.startsWith('.') ? text.slice(1) : text;
  if (body === '') throw new FieldPathError(`invalid field path ${JSON.stringify(text)}: no field named`);
  const names = body.split('.');
  if (names.includes('')) throw new FieldPathError(`invalid field path ${JSON.stringify(text)}: empty field name`);
  return names;
}

function stepsOf(path: string | readonly PathElement[]): readonly PathElement[] {
  return typeof path === 'string' ? parseFieldPath(path) : path;
}

function nameOf(step: PathElement): string | undefined {
  if (typeof step === 'string') return step;
  return typeof step === 'number' ? undefined : step.key;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** One step down: an own member of an object, or an existing item of a list. */
function child(value: unknown, step: PathElement): unknown {
  if (typeof step === 'number') {
    return Array.isArray(value) && Number.isInteger(step) && step >= 0 && step < value.length ? value[step] : undefined;
  }
  const name = nameOf(step)!;
  return isRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

/** An own member of an object, undefined for anything else (a list, a primitive, an inherited name). */
export function ownField(value: unknown, name: string): unknown {
  return isRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

/**
 * Writes an own data property. `obj[name] = v` would call the `__proto__` setter
 * (replacing the prototype) for that name; defining the property stores it as data.
 */
export function setOwnField(obj: Record<string, unknown>, name: string, value: unknown): void {
  // Only `__proto__` is an accessor on Object.prototype; every other name assigns
  // an own data property, and plain assignment is several times cheaper.
  if (name === '__proto__') Object.defineProperty(obj, name, { value, writable: true, enumerable: true, configurable: true });
  else obj[name] = value;
}

/** The value at a path, or undefined when any step is missing (own members and existing items only). */
export function getField(obj: unknown, path: string | readonly PathElement[]): unknown {
  let cur = obj;
  for (const step of stepsOf(path)) {
    cur = child(cur, step);
    if (cur === undefined) return undefined;
  }
  return cur;
}

export function hasField(obj: unknown, path: string | readonly PathElement[]): boolean {
  const steps = stepsOf(path);
  if (steps.length === 0) return true;
  const parent = getField(obj, steps.slice(0, -1));
  const last = steps[steps.length - 1]!;
  if (typeof last === 'number') return Array.isArray(parent) && Number.isInteger(last) && last >= 0 && last < parent.length;
  return isRecord(parent) && Object.hasOwn(parent, nameOf(last)!);
}

/**
 * Sets the value at a path; undefined deletes it. Missing or non-object parents
 * on the way become empty objects (a delete creates nothing). A list index must
 * name an existing item: a path never grows a list or leaves holes in it.
 */
export function setField(obj: Record<string, unknown>, path: string | readonly PathElement[], value: unknown): void {
  const steps = stepsOf(path);
  if (steps.length === 0) throw new FieldPathError('invalid field path: no field named');
  let cur: Record<string, unknown> | unknown[] = obj;
  for (let i = 0; i < steps.length - 1; i++) {
    const step = steps[i]!;
    let next = child(cur, step);
    if (next === null || typeof next !== 'object') {
      if (value === undefined) return;
      if (typeof step === 'number') throw new FieldPathError(`invalid field path: no item ${step} to write into`);
      if (Array.isArray(cur)) throw new FieldPathError(`invalid field path: ${JSON.stringify(nameOf(step))} names a member of a list`);
      next = {};
      setOwnField(cur, nameOf(step)!, next);
    }
    cur = next as Record<string, unknown> | unknown[];
  }
  const last = steps[steps.length - 1]!;
  if (typeof last === 'number') {
    if (!Array.isArray(cur) || !Number.isInteger(last) || last < 0 || last >= cur.length) {
      if (value === undefined) return;
      throw new FieldPathError(`invalid field path: no item ${last} to write`);
    }
    // A list item is removed by removing the item, not by leaving a hole.
    if (value === undefined) cur.splice(last, 1);
    else cur[last] = value;
    return;
  }
  const name = nameOf(last)!;
  if (Array.isArray(cur)) {
    if (value === undefined) return;
    throw new FieldPathError(`invalid field path: ${JSON.stringify(name)} names a member of a list`);
  }
  if (value === undefined) {
    if (Object.hasOwn(cur, name)) delete cur[name];
  } else {
    setOwnField(cur, name, value);
  }
}

export function deleteField(obj: Record<string, unknown>, path: string | readonly PathElement[]): void {
  setField(obj, path, undefined);
}

/**
 * The path as kube prints it (apimachinery's field.Path String, and the strict
 * decoder's paths): names joined by dots, `[i]` for an index, `[k]` for a key.
 * Names and keys are printed as they are, unquoted, as kube prints them.
 */
export function renderFieldPath(elements: readonly PathElement[]): string {
  let out = '';
  for (const e of elements) {
    if (typeof e === 'number') out += `[${e}]`;
    else if (typeof e === 'string') out += out === '' ? e : `.${e}`;
    else out += `[${e.key}]`;
  }
  return out;
}

/** Whether a printed path is `ancestor` or lies below it (`a.b`, `a[0]` under `a`; not `ab`). */
export function isRenderedPathWithin(path: string, ancestor: string): boolean {
  if (!path.startsWith(ancestor)) return false;
  if (path.length === ancestor.length) return true;
  const next = path[ancestor.length];
  return next === '.' || next === '[';
}
