// Namespace and Service rules through the registry over the memory backend
// (test/support/store-harness.ts, which wires the service ranges as main.ts does).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { namespaces } from '../../../../src/apis/core/v1/namespaces.js';
import { services } from '../../../../src/apis/core/v1/services.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { createStoreHarness, systemMetadata, type StoreHarness } from '../../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

describe('Namespace', () => {
  test('create sets phase, finalizer and name label', async () => {
    const { object, stored, errors } = await h.create(namespaces, { metadata: { name: 'team-a' }, status: { phase: 'Terminating' } });
    expect(errors).toEqual([]);
    expect(stored).toEqual(object);
    expect(stored).toEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'team-a', ...systemMetadata(), labels: { 'kubernetes.io/metadata.name': 'team-a' } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  });

  test('update keeps finalizers and status', async () => {
    const prev: KubeObject = { metadata: { name: 'team-a' } };
    const next: KubeObject = { metadata: { name: 'team-a', labels: { x: 'y' } }, spec: { finalizers: [] }, status: { phase: 'Terminating' } };
    expect((await h.create(namespaces, prev)).errors).toEqual([]);
    const { stored: obj, object, errors } = await h.update(namespaces, next);
    expect(errors).toEqual([]);
    expect(obj).toEqual(object);
    if (obj === undefined) throw new Error('the namespace is gone');
    expect(obj.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(obj.status).toEqual({ phase: 'Active' });
    expect(obj.metadata.labels).toEqual({ x: 'y', 'kubernetes.io/metadata.name': 'team-a' });
  });

  const finalizerCases: { name: string; finalizers: string[]; want: string[] }[] = [
    { name: 'qualified', finalizers: ['example.com/cleanup'], want: [] },
    { name: 'standard', finalizers: ['kubernetes'], want: [] },
    {
      name: 'neither',
      finalizers: ['cleanup'],
      want: ['spec.finalizers: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified'],
    },
  ];
  for (const c of finalizerCases) {
    test(`finalizer ${c.name}`, async () => {
      const got = await h.create(namespaces, { metadata: { name: 'n' }, spec: { finalizers: c.finalizers } });
      expect(got.errors).toEqual(c.want);
      if (c.want.length > 0) expect(got.stored).toBeUndefined();
      else expect(got.stored?.spec).toEqual({ finalizers: [...c.finalizers.filter((f) => f !== 'kubernetes'), 'kubernetes'] });
    });
  }

  test('declaration', () => {
    expect(namespaces).toMatchObject({ scope: 'Cluster', shortNames: ['ns'], nameValidation: 'label' });
    expect(Object.keys(namespaces.subresources).sort()).toEqual(['finalize', 'status']);
    expect(namespaces.strategy.selectableFields?.({ metadata: {}, status: { phase: 'Active' } })).toEqual({ 'status.phase': 'Active' });
  });
});

const svc = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'web', namespace: 'ns' }, spec });

describe('Service defaults', () => {
  test('ClusterIP service', async () => {
    const { stored: obj, object, errors } = await h.create(services, svc({ selector: { app: 'web' }, ports: [{ port: 80 }] }));
    expect(errors).toEqual([]);
    expect(obj).toEqual(object);
    const clusterIP = (obj?.spec as { clusterIP?: string } | undefined)?.clusterIP;
    // The one value that is not a default: the store's allocator takes it from --service-cluster-ip-range.
    expect(clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    expect(obj?.spec).toEqual({
      clusterIP,
      clusterIPs: [clusterIP],
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
    expect(obj?.status).toEqual({ loadBalancer: {} });
  });

  test('headless without selector is dual stack', async () => {
    const { stored: obj, errors } = await h.create(services, svc({ clusterIP: 'None', ports: [{ port: 80, targetPort: 'http' }] }));
    expect(errors).toEqual([]);
    expect(obj?.spec).toMatchObject({ clusterIPs: ['None'], ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] });
  });

  test('LoadBalancer and ClientIP affinity', async () => {
    const { stored: obj, errors } = await h.create(services, svc({ type: 'LoadBalancer', sessionAffinity: 'ClientIP', ports: [{ port: 443 }] }));
    expect(errors).toEqual([]);
    expect(obj?.spec).toMatchObject({
      externalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
    });
  });
});

const serviceErrors: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
  { name: 'no ports', spec: { selector: { a: 'b' } }, want: ['spec.ports: Required value'] },
  { name: 'unnamed ports', spec: { ports: [{ port: 80 }, { port: 81 }] }, want: ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value'] },
  { name: 'bad type', spec: { type: 'Magic', ports: [{ port: 80 }] }, want: ['spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"'] },
  { name: 'port zero', spec: { ports: [{ port: 0, targetPort: 1 }] }, want: ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive'] },
  { name: 'external name required', spec: { type: 'ExternalName' }, want: ['spec.externalName: Required value'] },
  { name: 'external name fqdn', spec: { type: 'ExternalName', externalName: 'example.com.' }, want: [] },
];

describe('Service validation', () => {
  for (const c of serviceErrors) {
    test(c.name, async () => {
      const got = await h.create(services, svc(c.spec));
      expect(got.errors).toEqual(c.want);
      if (c.want.length > 0) expect(got.stored).toBeUndefined();
      else expect(got.stored).toEqual(got.object);
    });
  }

  test('clusterIP kept when omitted on update, immutable when changed', async () => {
    expect((await h.create(services, svc({ clusterIP: '10.0.0.10', ports: [{ port: 80 }] }))).errors).toEqual([]);
    const kept = await h.update(services, svc({ ports: [{ port: 80 }] }));
    expect(kept.errors).toEqual([]);
    expect(kept.stored?.spec).toMatchObject({ clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10'] });
    const changed = await h.update(services, svc({ clusterIP: '10.0.0.11', ports: [{ port: 80 }] }));
    expect(changed.errors).toEqual(['spec.clusterIP: Invalid value: "10.0.0.11": field is immutable']);
    expect(changed.stored).toEqual(kept.stored);
  });
});
