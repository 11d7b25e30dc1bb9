// The PriorityClasses every cluster has (kube-apiserver's scheduling post-start
// hook): system-node-critical and system-cluster-critical, created when absent on
// every start. Their value and preemption policy are immutable, so there is nothing
// to repair; a class a user deleted comes back at the next start, as in kube.
import { isStatusError } from '../errors/status-error.js';
import type { Registry } from '../registry/registry.js';
import type { KubeObject } from '../schema/object.js';
import { SYSTEM_PRIORITY_CLASSES } from '../apis/scheduling/v1/priority-classes.js';
import { ensureObject, type EnsureAction, type EnsureOptions } from './ensure.js';

const PRIORITY_CLASSES = { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses' } as const;

/** A read that answers undefined for NotFound (bootstrap.ts keeps the same helper private). */
export async function unlessNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isStatusError(err) && err.reason === 'NotFound') return undefined;
    throw err;
  }
}

/** Ensures the system PriorityClasses; answers what was done to each, by name. */
export async function bootstrapPriorityClasses(registry: Registry, opts: EnsureOptions = {}): Promise<Record<string, EnsureAction>> {
  const store = registry.store(PRIORITY_CLASSES);
  const actions: Record<string, EnsureAction> = {};
  for (const pc of SYSTEM_PRIORITY_CLASSES) {
    const result = await ensureObject(
      {
        what: `priorityclass ${pc.name}`,
        read: () => unlessNotFound(store.get({ name: pc.name })),
        create: () =>
          store.create({
            apiVersion: 'scheduling.k8s.io/v1',
            kind: 'PriorityClass',
            metadata: { name: pc.name },
            value: pc.value,
            description: pc.description,
          } as KubeObject),
      },
      opts,
    );
    actions[pc.name] = result.action;
  }
  return actions;
}
