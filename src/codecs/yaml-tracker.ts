// What js-yaml does not check and goyaml v2 does, watched through js-yaml's node
// listener while it parses: alias expansion, self-containing anchors and (for
// strict decoding) repeated keys.
//
// js-yaml resolves an alias to the anchored value itself, so a "billion laughs"
// document parses instantly into a small graph whose every later walk (clone,
// JSON.stringify) expands it; goyaml v2 instead expands while decoding and stops
// with "document contains excessive aliasing" (decode.go: once more than 100
// decode steps came from aliases and more than 1,000 in all, the alias share may
// not exceed 99% up to 400,000 steps, falling linearly to 10% at 4,000,000). We
// count the same steps without expanding anything: one per node (keys included,
// plus one for the document), and for an alias the expanded size of its target,
// known from when the target closed. An alias to a node that has not closed yet is
// the node containing itself: goyaml's "anchor 'a' value contains itself".
import type { State } from 'js-yaml';

const ALIAS_RATIO_LOW = 400_000;
const ALIAS_RATIO_HIGH = 4_000_000;

/** goyaml v2 decode.go allowedAliasRatio. */
export function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_HIGH) return 0.1;
  return 0.99 - (0.89 * (decodeCount - ALIAS_RATIO_LOW)) / (ALIAS_RATIO_HIGH - ALIAS_RATIO_LOW);
}

function isExcessive(aliasCount: number, decodeCount: number): boolean {
  return aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount);
}

/** A goyaml failure found while tracking; decodeYaml words it. */
export class YamlDecodeFailure extends Error {}

interface Frame {
  /** Expanded size of the node: itself, its keys and values, aliases expanded. */
  size: number;
  readonly start: number;
  /** Resolved keys of this node when it is a mapping (strict only). */
  keys: Set<string> | undefined;
  /** A repeated key waiting for its value's line (goyaml reports the value's line). */
  pending: { readonly key: string; readonly keyStart: number } | undefined;
}

export interface YamlTracker {
  readonly listener: (event: 'open' | 'close', state: State) => void;
  /** goyaml's strict texts for repeated keys, `line 3: key "a" already set in map`, in order. */
  readonly duplicates: string[];
}

function skipSpaceAndComments(text: string, pos: number): number {
  let i = pos;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
    else if (c === 0x23 /* # */) {
      const eol = text.indexOf('\n', i);
      if (eol < 0) return text.length;
      i = eol + 1;
    } else return i;
  }
}

const ALIAS_END = /[\s,[\]{}]/;

function aliasName(text: string, star: number): string {
  let end = star + 1;
  while (end < text.length && !ALIAS_END.test(text[end]!)) end++;
  return text.slice(star + 1, end);
}

/** Go's %#v of a decoded map key. */
function goKey(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}

function keyIdentity(value: unknown): string {
  return `${typeof value}:${String(value)}`;
}

export function createYamlTracker(text: string, opts: { strict: boolean }): YamlTracker {
  const frames: Frame[] = [];
  const containerSizes = new WeakMap<object, number>();
  const duplicates: string[] = [];
  let lineStarts: number[] | undefined;
  // The document node counts as one decode step.
  let decodeCount = 1;
  let aliasCount = 0;

  const lineOf = (pos: number): number => {
    if (lineStarts === undefined) {
      lineStarts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };

  const flushPending = (parent: Frame, valueStart: number | undefined): void => {
    if (parent.pending === undefined) return;
    const at = valueStart ?? parent.pending.keyStart;
    duplicates.push(`line ${lineOf(at)}: key ${parent.pending.key} already set in map`);
    parent.pending = undefined;
  };

  const close = (state: State): void => {
    const frame = frames.pop()!;
    // A repeated last key without a value node is reported at the key's line.
    if (opts.strict) flushPending(frame, undefined);
    const start = skipSpaceAndComments(text, frame.start);
    const result: unknown = state.result;
    // An alias leaves no kind; an empty node has no kind either but never starts with '*'.
    if (state.kind === null && text.charCodeAt(start) === 0x2a /* * */ && start < state.position) {
      let target = 1;
      if (result !== null && typeof result === 'object') {
        const known = containerSizes.get(result);
        if (known === undefined) throw new YamlDecodeFailure(`anchor '${aliasName(text, start)}' value contains itself`);
        target = known;
      }
      frame.size += target;
      decodeCount += target;
      aliasCount += target;
      if (isExcessive(aliasCount, decodeCount)) throw new YamlDecodeFailure('document contains excessive aliasing');
    } else if (result !== null && typeof result === 'object') {
      containerSizes.set(result, frame.size);
    }
    const parent = frames[frames.length - 1];
    if (parent === undefined) return;
    parent.size += frame.size;
    if (!opts.strict) return;
    flushPending(parent, start);
    // A mapping key is the node right before its ':' (implicit keys, block or flow).
    let after = state.position;
    while (text.charCodeAt(after) === 0x20 || text.charCodeAt(after) === 0x09) after++;
    if (text.charCodeAt(after) !== 0x3a /* : */ || result === '<<' || (typeof result === 'object' && result !== null)) return;
    parent.keys ??= new Set();
    const id = keyIdentity(result);
    if (parent.keys.has(id)) parent.pending = { key: goKey(result), keyStart: start };
    else parent.keys.add(id);
  };

  return {
    duplicates,
    listener: (event, state) => {
      if (event === 'close') return close(state);
      decodeCount++;
      // Past 400,000 steps the allowed share falls, so a plain node can tip it too.
      if (isExcessive(aliasCount, decodeCount)) throw new YamlDecodeFailure('document contains excessive aliasing');
      frames.push({ size: 1, start: state.position, keys: undefined, pending: undefined });
    },
  };
}
