// autoscaling/v1 HorizontalPodAutoscaler: the autoscaling/v2 object (the stored
// version) seen through v1's single CPU target (conversion.ts). Validation,
// defaults, status and storage are v2's; `kubectl get hpa.v1.autoscaling` prints
// v2's columns over the converted object, as kube prints both with one printer.
import { defineResource, type ResourceDefinition } from '../../../registry/define-resource.js';
import type { TableDefinition } from '../../../registry/table.js';
import type { KubeObject } from '../../../schema/object.js';
import { hpaFromV1, hpaToV1 } from './conversion.js';

function convertedTable(table: TableDefinition): TableDefinition {
  return {
    columns: table.columns,
    cells: (obj, now) => table.cells(hpaFromV1(obj), now),
    ...(table.conditions === undefined ? {} : { conditions: (obj: KubeObject) => table.conditions!(hpaFromV1(obj)) }),
  };
}

/** The v1 view of the served v2 definition `stored`. */
export function horizontalPodAutoscalersV1(stored: ResourceDefinition): ResourceDefinition {
  return defineResource({
    group: 'autoscaling',
    version: 'v1',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    scope: 'Namespaced',
    shortNames: stored.shortNames,
    categories: stored.categories,
    ...(stored.table === undefined ? {} : { table: convertedTable(stored.table) }),
    strategy: stored.strategy,
    subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status' } },
    conversion: { stored, toStored: hpaFromV1, fromStored: hpaToV1 },
  });
}
