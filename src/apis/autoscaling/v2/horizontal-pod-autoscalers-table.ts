// `kubectl get hpa`: NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE. TARGETS
// pairs each metric's current value (from status.currentMetrics, same index)
// with its target, at most two and then "+ N more...", as kube's printer does.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { type Json, arrayAt, objectAt, stringAt } from '../../core/v1/helpers.js';

const MAX_SHOWN = 2;

/** A Quantity as printed; an absent one prints as Go prints a nil *Quantity. */
function quantity(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return '<nil>';
}

function percent(v: unknown): string | undefined {
  return typeof v === 'number' ? `${v}%` : undefined;
}

/** Object and External metrics: an averageValue target reads "(avg)". */
function valueTarget(target: Json | undefined, current: Json | undefined): string {
  if (target?.averageValue !== undefined && target.averageValue !== null) {
    const now = current?.averageValue !== undefined && current.averageValue !== null ? quantity(current.averageValue) : '<unknown>';
    return `${now}/${quantity(target.averageValue)} (avg)`;
  }
  const now = current !== undefined ? quantity(current.value) : '<unknown>';
  return `${now}/${quantity(target?.value)}`;
}

/** Resource and ContainerResource metrics: "cpu: 40%/80%", or raw averages. */
function resourceTarget(name: string, target: Json | undefined, current: Json | undefined, status: boolean): string {
  if (target?.averageValue !== undefined && target.averageValue !== null) {
    const now = status ? quantity(current?.averageValue) : '<unknown>';
    return `${name}: ${now}/${quantity(target.averageValue)}`;
  }
  const now = (status ? percent(current?.averageUtilization) : undefined) ?? '<unknown>';
  return `${name}: ${now}/${percent(target?.averageUtilization) ?? '<auto>'}`;
}

function metricCell(spec: Json, status: Json | undefined): string {
  const source = (field: string): Json | undefined => objectAt(spec, field);
  const current = (field: string): Json | undefined => objectAt(objectAt(status, field), 'current');
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const field = spec.type === 'External' ? 'external' : 'object';
      const st = objectAt(status, field) === undefined ? undefined : current(field);
      return valueTarget(objectAt(source(field), 'target'), st);
    }
    case 'Pods': {
      const now = objectAt(status, 'pods') === undefined ? '<unknown>' : quantity(current('pods')?.averageValue);
      return `${now}/${quantity(objectAt(source('pods'), 'target')?.averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const field = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const src = source(field);
      return resourceTarget(stringAt(src, 'name'), objectAt(src, 'target'), current(field), objectAt(status, field) !== undefined);
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics. */
export function formatMetrics(metrics: Json[], statuses: Json[]): string {
  if (metrics.length === 0) return '<none>';
  const cells = metrics.map((m, i) => metricCell(m, statuses[i]));
  const shown = cells.slice(0, MAX_SHOWN).join(', ');
  return cells.length > MAX_SHOWN ? `${shown} + ${cells.length - MAX_SHOWN} more...` : shown;
}

export const hpaTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Reference', description: 'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.' }),
    column({ name: 'Targets', description: 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).' }),
    column({ name: 'MinPods', description: 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.' }),
    column({ name: 'MaxPods', description: 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.' }),
    column({ name: 'Replicas', description: 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.' }),
    AGE_COLUMN,
  ],
  cells: (hpa, now) => {
    const spec = objectAt(hpa, 'spec');
    const status = objectAt(hpa, 'status');
    const ref = objectAt(spec, 'scaleTargetRef');
    const min = spec?.minReplicas;
    return [
      nameOf(hpa),
      `${stringAt(ref, 'kind')}/${stringAt(ref, 'name')}`,
      formatMetrics(arrayAt(spec, 'metrics'), arrayAt(status, 'currentMetrics')),
      typeof min === 'number' ? String(min) : '<unset>',
      typeof spec?.maxReplicas === 'number' ? spec.maxReplicas : 0,
      typeof status?.currentReplicas === 'number' ? status.currentReplicas : 0,
      ageOf(hpa, now),
    ];
  },
};
