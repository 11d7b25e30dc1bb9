// autoscaling/v1 HorizontalPodAutoscaler: the autoscaling/v2 object (the stored
// version) seen through v1's single CPU target (conversion.ts). A v1 write is
// defaulted and schema-validated as v1 (registry/write/steps.ts), then converted;
// the kind's rules, status and storage are v2's, which plays kube's internal
// version here, so rule errors name v2's paths as kube's name its internal ones.
// `kubectl get hpa.v1.autoscaling` prints v2's columns over the converted object,
// as kube prints both with one printer.
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

/**
 * SetDefaults_HorizontalPodAutoscaler of autoscaling/v1: minReplicas 1. v1's
 * implicit CPU target is stated by the conversion, not here (kube: v1 cannot tell
 * an explicit default from an implicit one).
 */
export function defaultHorizontalPodAutoscalerV1(hpa: KubeObject): void {
  const spec = hpa.spec;
  if (spec === undefined || spec === null) {
    hpa.spec = { minReplicas: 1 };
    return;
  }
  // Typed decoding has refused a spec that is not an object.
  const fields = spec as Record<string, unknown>;
  if (fields.minReplicas === undefined || fields.minReplicas === null) fields.minReplicas = 1;
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
    // Only defaults and selectableFields of a converted version's strategy are its
    // own (strategy.ts Conversion); the rest mirrors v2's for what reads the
    // definition (OpenAPI's DELETE answer).
    strategy: { ...stored.strategy, defaults: defaultHorizontalPodAutoscalerV1 },
    subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status' } },
    conversion: { stored, toStored: hpaFromV1, fromStored: hpaToV1 },
  });
}
