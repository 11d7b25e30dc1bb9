import { describe, expect, test } from 'vitest';
import { builtinResources } from '../../src/apis/index.js';

const byPlural = (group: string, version: string, plural: string) =>
  builtinResources.find((r) => r.group === group && r.version === version && r.plural === plural);

// Declaration facts per kube-apiserver's registries (storage.go of each kind).
const table: {
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  shortNames: string[];
  categories?: string[];
  returnDeletedObject: boolean;
  allowCreateOnUpdate: boolean;
  allowUnconditionalUpdate?: boolean;
  subresources: string[];
}[] = [
  { plural: 'configmaps', scope: 'Namespaced', shortNames: ['cm'], returnDeletedObject: false, allowCreateOnUpdate: false, subresources: [] },
  { plural: 'endpoints', scope: 'Namespaced', shortNames: ['ep'], returnDeletedObject: false, allowCreateOnUpdate: true, subresources: [] },
  { plural: 'events', scope: 'Namespaced', shortNames: ['ev'], returnDeletedObject: false, allowCreateOnUpdate: true, subresources: [] },
  { plural: 'limitranges', scope: 'Namespaced', shortNames: ['limits'], returnDeletedObject: false, allowCreateOnUpdate: true, subresources: [] },
  { plural: 'namespaces', scope: 'Cluster', shortNames: ['ns'], returnDeletedObject: true, allowCreateOnUpdate: false, subresources: ['finalize', 'status'] },
  { plural: 'nodes', scope: 'Cluster', shortNames: ['no'], returnDeletedObject: false, allowCreateOnUpdate: false, subresources: ['status'] },
  { plural: 'persistentvolumeclaims', scope: 'Namespaced', shortNames: ['pvc'], returnDeletedObject: true, allowCreateOnUpdate: false, subresources: ['status'] },
  { plural: 'persistentvolumes', scope: 'Cluster', shortNames: ['pv'], returnDeletedObject: true, allowCreateOnUpdate: false, subresources: ['status'] },
  { plural: 'pods', scope: 'Namespaced', shortNames: ['po'], categories: ['all'], returnDeletedObject: true, allowCreateOnUpdate: false, subresources: ['ephemeralcontainers', 'resize', 'status'] },
  { plural: 'podtemplates', scope: 'Namespaced', shortNames: [], returnDeletedObject: true, allowCreateOnUpdate: false, subresources: [] },
  { plural: 'replicationcontrollers', scope: 'Namespaced', shortNames: ['rc'], categories: ['all'], returnDeletedObject: false, allowCreateOnUpdate: false, subresources: ['scale', 'status'] },
  { plural: 'resourcequotas', scope: 'Namespaced', shortNames: ['quota'], returnDeletedObject: true, allowCreateOnUpdate: false, allowUnconditionalUpdate: false, subresources: ['status'] },
  { plural: 'secrets', scope: 'Namespaced', shortNames: [], returnDeletedObject: false, allowCreateOnUpdate: false, subresources: [] },
  { plural: 'serviceaccounts', scope: 'Namespaced', shortNames: ['sa'], returnDeletedObject: true, allowCreateOnUpdate: true, subresources: [] },
  { plural: 'services', scope: 'Namespaced', shortNames: ['svc'], categories: ['all'], returnDeletedObject: true, allowCreateOnUpdate: true, subresources: ['status'] },
];

describe('builtinResources', () => {
  for (const row of table) {
    test(`core/v1 ${row.plural}`, () => {
      const def = byPlural('', 'v1', row.plural);
      expect(def).toBeDefined();
      expect(def!.scope).toBe(row.scope);
      expect(def!.shortNames).toEqual(row.shortNames);
      expect(def!.categories).toEqual(row.categories ?? []);
      expect(def!.strategy.returnDeletedObject ?? false).toBe(row.returnDeletedObject);
      expect(def!.strategy.allowCreateOnUpdate ?? false).toBe(row.allowCreateOnUpdate);
      expect(def!.strategy.allowUnconditionalUpdate ?? true).toBe(row.allowUnconditionalUpdate ?? true);
      expect(Object.keys(def!.subresources).sort()).toEqual(row.subresources);
    });
  }

  test('every core kind is in the table and names its OpenAPI definition', () => {
    for (const def of builtinResources) {
      const group = def.group === '' ? 'core' : def.group.replace(/\.k8s\.io$/, '');
      expect(def.schema.name).toBe(`io.k8s.api.${group}.${def.version}.${def.kind}`);
      if (def.group === '') expect(table.map((r) => r.plural)).toContain(def.plural);
    }
  });

  test('no duplicate group/version/plural', () => {
    const keys = builtinResources.map((r) => `${r.group}/${r.version}/${r.plural}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('selfsubjectreviews at v1 and v1beta1', () => {
    expect(byPlural('authentication.k8s.io', 'v1', 'selfsubjectreviews')?.verbs).toEqual(['create']);
    expect(byPlural('authentication.k8s.io', 'v1beta1', 'selfsubjectreviews')?.verbs).toEqual(['create']);
  });
});
