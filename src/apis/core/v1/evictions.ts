// Evicting a pod, as kube's EvictionREST does (pkg/registry/core/pod/storage):
// POST a policy/v1 Eviction to pods/<name>/eviction (`kubectl drain`, cluster
// autoscalers, operators). A pod that is Pending, Succeeded, Failed or already
// being deleted is deleted at once. Otherwise the PodDisruptionBudgets of its
// namespace whose selector matches it decide: none, and it is deleted; more than
// one is kube's 500 Status; one must allow a disruption, which the eviction takes
// (status.disruptionsAllowed down by one, the pod recorded in disruptedPods)
// before the delete, or the answer is 429 TooManyRequests with the budget's cause.
// A PDB whose status was never computed (observedGeneration behind generation:
// there is no disruption controller in kapi yet) refuses as "still being
// processed", as kube does while its controller has not caught up. Before a
// delete that is not a dry run, the pod gets the DisruptionTarget condition
// through pods/status. The answer is kube's Success Status with code 201.
//
// Two departures: kube retries a lost race on the PDB or the pod with 500 ms
// pauses, up to 20 times, where kapi retries at once (the race is within one
// process); and a dryRun in the Eviction that contradicts the request's is a plain
// error in kube, so a 500, where kapi answers the same text as a 400, as a
// client's mistake deserves.
import { badRequest, conflict, forbidden, isStatusError, tooManyRequests, type StatusCause } from '../../../errors/status-error.js';
import type { SubresourceCreateContext, SubresourceDefinition } from '../../../registry/strategy.js';
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import type { DeleteOptions, ResourceStore } from '../../../registry/store/types.js';
import { rfc3339 } from '../../../registry/store/metadata.js';
import { LabelSelectorError, matchesLabelSelector, type LabelSelector } from '../../../schema/label-selector.js';
import { setOwnField } from '../../../schema/field-path.js';
import { cloneJson, type KubeObject } from '../../../schema/object.js';
import type { Preconditions } from '../../../storage/storage.js';
import { type Json, arrayAt, ensureObject, objectAt, stringAt } from './helpers.js';

const EVICTION = { group: 'policy', version: 'v1', kind: 'Eviction' } as const;
const PDB_RESOURCE = { group: 'policy', resource: 'poddisruptionbudget' } as const;
/** kube names the pod's resource "Pod" in the preconditions' conflicts. */
const POD_RESOURCE = { group: '', resource: 'Pod' } as const;
/** policyv1.DisruptionBudgetCause. */
const DISRUPTION_BUDGET = 'DisruptionBudget';
/** MaxDisruptedPodSize: past this many unconfirmed evictions a PDB refuses more. */
const MAX_DISRUPTED_PODS = 2000;
/** EvictionsRetry's steps. */
const ATTEMPTS = 20;

export interface EvictionStores {
  readonly pods: () => ResourceStore;
  readonly podDisruptionBudgets: () => ResourceStore;
}

/** Pods with their eviction subresource. */
export function withEviction(pods: ResourceDefinition, stores: EvictionStores): ResourceDefinition {
  return { ...pods, subresources: { ...pods.subresources, eviction: evictionSubresource(stores) } };
}

function evictionSubresource(stores: EvictionStores): SubresourceDefinition {
  return {
    verbs: ['create'],
    responseKind: EVICTION,
    create: (parent, eviction, ctx) => evict(stores, parent, eviction, ctx),
  };
}

/** What the eviction's DeleteOptions ask of the delete. */
interface Deletion {
  readonly dryRun: boolean;
  readonly preconditions: Preconditions;
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: DeleteOptions['propagationPolicy'];
}

/** propagateDryRun: the request's dryRun and the Eviction's must agree when both are given. */
function deletionOf(eviction: KubeObject, requestDryRun: boolean): Deletion {
  const options = objectAt(eviction as unknown as Json, 'deleteOptions') ?? {};
  const own = Array.isArray(options.dryRun) ? (options.dryRun as unknown[]).map(String) : [];
  const request = requestDryRun ? ['All'] : [];
  if (own.length > 0 && request.length > 0 && own.join(',') !== request.join(',')) {
    throw badRequest(`Non-matching dry-run options in request and content: [${request.join(' ')}] and [${own.join(' ')}]`);
  }
  const pre = objectAt(options, 'preconditions') ?? {};
  const preconditions: { uid?: string; resourceVersion?: string } = {};
  if (typeof pre.uid === 'string') preconditions.uid = pre.uid;
  if (typeof pre.resourceVersion === 'string') preconditions.resourceVersion = pre.resourceVersion;
  const policy = options.propagationPolicy;
  return {
    // dryrun.IsDryRun: any value at all.
    dryRun: own.length > 0 || requestDryRun,
    preconditions,
    ...(typeof options.gracePeriodSeconds === 'number' ? { gracePeriodSeconds: options.gracePeriodSeconds } : {}),
    ...(policy === 'Orphan' || policy === 'Background' || policy === 'Foreground' ? { propagationPolicy: policy } : {}),
  };
}

function phaseOf(pod: KubeObject): string {
  return stringAt(objectAt(pod as unknown as Json, 'status'), 'phase');
}

function isDeleting(pod: KubeObject): boolean {
  return pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
}

/** canIgnorePDB: a terminal or pending pod, or one already being deleted. */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || isDeleting(pod);
}

/** shouldEnforceResourceVersion: every pod but a terminal one or one being deleted. */
function shouldEnforceResourceVersion(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return !(phase === 'Succeeded' || phase === 'Failed' || isDeleting(pod));
}

/** podutil.IsPodReady: the Ready condition is True. */
function isReady(pod: KubeObject): boolean {
  return arrayAt(objectAt(pod as unknown as Json, 'status'), 'conditions').some((c) => c.type === 'Ready' && c.status === 'True');
}

function isConflict(err: unknown): boolean {
  return isStatusError(err) && err.code === 409;
}

function success(): KubeObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KubeObject;
}

async function evict(stores: EvictionStores, parent: KubeObject, eviction: KubeObject, ctx: SubresourceCreateContext): Promise<KubeObject> {
  const name = parent.metadata.name ?? '';
  const namespace = parent.metadata.namespace ?? '';
  if ((eviction.metadata.name ?? '') !== name) throw badRequest('name in URL does not match name in Eviction object');
  const deletion = deletionOf(eviction, ctx.dryRun);
  const scope = { name, namespace, ...(ctx.user === undefined ? {} : { user: ctx.user }) };
  const pods = stores.pods();

  // A pod the budgets need not guard is deleted at once; a lost race on it is tried
  // again unless the client named a resourceVersion.
  let pod: KubeObject | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      pod = await pods.get(scope);
      if (!canIgnoreBudget(pod)) break;
      const options = shouldEnforceResourceVersion(pod) && deletion.preconditions.resourceVersion === undefined ? withResourceVersion(deletion, pod) : deletion;
      await markAndDelete(pods, scope, options, ctx.now);
      return success();
    } catch (err) {
      if (!isConflict(err) || deletion.preconditions.resourceVersion !== undefined || attempt >= ATTEMPTS) throw err;
    }
  }

  const budgets = await matchingBudgets(stores.podDisruptionBudgets(), pod);
  if (budgets.length > 1) {
    const message = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 } as unknown as KubeObject;
  }
  let options = deletion;
  if (budgets.length === 1) {
    const budget = budgets[0]!;
    const status = objectAt(budget as unknown as Json, 'status') ?? {};
    const unhealthyAllowed = !isReady(pod) && (stringAt(objectAt(budget as unknown as Json, 'spec'), 'unhealthyPodEvictionPolicy') === 'AlwaysAllow' || (countOf(status.currentHealthy) >= countOf(status.desiredHealthy) && countOf(status.desiredHealthy) > 0));
    if (unhealthyAllowed) {
      // An unready pod does not count as healthy: deleting it disrupts nothing, so
      // nothing is taken from the budget; the pod must still be the one looked at.
      options = withResourceVersion(deletion, pod);
    } else {
      await takeDisruption(stores.podDisruptionBudgets(), budget, { pod: name, namespace, dryRun: deletion.dryRun, now: ctx.now, user: ctx.user });
    }
    try {
      await markAndDelete(pods, scope, options, ctx.now);
    } catch (err) {
      // The pod changed since it was judged: the client tries again.
      if (isConflict(err) && unhealthyAllowed && deletion.preconditions.resourceVersion === undefined) throw stillProcessing(stringAt(budget.metadata as unknown as Json, 'name'));
      throw err;
    }
    return success();
  }
  await markAndDelete(pods, scope, options, ctx.now);
  return success();
}

function withResourceVersion(deletion: Deletion, pod: KubeObject): Deletion {
  return { ...deletion, preconditions: { ...deletion.preconditions, resourceVersion: pod.metadata.resourceVersion ?? '' } };
}

function countOf(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** getPodDisruptionBudgets: those of the pod's namespace whose valid selector matches its labels (a missing selector matches nothing). */
async function matchingBudgets(store: ResourceStore, pod: KubeObject): Promise<KubeObject[]> {
  const list = await store.list({ namespace: pod.metadata.namespace ?? '' });
  return list.items.filter((pdb) => {
    try {
      return matchesLabelSelector(objectAt(objectAt(pdb as unknown as Json, 'spec'), 'selector') as LabelSelector | undefined, pod.metadata.labels);
    } catch (err) {
      if (err instanceof LabelSelectorError) return false;
      throw err;
    }
  });
}

function stillProcessing(budget: string): Error {
  return tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10, [
    { reason: DISRUPTION_BUDGET, message: `The disruption budget ${budget} is still being processed by the server.` },
  ]);
}

/** checkAndDecrement, with the refresh-and-retry of a lost race on the budget's status. */
async function takeDisruption(
  store: ResourceStore,
  first: KubeObject,
  req: { pod: string; namespace: string; dryRun: boolean; now: Date; user: SubresourceCreateContext['user'] },
): Promise<void> {
  const name = first.metadata.name ?? '';
  let budget = first;
  for (let attempt = 1; ; attempt++) {
    const next = decremented(budget, req);
    if (req.dryRun) return;
    try {
      await store.subresource('status')!.update(next, { name, namespace: req.namespace, ...(req.user === undefined ? {} : { user: req.user }) });
      return;
    } catch (err) {
      if (!isConflict(err) || attempt >= ATTEMPTS) throw err;
      budget = await store.get({ name, namespace: req.namespace });
    }
  }
}

/** The budget with one disruption taken and the pod recorded, or kube's refusal. */
function decremented(budget: KubeObject, req: { pod: string; now: Date }): KubeObject {
  const name = budget.metadata.name ?? '';
  const status = objectAt(budget as unknown as Json, 'status') ?? {};
  if (countOf(status.observedGeneration) < countOf(budget.metadata.generation)) throw stillProcessing(name);
  const allowed = countOf(status.disruptionsAllowed);
  if (allowed < 0) throw forbidden(PDB_RESOURCE, name, 'pdb disruptions allowed is negative');
  const disrupted = objectAt(status, 'disruptedPods') ?? {};
  if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) {
    throw forbidden(PDB_RESOURCE, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (allowed === 0) {
    const cause: StatusCause = {
      reason: DISRUPTION_BUDGET,
      message: `The disruption budget ${name} needs ${countOf(status.desiredHealthy)} healthy pods and has ${countOf(status.currentHealthy)} currently`,
    };
    throw tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0, [cause]);
  }
  const next = cloneJson(budget) as KubeObject;
  const nextStatus = ensureObject(next as unknown as Json, 'status');
  nextStatus.disruptionsAllowed = allowed - 1;
  if (allowed - 1 === 0) setDisruptionAllowed(nextStatus, req.now);
  setOwnField(ensureObject(nextStatus, 'disruptedPods'), req.pod, rfc3339(req.now));
  return next;
}

/** UpdateDisruptionAllowedCondition once no disruption is left: DisruptionAllowed False, InsufficientPods. */
function setDisruptionAllowed(status: Json, now: Date): void {
  const conditions = arrayAt(status, 'conditions');
  const at = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
  const old = at < 0 ? undefined : conditions[at]!;
  const condition: Json = {
    type: 'DisruptionAllowed',
    status: 'False',
    observedGeneration: countOf(status.observedGeneration),
    lastTransitionTime: old !== undefined && old.status === 'False' && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : rfc3339(now),
    reason: 'InsufficientPods',
    message: typeof old?.message === 'string' ? old.message : '',
  };
  status.conditions = at < 0 ? [...conditions, condition] : conditions.map((c, i) => (i === at ? condition : c));
}

/**
 * addConditionAndDeletePod: unless a dry run, the pod first gets the
 * DisruptionTarget condition (through pods/status, against the latest pod and the
 * client's preconditions), and the delete then expects that write's resourceVersion
 * when one was asked for.
 */
async function markAndDelete(pods: ResourceStore, scope: { name: string; namespace: string; user?: SubresourceCreateContext['user'] }, deletion: Deletion, now: Date): Promise<void> {
  let preconditions = deletion.preconditions;
  if (!deletion.dryRun) {
    const result = await pods.write({
      ...scope,
      verb: 'update',
      subresource: 'status',
      transform: (current) => ({ object: withDisruptionTarget(current!, preconditions, now) }),
    });
    if (preconditions.resourceVersion !== undefined) preconditions = { ...preconditions, resourceVersion: result.object.metadata.resourceVersion ?? '' };
  }
  await pods.delete({
    ...scope,
    dryRun: deletion.dryRun,
    ...(Object.keys(preconditions).length === 0 ? {} : { preconditions }),
    ...(deletion.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: deletion.gracePeriodSeconds }),
    ...(deletion.propagationPolicy === undefined ? {} : { propagationPolicy: deletion.propagationPolicy }),
  });
}

function withDisruptionTarget(current: KubeObject, pre: Preconditions, now: Date): KubeObject {
  const name = current.metadata.name ?? '';
  if (pre.uid !== undefined && pre.uid !== '' && pre.uid !== current.metadata.uid) {
    throw conflict(POD_RESOURCE, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${current.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== '' && pre.resourceVersion !== current.metadata.resourceVersion) {
    throw conflict(POD_RESOURCE, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion ?? ''}). The object might have been modified`);
  }
  const pod = cloneJson(current) as KubeObject;
  const status = ensureObject(pod as unknown as Json, 'status');
  const conditions = arrayAt(status, 'conditions');
  const at = conditions.findIndex((c) => c.type === 'DisruptionTarget');
  const old = at < 0 ? undefined : conditions[at]!;
  // podutil.UpdatePodCondition: the transition time moves only when the status does.
  const lastTransitionTime = old !== undefined && old.status === 'True' && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : rfc3339(now);
  const condition: Json = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
  status.conditions = at < 0 ? [...conditions, condition] : conditions.map((c, i) => (i === at ? condition : c));
  return pod;
}
