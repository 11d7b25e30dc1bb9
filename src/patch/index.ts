// Patches: the pure half of PATCH. The handler (endpoints/handlers/patch.ts) reads
// the current object, asks a decoded Patch for the patched JSON here, and runs the
// result as an update through the registry, so validation, admission and dry run
// are the update's. Nothing here touches storage or HTTP; failures are StatusErrors
// in kube-apiserver's tiers (errors.ts). Server-side apply is not a patch type here.
import { decodeJsonPatch, applyJsonPatch } from './json-patch.js';
import { decodeMergePatch, mergePatch } from './merge-patch.js';
import { patchMetaFor } from './patch-meta.js';
import { decodeStrategicPatch, strategicMerge } from './strategic-merge.js';
import { cloneJson, goFormat, isJsonMap, type Json, type JsonMap } from './json.js';
import type { ResourceSchema } from '../schema/definitions.js';

export type { Json, JsonMap } from './json.js';
export { hasPatchMeta } from './patch-meta.js';

export type PatchType = 'json' | 'merge' | 'strategic';

/** Content-Type of each patch type (kube's types.PatchType), in kube's listing order. */
export const PATCH_MEDIA_TYPES: Readonly<Record<PatchType, string>> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

export function patchTypeForMediaType(mediaType: string): PatchType | undefined {
  return (Object.keys(PATCH_MEDIA_TYPES) as PatchType[]).find((t) => PATCH_MEDIA_TYPES[t] === mediaType);
}

export interface DecodePatchOptions {
  readonly type: PatchType;
  readonly body: Buffer | string;
  /** fieldValidation Strict or Warn: kube decodes merge patches strictly first, with its own message. */
  readonly strict: boolean;
  /** The kind's schema (definition.schema), for strategic merge's merge keys and strategies. */
  readonly schema: ResourceSchema;
}

/** A decoded patch; `apply` may run once per conflict retry, against each fresh object. */
export interface Patch {
  readonly type: PatchType;
  /** The patched copy of `current`; `current` is never changed. */
  apply(current: JsonMap): Json;
  /** What kube quotes as the invalid value when the patched object does not decode. */
  invalidValue(patched: Json): string;
}

export function decodePatch(opts: DecodePatchOptions): Patch {
  switch (opts.type) {
    case 'json': {
      const ops = decodeJsonPatch(opts.body);
      return { type: 'json', apply: (current) => applyJsonPatch(current, ops), invalidValue: (patched) => JSON.stringify(patched) };
    }
    case 'merge': {
      const patch = decodeMergePatch(opts.body, { strict: opts.strict });
      // A deep copy first: the merge shares untouched subtrees with its target, and
      // what the store hands out may be frozen or shared with the watch cache.
      return { type: 'merge', apply: (current) => mergePatch(cloneJson(current), patch), invalidValue: (patched) => JSON.stringify(patched) };
    }
    case 'strategic': {
      const patch = decodeStrategicPatch(opts.body);
      const meta = patchMetaFor(opts.schema);
      // kube renders the patch map (%+v), not the result, for strategic merge failures.
      return { type: 'strategic', apply: (current) => strategicMerge(current, patch, meta), invalidValue: () => goFormat(patch) };
    }
  }
}

export { isJsonMap };
