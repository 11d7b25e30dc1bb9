// The metadata-only forms of an answer (kube's asPartialObjectMetadata and
// asPartialObjectMetadataList in endpoints/handlers/response.go): what client-go's
// metadata client, metadata informers and the garbage collector read instead of
// whole objects. An object becomes kind PartialObjectMetadata of meta.k8s.io/<v>
// with its whole ObjectMeta; a list becomes PartialObjectMetadataList with the
// list's resourceVersion, continue and remainingItemCount and one such item per
// object. Asking for the list form of one object, or the object form of a list, is
// kube's 406. Every answer of a resource endpoint goes through this (negotiation.ts
// encodeFor), as every kube handler ends in transformResponseObject: the garbage
// collector patches through the metadata client and reads the answer as
// PartialObjectMetadata.
import { StatusError } from '../errors/status-error.js';
import type { KubeList, KubeObject, ListMeta } from '../schema/object.js';

/** The metadata-only kinds a client may ask for with `as=`. */
export type PartialKind = 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** An `as=PartialObjectMetadata[List];g=meta.k8s.io;v=…` Accept entry. */
export interface PartialTarget {
  readonly kind: PartialKind;
  readonly version: 'v1' | 'v1beta1';
}

export interface PartialObjectMetadata {
  readonly kind: 'PartialObjectMetadata';
  readonly apiVersion: string;
  readonly metadata: KubeObject['metadata'];
}

export interface PartialObjectMetadataList {
  readonly kind: 'PartialObjectMetadataList';
  readonly apiVersion: string;
  readonly metadata: ListMeta;
  /** null for an empty list: kube builds the items by appending to a nil slice, which Go writes as null. */
  readonly items: PartialObjectMetadata[] | null;
}

function notAcceptableTransform(message: string): StatusError {
  return new StatusError({ code: 406, reason: 'NotAcceptable', message });
}

function isList(result: KubeObject | KubeList): result is KubeList {
  return 'items' in result && Array.isArray(result.items);
}

/**
 * The metadata-only form of one object. Frozen (shared) objects map to one frozen
 * answer per version, so a watch event's partial form is framed once for every
 * watcher that asked for it (codecs/framing.ts frameShared).
 */
export function partialObjectMetadata(obj: KubeObject, version: PartialTarget['version']): PartialObjectMetadata {
  if (!Object.isFrozen(obj)) return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
  let byVersion = shared.get(obj);
  if (byVersion === undefined) {
    byVersion = {};
    shared.set(obj, byVersion);
  }
  let partial = byVersion[version];
  if (partial === undefined) {
    partial = Object.freeze({ kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata });
    byVersion[version] = partial;
  }
  return partial;
}

const shared = new WeakMap<object, Partial<Record<PartialTarget['version'], PartialObjectMetadata>>>();

/** Whether an answer is already a metadata-only form (or a Status, which is never transformed). */
export function isUntransformable(obj: { apiVersion?: string; kind?: string }): boolean {
  return obj.kind === 'Status' || ((obj.kind === 'PartialObjectMetadata' || obj.kind === 'PartialObjectMetadataList') && (obj.apiVersion ?? '').startsWith('meta.k8s.io/'));
}

/** An answer in the form `target` asks for; throws 406 when the form does not fit the answer. */
export function asPartialMetadata(result: KubeObject | KubeList, target: PartialTarget): PartialObjectMetadata | PartialObjectMetadataList {
  const shape = isList(result) ? 'a list' : 'not a list';
  if (target.kind === 'PartialObjectMetadata') {
    if (isList(result)) throw notAcceptableTransform(`you requested PartialObjectMetadata, but the requested object is ${shape} (${result.kind || 'List'})`);
    return partialObjectMetadata(result, target.version);
  }
  if (!isList(result)) throw notAcceptableTransform(`you requested PartialObjectMetadataList, but the requested object is ${shape} (${result.kind || 'Object'})`);
  const { resourceVersion, continue: cont, remainingItemCount } = result.metadata;
  const metadata: ListMeta = {
    ...(resourceVersion ? { resourceVersion } : {}),
    ...(cont ? { continue: cont } : {}),
    ...(remainingItemCount !== undefined && remainingItemCount !== null ? { remainingItemCount } : {}),
  };
  const items = (result.items ?? []).map((obj) => partialObjectMetadata(obj, target.version));
  return { kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${target.version}`, metadata, items: items.length === 0 ? null : items };
}
