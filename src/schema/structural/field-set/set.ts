// Field sets: which paths of an object one manager owns (structured-merge-diff's
// fieldpath.Set). A set is a tree: at each level, `members` are the elements that
// are themselves in the set, `children` the elements with owned paths below them.
// An element may be both ("this list item, and these of its fields": fieldsV1's
// `.` entry). Both lists are sorted by compareElements and every child set is
// non-empty, so two equal sets have the same shape and equality is structural.
//
// Sets are immutable (frozen); the operations share unchanged subtrees. Every
// operation recurses once per path element, so depth is what bounds the stack:
// fromFieldsV1 and fieldSetOf refuse anything deeper than MAX_FIELD_SET_DEPTH.
import { compareElements, type Path, type PathElement, serializeElement } from './element.js';

export interface FieldSetChild {
  readonly element: PathElement;
  readonly set: FieldSet;
}

export interface FieldSet {
  readonly members: readonly PathElement[];
  readonly children: readonly FieldSetChild[];
}

/**
 * The deepest path a field set may hold. Kube's Go walk has no limit, but ours
 * recurses, and a set is only as deep as the object it describes: a Pod tops out
 * near 15 levels, so 1,000 leaves room for any real custom resource while keeping
 * every walk a few thousand stack frames at most.
 */
export const MAX_FIELD_SET_DEPTH = 1000;

const NO_ELEMENTS: readonly PathElement[] = Object.freeze([]);
const NO_CHILDREN: readonly FieldSetChild[] = Object.freeze([]);

export const EMPTY_FIELD_SET: FieldSet = Object.freeze({ members: NO_ELEMENTS, children: NO_CHILDREN });

/** Builds a set from already sorted, duplicate-free parts. */
export function makeFieldSet(members: readonly PathElement[], children: readonly FieldSetChild[]): FieldSet {
  if (members.length === 0 && children.length === 0) return EMPTY_FIELD_SET;
  return Object.freeze({
    members: members.length === 0 ? NO_ELEMENTS : Object.freeze(members),
    children: children.length === 0 ? NO_CHILDREN : Object.freeze(children),
  });
}

/**
 * A mutable tree that collects paths in any order and builds the sorted set once.
 * Entries are found by the element's fieldsV1 spelling, which is one string per
 * distinct element.
 */
export class FieldSetBuilder {
  private readonly entries = new Map<string, BuilderEntry>();

  /** The entry for one element at this level, created on first use. */
  entry(element: PathElement): BuilderEntry {
    const id = serializeElement(element);
    let e = this.entries.get(id);
    if (e === undefined) {
      e = { element, member: false, below: undefined };
      this.entries.set(id, e);
    }
    return e;
  }

  /** Adds a path; the empty path (the whole object) is never owned, as in SMD. */
  insert(path: Path): void {
    if (path.length === 0) return;
    let level: FieldSetBuilder = this;
    for (let i = 0; i < path.length - 1; i++) {
      const e = level.entry(path[i]!);
      level = e.below ??= new FieldSetBuilder();
    }
    level.entry(path[path.length - 1]!).member = true;
  }

  build(): FieldSet {
    const members: PathElement[] = [];
    const children: FieldSetChild[] = [];
    for (const e of this.entries.values()) {
      if (e.member) members.push(e.element);
      const set = e.below?.build();
      if (set !== undefined && !isEmpty(set)) children.push(Object.freeze({ element: e.element, set }));
    }
    members.sort(compareElements);
    children.sort((a, b) => compareElements(a.element, b.element));
    return makeFieldSet(members, children);
  }
}

export interface BuilderEntry {
  readonly element: PathElement;
  member: boolean;
  below: FieldSetBuilder | undefined;
}

export function fieldSetFromPaths(paths: Iterable<Path>): FieldSet {
  const b = new FieldSetBuilder();
  for (const p of paths) b.insert(p);
  return b.build();
}

export function isEmpty(set: FieldSet): boolean {
  return set.members.length === 0 && set.children.every((c) => isEmpty(c.set));
}

/** Whether `path` itself is in the set (owning a path below it does not count). */
export function has(set: FieldSet, path: Path): boolean {
  if (path.length === 0) return false;
  let level: FieldSet | undefined = set;
  for (let i = 0; i < path.length - 1 && level !== undefined; i++) level = childSet(level, path[i]!);
  return level !== undefined && findIndex(level.members, path[path.length - 1]!, (e) => e) >= 0;
}

function childSet(set: FieldSet, element: PathElement): FieldSet | undefined {
  const i = findIndex(set.children, element, (c) => c.element);
  return i >= 0 ? set.children[i]!.set : undefined;
}

function findIndex<T>(list: readonly T[], element: PathElement, key: (t: T) => PathElement): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareElements(key(list[mid]!), element);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export function equals(a: FieldSet, b: FieldSet): boolean {
  if (a === b) return true;
  if (a.members.length !== b.members.length || a.children.length !== b.children.length) return false;
  for (let i = 0; i < a.members.length; i++) if (compareElements(a.members[i]!, b.members[i]!) !== 0) return false;
  for (let i = 0; i < a.children.length; i++) {
    const x = a.children[i]!;
    const y = b.children[i]!;
    if (compareElements(x.element, y.element) !== 0 || !equals(x.set, y.set)) return false;
  }
  return true;
}

/** Every path in either set. */
export function union(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmpty(b)) return a;
  if (isEmpty(a)) return b;
  const members = mergeSorted(a.members, b.members, (e) => e, 'union');
  const children: FieldSetChild[] = [];
  zipChildren(a.children, b.children, (x, y) => {
    if (x === undefined) children.push(y!);
    else if (y === undefined) children.push(x);
    else children.push(Object.freeze({ element: x.element, set: union(x.set, y.set) }));
  });
  return makeFieldSet(members, children);
}

/** The paths in both sets. */
export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const members = mergeSorted(a.members, b.members, (e) => e, 'intersection');
  const children: FieldSetChild[] = [];
  zipChildren(a.children, b.children, (x, y) => {
    if (x === undefined || y === undefined) return;
    const set = intersection(x.set, y.set);
    if (!isEmpty(set)) children.push(Object.freeze({ element: x.element, set }));
  });
  return makeFieldSet(members, children);
}

/**
 * The paths of `a` that are not in `b`, path by path: removing a parent path does
 * not remove what `a` owns below it (SMD's Set.Difference). Kube's stripping of
 * metadata fields from every managed set is this operation.
 */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  return subtract(a, b, false);
}

/**
 * The paths of `a` that are neither in `b` nor below a path of `b` (SMD's
 * RecursiveDifference): what kube's reset-fields filter does with `status`.
 */
export function recursiveDifference(a: FieldSet, b: FieldSet): FieldSet {
  return subtract(a, b, true);
}

function subtract(a: FieldSet, b: FieldSet, recursive: boolean): FieldSet {
  if (isEmpty(b) || isEmpty(a)) return a;
  const members = mergeSorted(a.members, b.members, (e) => e, 'difference');
  const children: FieldSetChild[] = [];
  zipChildren(a.children, b.children, (x, y) => {
    if (x === undefined) return;
    if (recursive && findIndex(b.members, x.element, (e) => e) >= 0) return;
    if (y === undefined) {
      children.push(x);
      return;
    }
    const set = subtract(x.set, y.set, recursive);
    if (!isEmpty(set)) children.push(Object.freeze({ element: x.element, set }));
  });
  return makeFieldSet(members, children);
}

type MergeMode = 'union' | 'intersection' | 'difference';

function mergeSorted<T>(a: readonly T[], b: readonly T[], key: (t: T) => PathElement, mode: MergeMode): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compareElements(key(a[i]!), key(b[j]!));
    if (c < 0) {
      if (mode !== 'intersection') out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (mode === 'union') out.push(b[j]!);
      j++;
    } else {
      if (mode !== 'difference') out.push(a[i]!);
      i++;
      j++;
    }
  }
  if (mode !== 'intersection') while (i < a.length) out.push(a[i++]!);
  if (mode === 'union') while (j < b.length) out.push(b[j++]!);
  return out;
}

/** Walks two sorted child lists together, calling `f` once per element with each side's child. */
function zipChildren(
  a: readonly FieldSetChild[],
  b: readonly FieldSetChild[],
  f: (x: FieldSetChild | undefined, y: FieldSetChild | undefined) => void,
): void {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const c = i >= a.length ? 1 : j >= b.length ? -1 : compareElements(a[i]!.element, b[j]!.element);
    if (c < 0) f(a[i++], undefined);
    else if (c > 0) f(undefined, b[j++]);
    else f(a[i++], b[j++]);
  }
}

/**
 * Every path in the set, in SMD's order (a level's members, then each child's
 * paths): the list a conflict message prints.
 */
export function paths(set: FieldSet): Path[] {
  const out: Path[] = [];
  const walk = (s: FieldSet, prefix: Path): void => {
    for (const m of s.members) out.push(Object.freeze([...prefix, m]));
    for (const c of s.children) walk(c.set, [...prefix, c.element]);
  };
  walk(set, []);
  return out;
}

/** Only the leaf paths: members that own nothing below them (SMD's Set.Leaves). */
export function leaves(set: FieldSet): FieldSet {
  const members = set.members.filter((m) => findIndex(set.children, m, (c) => c.element) < 0);
  const children: FieldSetChild[] = [];
  for (const c of set.children) {
    const below = leaves(c.set);
    if (!isEmpty(below)) children.push(Object.freeze({ element: c.element, set: below }));
  }
  return makeFieldSet(members, children);
}
