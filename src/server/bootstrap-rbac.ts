// The default RBAC policy (kube-apiserver's rbac/bootstrap-roles post-start hook),
// ensured on every start while rbac.authorization.k8s.io is served: the
// ClusterRoles, ClusterRoleBindings, and the Roles and RoleBindings in
// kube-system and kube-public of apis/rbac/bootstrap-policy.ts. Each kind is
// listed once; an object is written only when absent or short of what the policy
// grants, reconciled as kube does (apis/rbac/reconcile.ts: a union, never a
// removal; autoupdate=false objects left alone; a binding whose roleRef changed
// is deleted and created again). A write that loses a race with another replica
// or a user is read again and reconciled anew (server/ensure.ts), so restarts and
// replicas starting together on one etcd converge and a second start writes nothing.
import type { Registry } from '../registry/registry.js';
import type { ResourceStore } from '../registry/store/types.js';
import type { KubeObject } from '../schema/object.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapRoleBindings, bootstrapRoles } from '../apis/rbac/bootstrap-policy.js';
import { reconcileBinding, reconcileRole, type ReconcileResult } from '../apis/rbac/reconcile.js';
import { ensureObject, type EnsureOptions } from './ensure.js';
import { unlessNotFound } from './bootstrap-scheduling.js';

const RBAC = 'rbac.authorization.k8s.io';

interface KindPlan {
  readonly resource: 'clusterroles' | 'clusterrolebindings' | 'roles' | 'rolebindings';
  readonly wanted: () => KubeObject[];
  readonly reconcile: (stored: KubeObject | undefined, wanted: KubeObject) => ReconcileResult;
}

// Roles before the bindings that name them, as kube's hook orders them.
const PLAN: readonly KindPlan[] = [
  { resource: 'clusterroles', wanted: bootstrapClusterRoles, reconcile: reconcileRole },
  { resource: 'clusterrolebindings', wanted: bootstrapClusterRoleBindings, reconcile: reconcileBinding },
  { resource: 'roles', wanted: bootstrapRoles, reconcile: reconcileRole },
  { resource: 'rolebindings', wanted: bootstrapRoleBindings, reconcile: reconcileBinding },
];

export interface RbacBootstrapOptions {
  readonly ensure?: EnsureOptions;
  /** How many objects are ensured at once (default 8): overlaps the writes of a first start. */
  readonly concurrency?: number;
}

export interface RbacBootstrapResult {
  /** `<resource>/<namespace>/<name>` of each object written, by what was done. */
  readonly created: readonly string[];
  readonly updated: readonly string[];
  readonly recreated: readonly string[];
  /** Objects short of the policy left alone because their autoupdate annotation is "false". */
  readonly protected: readonly string[];
  /** false: rbac.authorization.k8s.io is not served (--runtime-config), nothing was ensured. */
  readonly served: boolean;
}

const keyOf = (obj: KubeObject) => `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;

/** Runs the tasks with at most `limit` of them in flight; the first failure is thrown once all settle. */
async function inParallel(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++]!;
      try {
        await task();
      } catch (err) {
        errors.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  if (errors.length > 0) throw errors[0];
}

export async function bootstrapRbac(registry: Registry, opts: RbacBootstrapOptions = {}): Promise<RbacBootstrapResult> {
  const result = { created: [] as string[], updated: [] as string[], recreated: [] as string[], protected: [] as string[], served: true };
  const stores = PLAN.map((p) => registry.find({ group: RBAC, version: 'v1', resource: p.resource }));
  if (stores.some((s) => s === undefined)) return { ...result, served: false };
  for (const [i, plan] of PLAN.entries()) {
    const store = stores[i]!;
    // One list per kind; only objects that lose a race are read again, one by one.
    const listed = new Map((await store.list({})).items.map((o) => [keyOf(o), o] as const));
    const tasks = plan.wanted().map((wanted) => () => ensureOne({ store, plan, wanted, listed: listed.get(keyOf(wanted)), result, ensure: opts.ensure }));
    await inParallel(tasks, opts.concurrency ?? 8);
  }
  return result;
}

interface EnsureOneOptions {
  readonly store: ResourceStore;
  readonly plan: KindPlan;
  readonly wanted: KubeObject;
  /** What the kind's list answered for this object (undefined: absent then). */
  readonly listed: KubeObject | undefined;
  readonly result: { created: string[]; updated: string[]; recreated: string[]; protected: string[] };
  readonly ensure: EnsureOptions | undefined;
}

async function ensureOne({ store, plan, wanted, listed, result, ensure }: EnsureOneOptions): Promise<void> {
  const name = wanted.metadata.name ?? '';
  const namespace = wanted.metadata.namespace;
  const at = { name, ...(namespace === undefined ? {} : { namespace }) };
  const label = `${plan.resource}/${namespace ?? ''}/${name}`;
  let firstRead = true;
  let pending: ReconcileResult | undefined;
  let current: KubeObject | undefined;
  let wasProtected = false;
  let recreated = false;
  const outcome = await ensureObject(
    {
      what: `${plan.resource} ${namespace === undefined ? '' : `${namespace}/`}${name}`,
      read: async () => {
        current = firstRead ? listed : await unlessNotFound(store.get(at));
        firstRead = false;
        return current;
      },
      create: () => store.create(structuredClone(wanted), namespace === undefined ? {} : { namespace }),
      repair: (stored) => {
        pending = plan.reconcile(stored, wanted);
        wasProtected = pending.protected;
        return pending.operation === 'none' ? undefined : pending.object;
      },
      update: async (next) => {
        if (pending?.operation === 'recreate') {
          recreated = true;
          // Only the binding we read goes: a newer one (another replica's) is news to read.
          await store.delete({ ...at, preconditions: { uid: current?.metadata.uid ?? '' } });
          await store.create(next, namespace === undefined ? {} : { namespace });
          return;
        }
        await store.update(next, at);
      },
    },
    ensure,
  );
  if (outcome.action === 'created') result.created.push(label);
  else if (outcome.action === 'repaired') (recreated ? result.recreated : result.updated).push(label);
  if (wasProtected) result.protected.push(label);
}
