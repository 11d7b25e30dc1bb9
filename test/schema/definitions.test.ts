import { describe, expect, test } from 'vitest';
import { builtinDefinitions, definitionNameForGvk, resolveSchemaName, type OpenApiSchema } from '../../src/schema/definitions.js';

function walk(schema: OpenApiSchema, visit: (s: OpenApiSchema) => void): void {
  visit(schema);
  for (const p of Object.values(schema.properties ?? {})) walk(p, visit);
  if (schema.items !== undefined) walk(schema.items, visit);
  if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, visit);
}

describe('generated definitions table', () => {
  test('covers the 1.36 kinds with their markers', () => {
    expect(Object.keys(builtinDefinitions).length).toBeGreaterThan(700);
    const containers = builtinDefinitions['io.k8s.api.core.v1.PodSpec']!.properties!.containers!;
    expect(containers).toMatchObject({
      type: 'array',
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    expect(builtinDefinitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({ type: 'string', format: 'int-or-string' });
  });

  test('nested schemas carry no description text; only a few top-level kinds have our own', () => {
    let nested = 0;
    const described: string[] = [];
    for (const [name, schema] of Object.entries(builtinDefinitions)) {
      if (schema.description !== undefined) described.push(name);
      for (const p of Object.values(schema.properties ?? {})) walk(p, (s) => { if (s.description !== undefined) nested++; });
    }
    expect(nested).toBe(0);
    expect(described.length).toBeLessThan(20);
    expect(described).toContain('io.k8s.api.core.v1.Pod');
  });
});

describe('schema names for served kinds', () => {
  const cases: { name: string; input: { schemaName: string; group: string; version: string; kind: string }; want: string | undefined }[] = [
    { name: 'declared name present', input: { schemaName: 'io.k8s.api.core.v1.Pod', group: '', version: 'v1', kind: 'Pod' }, want: 'io.k8s.api.core.v1.Pod' },
    {
      name: 'wrong default name falls back to the GVK',
      input: { schemaName: 'io.k8s.api.authorization.rbac.v1.Role', group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' },
      want: 'io.k8s.api.rbac.v1.Role',
    },
    {
      name: 'apiextensions lives outside io.k8s.api',
      input: { schemaName: 'x', group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' },
      want: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    },
    { name: 'unknown kind', input: { schemaName: 'test.example.v1.Widget', group: 'example.test', version: 'v1', kind: 'Widget' }, want: undefined },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(resolveSchemaName(c.input)).toBe(c.want);
    });
  }

  test('shared meta types do not shadow a kind of the same name', () => {
    expect(definitionNameForGvk({ group: 'autoscaling', version: 'v1', kind: 'Scale' })).toBe('io.k8s.api.autoscaling.v1.Scale');
    expect(definitionNameForGvk({ group: 'apps', version: 'v1', kind: 'DeleteOptions' })).toBe('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions');
  });
});
