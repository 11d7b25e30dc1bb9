// The Scale view of a parent (autoscaling/v1 Scale), computed from the paths a
// subresource declares (ScalePaths, the same three paths a CRD's scale
// subresource names). Reading builds the view; writing copies spec.replicas back
// into the parent, which then goes through the parent's own strategy, as kube's
// scale REST storage does (so generation moves with spec).
import { invalid } from '../../errors/status-error.js';
import { invalidValue, path } from '../../schema/field-errors.js';
import { getField, setField } from '../../schema/field-path.js';
import { labelSelectorRequirements, labelSetRequirements, renderLabelSelector, type LabelSelector } from '../../schema/label-selector.js';
import type { KubeObject } from '../../schema/object.js';
import type { ScalePaths } from '../define-resource.js';
import { validateNonnegative } from '../validation/common.js';

export const SCALE_KIND = { group: 'autoscaling', version: 'v1', kind: 'Scale' } as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A metav1.LabelSelector (matchLabels / matchExpressions) rather than a plain label map. */
function isLabelSelector(v: Record<string, unknown>): v is Record<string, unknown> & LabelSelector {
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => (k === 'matchLabels' && isRecord(v[k])) || (k === 'matchExpressions' && Array.isArray(v[k])));
}

/**
 * What a labelSelectorPath holds, as the canonical selector text Scale.status.selector
 * carries (`a=b,tier in (x,y)`): a CRD's string as it is, a metav1.LabelSelector
 * through LabelSelectorAsSelector, a plain label map (an RC's selector) as a set.
 * Throws LabelSelectorError for a LabelSelector kube could not convert either.
 */
export function selectorString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return '';
  return renderLabelSelector(isLabelSelector(value) ? labelSelectorRequirements(value) : labelSetRequirements(value));
}

function replicasAt(obj: KubeObject, p: string): number {
  const v = getField(obj, p);
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
  const selector = paths.labelSelectorPath === undefined ? '' : selectorString(getField(parent, paths.labelSelectorPath));
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
  setField(next, paths.specReplicasPath, replicas);
}
