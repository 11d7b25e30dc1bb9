// `kubectl get jobs`: NAME STATUS COMPLETIONS DURATION AGE, and with -o wide
// CONTAINERS IMAGES SELECTOR, as kube's job printer fills them.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, humanDuration, nameOf, type TableDefinition } from '../../../registry/table.js';
import type { KubeObject } from '../../../schema/object.js';
import { labelSelectorRequirements, renderLabelSelector, type LabelSelector } from '../../../schema/label-selector.js';
import { type Json, arrayAt, objectAt, stringAt } from '../../core/v1/helpers.js';
import { containerCells } from '../../core/v1/shared-table.js';

export const CONTAINERS_COLUMN = column({ name: 'Containers', priority: 1, description: 'Names of each container in the template.' });
export const IMAGES_COLUMN = column({ name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' });

/** metav1.FormatLabelSelector: `<none>` for an absent or empty selector, `<error>` for one that does not convert. */
export function formatLabelSelector(selector: unknown): string {
  if (selector === null || typeof selector !== 'object') return '<none>';
  try {
    const text = renderLabelSelector(labelSelectorRequirements(selector as LabelSelector));
    return text === '' ? '<none>' : text;
  } catch {
    return '<error>';
  }
}

function count(parent: Json | undefined, field: string): number {
  const v = parent?.[field];
  return typeof v === 'number' ? v : 0;
}

function hasTrueCondition(status: Json | undefined, type: string): boolean {
  return arrayAt(status, 'conditions').some((c) => c.type === type && c.status === 'True');
}

function completions(spec: Json | undefined, status: Json | undefined): string {
  const succeeded = count(status, 'succeeded');
  if (typeof spec?.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = count(spec, 'parallelism');
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function duration(status: Json | undefined, now: Date): string {
  const start = Date.parse(stringAt(status, 'startTime'));
  if (Number.isNaN(start)) return '';
  const end = Date.parse(stringAt(status, 'completionTime'));
  return humanDuration((Number.isNaN(end) ? now.getTime() : end) - start);
}

function jobStatus(job: KubeObject, status: Json | undefined): string {
  if (hasTrueCondition(status, 'Complete')) return 'Complete';
  if (hasTrueCondition(status, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp !== undefined && job.metadata.deletionTimestamp !== null) return 'Terminating';
  if (hasTrueCondition(status, 'Suspended')) return 'Suspended';
  if (hasTrueCondition(status, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

export const jobTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Status', description: 'Status of the job.' }),
    column({ name: 'Completions', description: 'The number of pods which reached phase Succeeded.' }),
    column({ name: 'Duration', description: 'Time required to complete the job.' }),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column({ name: 'Selector', priority: 1, description: 'A label query over pods that should match the pod count.' }),
  ],
  cells: (job, now) => {
    const spec = objectAt(job, 'spec');
    const status = objectAt(job, 'status');
    const { names, images } = containerCells(objectAt(objectAt(spec, 'template'), 'spec'));
    return [nameOf(job), jobStatus(job, status), completions(spec, status), duration(status, now), ageOf(job, now), names, images, formatLabelSelector(spec?.selector)];
  },
};
