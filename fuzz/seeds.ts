// Valid seeds: every kind in kinds.ts sent as create (POST) and update (PUT) in
// JSON, YAML and protobuf, as a JSON patch, a merge patch and a strategic merge
// patch, and as a server-side apply (not implemented: kube's 415 for a refused
// patch type, never a 5xx). Hostile seeds (hostile.ts) are the explicit inputs of
// issue 8; the generator sends every seed once unmutated before mutating any.
import type { Seed } from './input.js';
import { KINDS, mergeInto, NAMES_PER_KIND, poolName, resourcePath, TARGETS_PER_KIND, type FuzzKind, type Json, type JsonMap } from './kinds.js';

export const MEDIA = {
  json: 'application/json',
  yaml: 'application/yaml',
  protobuf: 'application/vnd.kubernetes.protobuf',
  jsonPatch: 'application/json-patch+json',
  mergePatch: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

export type Operation = 'create' | 'update' | 'json-patch' | 'merge-patch' | 'strategic-patch' | 'apply';

/** Query variants a valid seed may carry; all of them are valid options. */
export const QUERY_VARIANTS: readonly string[] = [
  '',
  'fieldValidation=Strict',
  'fieldValidation=Warn',
  'fieldValidation=Ignore',
  'dryRun=All',
  'pretty=true',
  'fieldManager=fuzz',
  'dryRun=All&fieldValidation=Strict',
  'fieldValidation=Strict&pretty=true',
];

/** A seed for one kind and operation; `slot` picks the object name (creates: the pool; others: a setup target). */
export function validSeed(kind: FuzzKind, op: Operation, opts: { format?: 'json' | 'yaml' | 'protobuf'; slot: number; query?: string }): Seed {
  const format = opts.format ?? 'json';
  const query = opts.query ?? '';
  if (op === 'create') {
    const name = poolName(kind, opts.slot % NAMES_PER_KIND);
    return { name: `${kind.resource}/create/${format}`, method: 'POST', path: resourcePath(kind), query, contentType: MEDIA[format], format, doc: kind.make(name), resource: kind.resource };
  }
  const name = poolName(kind, opts.slot % (TARGETS_PER_KIND * 2));
  const path = resourcePath(kind, { name });
  const base = { path, query, resource: kind.resource };
  switch (op) {
    case 'update':
      return { ...base, name: `${kind.resource}/update/${format}`, method: 'PUT', contentType: MEDIA[format], format, doc: mergeInto(kind.make(name), kind.change) };
    case 'json-patch':
      return { ...base, name: `${kind.resource}/json-patch`, method: 'PATCH', contentType: MEDIA.jsonPatch, format: 'json', doc: [{ op: 'test', path: '/metadata/name', value: name }, ...kind.jsonPatch, { op: 'add', path: '/metadata/labels/patched', value: 'json' }] };
    case 'merge-patch':
      return { ...base, name: `${kind.resource}/merge-patch`, method: 'PATCH', contentType: MEDIA.mergePatch, format: 'json', doc: mergeInto({ metadata: { labels: { patched: 'merge', tier: null } } }, kind.change) };
    case 'strategic-patch':
      return { ...base, name: `${kind.resource}/strategic-patch`, method: 'PATCH', contentType: MEDIA.strategic, format: 'json', doc: strategicPatch(kind) };
    case 'apply':
      return {
        ...base, name: `${kind.resource}/apply`, method: 'PATCH', query: joinQuery(query, 'fieldManager=fuzz'), contentType: MEDIA.apply, format: 'yaml',
        doc: mergeInto(kind.make(name), kind.change), expect: { status: [415] },
      };
  }
}

function strategicPatch(kind: FuzzKind): Json {
  const directives: JsonMap = {
    metadata: { labels: { patched: 'strategic' }, '$deleteFromPrimitiveList/finalizers': ['none'] },
  };
  return mergeInto(mergeInto(directives, kind.change), kind.strategic ?? {});
}

export function joinQuery(a: string, b: string): string {
  return a === '' ? b : b === '' ? a : `${a}&${b}`;
}

/** Every kind × operation × format once, with query variants rotated through: the unmutated valid round. */
export function allValidSeeds(): Seed[] {
  const seeds: Seed[] = [];
  let n = 0;
  for (const kind of KINDS) {
    for (const op of ['create', 'update', 'json-patch', 'merge-patch', 'strategic-patch', 'apply'] as const) {
      const formats = op === 'create' || op === 'update' ? (['json', 'yaml', 'protobuf'] as const) : (['json'] as const);
      for (const format of formats) {
        seeds.push(validSeed(kind, op, { format, slot: TARGETS_PER_KIND + n, query: QUERY_VARIANTS[n % QUERY_VARIANTS.length]! }));
        n++;
      }
    }
  }
  return seeds;
}

export const OPERATIONS: readonly Operation[] = ['create', 'create', 'update', 'update', 'json-patch', 'merge-patch', 'strategic-patch', 'strategic-patch', 'apply'];
