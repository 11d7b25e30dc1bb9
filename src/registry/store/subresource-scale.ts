// The Scale view of a parent (autoscaling/v1 Scale), computed from the paths a
// subresource declares (ScalePaths, the same three paths a CRD's scale
// subresource names). Reading builds the view; writing copies spec.replicas back
// into the parent, which then goes through the parent's own strategy, as kube's
// scale REST storage does (so generation moves with spec).
import { invalid } from '../../errors/status-error.js';
import { invalidValue, path } from '../../errors/field-errors.js';
import type { KubeObject } from '../../schema/object.js';
import type { ScalePaths } from '../define-resource.js';
import { validateNonnegative } from '../validation/common.js';
import { getPath, setPath } from './metadata.js';

export const SCALE_KIND = { group: 'autoscaling', version: 'v1', kind: 'Scale' } as const;

type Requirement = { key: string; text: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A metav1.LabelSelector (matchLabels / matchExpressions) rather than a plain label map. */
function isLabelSelector(v: Record<string, unknown>): boolean {
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => (k === 'matchLabels' && isRecord(v[k])) || (k === 'matchExpressions' && Array.isArray(v[k])));
}

function expressionText(e: Record<string, unknown>): Requirement {
  const key = String(e.key ?? '');
  const values = (Array.isArray(e.values) ? e.values.map(String) : []).sort();
  switch (e.operator) {
    case 'In':
      return { key, text: `${key} in (${values.join(',')})` };
    case 'NotIn':
      return { key, text: `${key} notin (${values.join(',')})` };
    case 'DoesNotExist':
      return { key, text: `!${key}` };
    default:
      return { key, text: key };
  }
}

/**
 * labels.Selector.String(): requirements sorted by key and joined with commas
 * (`a=b,tier in (x,y)`), the form Scale.status.selector carries.
 */
export function selectorString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return '';
  const reqs: Requirement[] = [];
  const labels = isLabelSelector(value) ? ((value.matchLabels as Record<string, unknown> | undefined) ?? {}) : value;
  for (const [key, v] of Object.entries(labels)) reqs.push({ key, text: `${key}=${String(v)}` });
  if (isLabelSelector(value)) {
    for (const e of (value.matchExpressions as unknown[] | undefined) ?? []) if (isRecord(e)) reqs.push(expressionText(e));
  }
  // A stable sort by key keeps kube's order; ties keep declaration order.
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((r) => r.text).join(',');
}

function replicasAt(obj: KubeObject, p: string): number {
  const v = getPath(obj, p);
  return typeof v === 'number' ? v : 0;
}

/** kube's scaleFromReplicationController & co: metadata of the parent, replicas, selector. */
export function scaleOf(parent: KubeObject, paths: ScalePaths): KubeObject {
  const m = parent.metadata;
  const metadata: KubeObject['metadata'] = { name: m.name };
  if (m.namespace !== undefined) metadata.namespace = m.namespace;
  metadata.uid = m.uid;
  metadata.resourceVersion = m.resourceVersion;
  metadata.creationTimestamp = m.creationTimestamp;
  const replicas = replicasAt(parent, paths.specReplicasPath);
  const selector = paths.labelSelectorPath === undefined ? '' : selectorString(getPath(parent, paths.labelSelectorPath));
  return {
    kind: SCALE_KIND.kind,
    apiVersion: `${SCALE_KIND.group}/${SCALE_KIND.version}`,
    metadata,
    // ScaleSpec.replicas is omitempty; ScaleStatus.replicas is not.
    spec: replicas === 0 ? {} : { replicas },
    status: { replicas: replicasAt(parent, paths.statusReplicasPath), ...(selector === '' ? {} : { selector }) },
  };
}

/** ValidateScale, then the parent with spec.replicas taken from the Scale (mutates next only). */
export function applyScale(next: KubeObject, scale: KubeObject, paths: ScalePaths): void {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
  const p = path('spec', 'replicas');
  const errs = Number.isInteger(replicas) ? validateNonnegative(replicas, p) : [invalidValue(p, replicas, 'must be an integer')];
  if (errs.length > 0) throw invalid(SCALE_KIND, next.metadata.name ?? '', errs);
  setPath(next, paths.specReplicasPath, replicas);
}
