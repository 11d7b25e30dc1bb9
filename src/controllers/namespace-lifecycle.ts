// Namespace lifecycle: finishes what DELETE of a namespace starts. The namespace
// store marks the namespace (deletionTimestamp, phase Terminating) and keeps it
// while spec.finalizers holds 'kubernetes'; this controller deletes the contents
// through the same client any caller uses, then removes that finalizer via
// /finalize, which removes the namespace once no finalizer is left (as kube's
// namespace deleter does). server/controllers.ts calls sync(name) for every
// namespace at start and on each namespace watch event, and retries
// ContentRemaining with a capped backoff. Its reads are consistent ones, not the
// watch cache's: kube's deleter reads live too, since a stale empty list would
// finalize a namespace that still holds objects. What a namespace can contain is
// read from the catalog at every sync, so kinds added at run time are emptied too.
import type { Catalog } from '../registry/catalog.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { KubeObject } from '../schema/object.js';
import { FINALIZER_KUBERNETES } from '../apis/core/v1/namespaces.js';

/** What the controller needs from the registry; each method is one API call. */
export interface NamespaceLifecycleClient {
  getNamespace(name: string): Promise<KubeObject | undefined>;
  /** Empty for a kind no longer served (removed from the catalog since the sync began). */
  list(resource: ResourceDefinition, namespace: string): Promise<KubeObject[]>;
  delete(resource: ResourceDefinition, namespace: string, name: string): Promise<void>;
  /**
   * PUT /api/v1/namespaces/<name>/finalize with the namespace as given; answers the
   * namespace as written (or as removed, when that write emptied every finalizer),
   * undefined when it is already gone.
   */
  finalize(ns: KubeObject): Promise<KubeObject | undefined>;
  /** DELETE /api/v1/namespaces/<name>: removes a marked namespace nothing holds any more. */
  deleteNamespace(name: string): Promise<void>;
}

export type NamespaceSyncResult = 'Absent' | 'Active' | 'ContentRemaining' | 'Finalized';

export interface NamespaceController {
  sync(name: string): Promise<NamespaceSyncResult>;
}

/** Namespaced, stored kinds that can be listed and deleted: what a namespace can contain. */
function purgeable(resources: readonly ResourceDefinition[]): ResourceDefinition[] {
  return resources.filter(
    (r) => r.scope === 'Namespaced' && r.virtualCreate === undefined && r.verbs.includes('list') && r.verbs.includes('delete'),
  );
}

export interface NamespaceControllerOptions {
  readonly client: NamespaceLifecycleClient;
  /** The served kinds; the namespaced ones are what deleting a namespace empties. */
  readonly catalog: Pick<Catalog, 'list'>;
}

export function createNamespaceController(opts: NamespaceControllerOptions): NamespaceController {
  const { client } = opts;

  /** Deletes everything it can and answers how many objects are still there. */
  async function deleteContents(namespace: string): Promise<number> {
    const kinds = purgeable(opts.catalog.list());
    for (const kind of kinds) {
      for (const item of await client.list(kind, namespace)) {
        // Marked and held: deleting again changes nothing; its finalizers' owners finish it.
        // Marked but no longer held (a finalizer removed by an update) is deleted again.
        const held = item.metadata.deletionTimestamp !== undefined && (item.metadata.finalizers ?? []).length > 0;
        if (!held) await client.delete(kind, namespace, item.metadata.name ?? '');
      }
    }
    // Re-list rather than assume: objects with finalizers (or graceful deletion) stay for now,
    // and a later sync (the runner retries ContentRemaining) finishes the namespace.
    let left = 0;
    for (const kind of kinds) left += (await client.list(kind, namespace)).length;
    return left;
  }

  return {
    async sync(name) {
      const ns = await client.getNamespace(name);
      if (ns === undefined) return 'Absent';
      if (ns.metadata.deletionTimestamp === undefined || ns.metadata.deletionTimestamp === null) return 'Active';
      const spec = (ns.spec ?? {}) as { finalizers?: string[] };
      const finalizers = spec.finalizers ?? [];
      if (finalizers.includes(FINALIZER_KUBERNETES)) {
        if ((await deleteContents(name)) > 0) return 'ContentRemaining';
        const next = structuredClone(ns);
        next.spec = { ...spec, finalizers: finalizers.filter((f) => f !== FINALIZER_KUBERNETES) };
        // The server removes the namespace as part of this write once no finalizer is left.
        const finalized = await client.finalize(next);
        if (finalized === undefined || !isUnheld(finalized)) return 'Finalized';
        // The answer looks the same whether or not the server removed it: ask.
        const still = await client.getNamespace(name);
        if (still === undefined || !isUnheld(still)) return 'Finalized';
      } else if (!isUnheld(ns)) {
        // Finalized by us already; other finalizers (spec or metadata) are their owners' to remove.
        return 'Finalized';
      }
      // Marked, nothing holds it, yet it is still there (a write raced the removal): finish it.
      await client.deleteNamespace(name);
      return 'Finalized';
    },
  };
}

/** Marked for deletion with no finalizer of any kind left. */
function isUnheld(ns: KubeObject): boolean {
  const spec = (ns.spec ?? {}) as { finalizers?: string[] };
  return (spec.finalizers ?? []).length === 0 && (ns.metadata.finalizers ?? []).length === 0;
}
