// Namespace lifecycle: finishes what DELETE of a namespace starts. The namespace
// store marks the namespace (deletionTimestamp, phase Terminating) and keeps it
// while spec.finalizers holds 'kubernetes'; this controller deletes the contents
// through the same client any caller uses, then removes that finalizer via
// /finalize and deletes the namespace for good. main.ts calls sync(name) for each
// namespace event from a watch (and once per namespace at start).
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { KubeObject } from '../schema/object.js';
import { FINALIZER_KUBERNETES } from '../apis/core/v1/namespaces.js';

/** What the controller needs from the registry; each method is one API call. */
export interface NamespaceLifecycleClient {
  getNamespace(name: string): Promise<KubeObject | undefined>;
  list(resource: ResourceDefinition, namespace: string): Promise<KubeObject[]>;
  delete(resource: ResourceDefinition, namespace: string, name: string): Promise<void>;
  /** PUT /api/v1/namespaces/<name>/finalize with the namespace as given. */
  finalize(ns: KubeObject): Promise<KubeObject>;
  /** DELETE /api/v1/namespaces/<name>: completes once spec.finalizers is empty. */
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

export function createNamespaceController(opts: { client: NamespaceLifecycleClient; resources: readonly ResourceDefinition[] }): NamespaceController {
  const { client } = opts;
  const kinds = purgeable(opts.resources);

  /** Deletes everything it can and answers how many objects are still there. */
  async function deleteContents(namespace: string): Promise<number> {
    for (const kind of kinds) {
      for (const item of await client.list(kind, namespace)) await client.delete(kind, namespace, item.metadata.name ?? '');
    }
    // Re-list rather than assume: objects with finalizers (or graceful deletion) stay for now,
    // and a later sync (on their DELETED events) finishes the namespace.
    let left = 0;
    for (const kind of kinds) left += (await client.list(kind, namespace)).length;
    return left;
  }

  return {
    async sync(name) {
      const ns = await client.getNamespace(name);
      if (ns === undefined) return 'Absent';
      if (ns.metadata.deletionTimestamp === undefined) return 'Active';
      if ((await deleteContents(name)) > 0) return 'ContentRemaining';
      const spec = (ns.spec ?? {}) as { finalizers?: string[] };
      const finalizers = spec.finalizers ?? [];
      if (finalizers.includes(FINALIZER_KUBERNETES)) {
        const next = structuredClone(ns);
        next.spec = { ...spec, finalizers: finalizers.filter((f) => f !== FINALIZER_KUBERNETES) };
        const finalized = await client.finalize(next);
        if (((finalized.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length > 0) return 'ContentRemaining';
      }
      await client.deleteNamespace(name);
      return 'Finalized';
    },
  };
}
