// Input #i of a run: the first inputs are every seed unmutated (hostile ones of
// issue 8 first, then each kind × operation × format), the rest a random seed
// with one to three mutations. Input #i depends only on the run's seed and i,
// never on answers, so a failing input can be regenerated alone.
import { encodeDoc, toJson } from './encode.js';
import { hostileSeeds } from './hostile.js';
import { cloneJson, type BodyFormat, type FuzzInput, type Seed } from './input.js';
import { KINDS, type Json } from './kinds.js';
import { BYTE_MUTATORS, PROTOBUF_MUTATORS, YAML_MUTATORS } from './mutate-bytes.js';
import { DOC_MUTATORS } from './mutate-doc.js';
import { REQUEST_MUTATORS, type Draft } from './mutate-request.js';
import { createRng, inputSeed, type Rng } from './rng.js';
import { allValidSeeds, joinQuery, MEDIA, OPERATIONS, QUERY_VARIANTS, validSeed } from './seeds.js';

/** Mutators that build large values are picked less often: they cost the server (and the run) the most. */
const DOC_WEIGHTS: Readonly<Record<string, number>> = {
  retype: 8, 'delete-key': 4, 'duplicate-key': 4, 'prototype-key': 5, 'prototype-value': 3, deepen: 2, 'swap-container': 3, 'huge-string': 1, unicode: 4,
  'rename-key': 4, empty: 3, 'copy-subtree': 2, 'long-array': 0.5, 'many-keys': 0.5, 'change-kind': 2, 'odd-name': 3, 'odd-metadata': 6,
};
const REQUEST_WEIGHTS: Readonly<Record<string, number>> = {
  'content-type': 5, accept: 1, 'odd-header': 2, namespace: 2, name: 2, resource: 2, subresource: 2, 'non-canonical': 2, 'path-case': 0.5, 'path-percent': 1,
  query: 4, method: 1, transport: 2, 'h2-content-length': 0.5,
};
/** Bodies above this are mutated rarely: sending megabytes thousands of times measures the loopback, not the server. */
const HEAVY_BYTES = 64 * 1024;

function weighted(rng: Rng, weights: Readonly<Record<string, number>>): string {
  const entries = Object.entries(weights);
  let r = rng.next() * entries.reduce((s, [, w]) => s + w, 0);
  for (const [name, w] of entries) {
    r -= w;
    if (r < 0) return name;
  }
  return entries[entries.length - 1]![0];
}

const FORMAT_MEDIA: Readonly<Record<'json' | 'yaml' | 'protobuf', string>> = { json: MEDIA.json, yaml: MEDIA.yaml, protobuf: MEDIA.protobuf };

export interface Generator {
  /** How many inputs are the unmutated seeds at the start of every run. */
  readonly explicitCount: number;
  readonly hostileCount: number;
  input(index: number): FuzzInput;
}

export function createGenerator(runSeed: number): Generator {
  const hostile = hostileSeeds();
  const explicit = [...hostile, ...allValidSeeds()];
  const light = hostile.filter((s) => (s.text?.length ?? 0) <= HEAVY_BYTES);
  const heavy = hostile.filter((s) => (s.text?.length ?? 0) > HEAVY_BYTES);
  return {
    explicitCount: explicit.length,
    hostileCount: hostile.length,
    input(index) {
      if (index < explicit.length) return finish(index, explicit[index]!, draftOf(explicit[index]!), seedBody(explicit[index]!), []);
      const rng = createRng(inputSeed(runSeed, index));
      const seed = pickSeed(rng, { light, heavy });
      return mutate(index, seed, rng);
    },
  };
}

function pickSeed(rng: Rng, hostile: { light: Seed[]; heavy: Seed[] }): Seed {
  if (rng.chance(0.35)) return rng.chance(0.005) ? rng.pick(hostile.heavy) : rng.pick(hostile.light);
  const kind = rng.pick(KINDS);
  const op = rng.pick(OPERATIONS);
  const format = rng.pick(['json', 'json', 'yaml', 'protobuf'] as const);
  return validSeed(kind, op, { format, slot: rng.int(64), query: rng.pick(QUERY_VARIANTS) });
}

function draftOf(seed: Seed): Draft {
  return { method: seed.method, path: seed.path, query: seed.query ?? '', contentType: seed.contentType, headers: { ...seed.headers }, transport: seed.transport ?? 'h2', allowNoAnswer: seed.allowNoAnswer ?? false };
}

function seedBody(seed: Seed): Buffer | undefined {
  if (seed.text !== undefined) return seed.text;
  if (seed.doc === undefined || seed.format === 'none') return undefined;
  return encodeDoc(seed.doc, seed.format);
}

function mutate(index: number, seed: Seed, rng: Rng): FuzzInput {
  const draft = draftOf(seed);
  const steps: string[] = [];
  let doc: Json | undefined = seed.doc === undefined ? undefined : cloneJson(seed.doc);
  let format: BodyFormat = seed.format;
  const bodySteps: string[] = [];
  const count = seed.name.startsWith('hostile/') || rng.chance(0.92) ? 1 + (rng.chance(0.4) ? 1 : 0) + (rng.chance(0.2) ? 1 : 0) : 0;
  for (let i = 0; i < count; i++) {
    const r = rng.next();
    const hasDoc = doc !== undefined && format !== 'text' && format !== 'none';
    const hasBody = format !== 'none';
    if (hasDoc && r < 0.45) {
      const name = weighted(rng, DOC_WEIGHTS);
      doc = DOC_MUTATORS[name]!(doc!, rng);
      steps.push(name);
    } else if (hasDoc && r < 0.52) {
      const next = rng.pick(['json', 'yaml', 'protobuf'] as const);
      format = next;
      // Mostly the Content-Type follows the encoding; otherwise they disagree.
      if (seed.method !== 'PATCH' && rng.chance(0.7)) draft.contentType = FORMAT_MEDIA[next];
      steps.push(`as-${next}`);
    } else if (hasBody && r < 0.75) {
      bodySteps.push(pickBodyMutator(rng, format, draft.contentType));
    } else {
      const name = weighted(rng, REQUEST_WEIGHTS);
      REQUEST_MUTATORS[name]!(draft, rng);
      steps.push(name);
    }
  }
  let body: Buffer | undefined;
  if (seed.text !== undefined && format === 'text') body = seed.text;
  else if (doc !== undefined && format !== 'none' && format !== 'text') {
    try {
      body = encodeDoc(doc, format);
    } catch {
      // Protobuf cannot carry a wrongly typed field and js-yaml refuses some values: send the JSON instead.
      body = Buffer.from(toJson(doc), 'utf8');
      steps.push('encode-fallback-json');
    }
  }
  for (const name of bodySteps) {
    const all = { ...BYTE_MUTATORS, ...YAML_MUTATORS, ...PROTOBUF_MUTATORS };
    body = all[name]!(body ?? Buffer.alloc(0), rng);
    steps.push(name);
  }
  return finish(index, seed, draft, body, steps);
}

function pickBodyMutator(rng: Rng, format: BodyFormat, contentType: string | undefined): string {
  if (format === 'protobuf' && rng.chance(0.7)) return rng.pick(Object.keys(PROTOBUF_MUTATORS));
  const yamlish = format === 'yaml' || (format === 'text' && (contentType?.includes('yaml') ?? false));
  if (yamlish && rng.chance(0.6)) return rng.pick(Object.keys(YAML_MUTATORS));
  return rng.pick(Object.keys(BYTE_MUTATORS));
}

function finish(index: number, seed: Seed, draft: Draft, body: Buffer | undefined, steps: string[]): FuzzInput {
  // DELETE is always a dry run: a deleted namespace would turn the rest of the run into 403s.
  const query = draft.method === 'DELETE' ? joinQuery(draft.query, 'dryRun=All') : draft.query;
  const headers: Record<string, string> = { accept: 'application/json', ...draft.headers };
  if (draft.contentType !== undefined) headers['content-type'] = draft.contentType;
  const mutated = steps.length > 0;
  return {
    index,
    origin: [seed.name, ...steps].join(' + '),
    method: draft.method,
    path: query === '' ? draft.path : `${draft.path}?${query}`,
    headers,
    body,
    transport: draft.transport,
    expect: mutated ? undefined : seed.expect,
    // Mutated raw bytes may no longer be a whole request; the server then rightly waits and closes.
    allowNoAnswer: draft.allowNoAnswer || (mutated && draft.transport === 'raw') || undefined,
    resource: seed.resource,
    ...(seed.unframed === true ? { unframed: true } : {}),
  };
}
