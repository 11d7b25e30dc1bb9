// Feeds the node graph from storage, as kube's graph_populator.go feeds it from
// informers: each collection is listed, then watched from the list's
// resourceVersion; a broken watch re-lists after a delay and replays the
// difference (gone objects as deletes), as an informer's relist does. Pods,
// PersistentVolumes, VolumeAttachments and ResourceSlices are watched; PVCs are
// not (kube neither): their vertices come from pods and from PVs' claimRefs.
import type { KubeObject } from '../../../schema/object.js';
import { getField } from '../../../schema/field-path.js';
import type { Storage } from '../../../storage/storage.js';
import { createMirror } from '../mirror.js';
import type { NodeGraph } from './node-graph.js';
import { list, str } from './pod-references.js';

/** Collection prefixes (registry/keys.ts collectionPrefix), each ending in "/". */
export interface NodeGraphPrefixes {
  readonly pods: string;
  readonly persistentVolumes: string;
  readonly volumeAttachments: string;
  /** resource.k8s.io ResourceSlices; leave out when DRA is not served. */
  readonly resourceSlices?: string;
}

export interface NodeGraphFeedOptions {
  readonly graph: NodeGraph;
  readonly storage: Storage;
  readonly prefixes: NodeGraphPrefixes;
  /** Delay before re-listing after a watch or list failed. */
  readonly retryMs?: number;
  readonly onError?: (err: unknown) => void;
}

export interface NodeGraphFeed {
  /** Resolves once every collection has been listed into the graph. */
  readonly synced: Promise<void>;
  close(): void;
}

/** What one collection does with its objects; `old` is the last state seen, if any. */
interface Handlers {
  upsert(old: KubeObject | undefined, obj: KubeObject): void;
  remove(obj: KubeObject): void;
}

const nodeNameOf = (obj: KubeObject): string => str(getField(obj, 'spec.nodeName'));

/** JSON equality for the small status values kube compares field by field. */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * kube's updatePod: pod references are immutable once bound, except what
 * ephemeral containers, new volumes and claim statuses add; anything else is
 * skipped so a status heartbeat does not rebuild the pod's edges.
 */
function podChanged(old: KubeObject, pod: KubeObject): boolean {
  const volumeNames = (p: KubeObject): string => list(getField(p, 'spec.volumes')).map((v) => str(getField(v, 'name'))).join('\0');
  return (
    nodeNameOf(old) !== nodeNameOf(pod) ||
    old.metadata.uid !== pod.metadata.uid ||
    list(getField(pod, 'spec.ephemeralContainers')).length > list(getField(old, 'spec.ephemeralContainers')).length ||
    volumeNames(old) !== volumeNames(pod) ||
    !same(getField(old, 'status.resourceClaimStatuses'), getField(pod, 'status.resourceClaimStatuses')) ||
    !same(getField(old, 'status.extendedResourceClaimStatus'), getField(pod, 'status.extendedResourceClaimStatus'))
  );
}

function handlersFor(graph: NodeGraph): Record<keyof NodeGraphPrefixes, Handlers> {
  return {
    pods: {
      upsert(old, pod) {
        if (nodeNameOf(pod) === '') return;
        if (old === undefined || podChanged(old, pod)) graph.addPod(pod);
      },
      remove(pod) {
        if (nodeNameOf(pod) !== '') graph.deletePod(pod.metadata.namespace ?? '', pod.metadata.name ?? '');
      },
    },
    // kube re-adds a PV on every update (its TODO: skip when claim and secrets are unchanged).
    persistentVolumes: { upsert: (_old, pv) => graph.addPV(pv), remove: (pv) => graph.deletePV(pv.metadata.name ?? '') },
    volumeAttachments: {
      upsert(old, va) {
        if (old === undefined || nodeNameOf(old) !== nodeNameOf(va)) graph.addVolumeAttachment(va.metadata.name ?? '', nodeNameOf(va));
      },
      remove: (va) => graph.deleteVolumeAttachment(va.metadata.name ?? ''),
    },
    // spec.nodeName of a slice is immutable: kube adds on create only.
    resourceSlices: {
      upsert(old, slice) {
        if (old === undefined || nodeNameOf(old) !== nodeNameOf(slice)) graph.addResourceSlice(slice.metadata.name ?? '', nodeNameOf(slice));
      },
      remove: (slice) => graph.deleteResourceSlice(slice.metadata.name ?? ''),
    },
  };
}

interface CollectionFeed {
  readonly synced: Promise<void>;
  close(): void;
}

function feedCollection(opts: { storage: Storage; prefix: string; handlers: Handlers; retryMs: number; onError?: (err: unknown) => void }): CollectionFeed {
  // The last state of every object, so an update sees the old one and a re-list sees what went away.
  const known = new Map<string, KubeObject>();
  const upsert = (key: string, obj: KubeObject): void => {
    opts.handlers.upsert(known.get(key), obj);
    known.set(key, obj);
  };
  const remove = (key: string, obj: KubeObject): void => {
    known.delete(key);
    opts.handlers.remove(obj);
  };
  // The list and watch (and its re-list after a failure) are the shared mirror's (../mirror.ts).
  return createMirror({
    storage: opts.storage,
    prefix: opts.prefix,
    retryMs: opts.retryMs,
    ...(opts.onError === undefined ? {} : { onError: opts.onError }),
    onReplace: (objects) => {
      for (const [key, obj] of [...known]) if (!objects.has(key)) remove(key, obj);
      for (const [key, obj] of objects) upsert(key, obj);
    },
    onUpsert: upsert,
    onDelete: remove,
  });
}

export function feedNodeGraph(opts: NodeGraphFeedOptions): NodeGraphFeed {
  const handlers = handlersFor(opts.graph);
  const feeds: CollectionFeed[] = [];
  for (const collection of ['pods', 'persistentVolumes', 'volumeAttachments', 'resourceSlices'] as const) {
    const prefix = opts.prefixes[collection];
    if (prefix === undefined) continue;
    feeds.push(
      feedCollection({
        storage: opts.storage,
        prefix,
        handlers: handlers[collection],
        retryMs: opts.retryMs ?? 1000,
        ...(opts.onError === undefined ? {} : { onError: opts.onError }),
      }),
    );
  }
  return {
    synced: Promise.all(feeds.map((f) => f.synced)).then(() => undefined),
    close() {
      for (const f of feeds) f.close();
    },
  };
}
