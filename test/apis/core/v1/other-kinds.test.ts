import { describe, expect, test } from 'vitest';
import { events } from '../../../../src/apis/core/v1/events.js';
import { endpoints } from '../../../../src/apis/core/v1/endpoints.js';
import { limitRanges } from '../../../../src/apis/core/v1/limit-ranges.js';
import { nodes } from '../../../../src/apis/core/v1/nodes.js';
import { persistentVolumeClaims } from '../../../../src/apis/core/v1/persistent-volume-claims.js';
import { persistentVolumes } from '../../../../src/apis/core/v1/persistent-volumes.js';
import { podTemplates } from '../../../../src/apis/core/v1/pod-templates.js';
import { replicationControllers } from '../../../../src/apis/core/v1/replication-controllers.js';
import { resourceQuotas } from '../../../../src/apis/core/v1/resource-quotas.js';
import type { ResourceDefinition } from '../../../../src/registry/define-resource.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { runCreate, runUpdate } from '../../strategy-harness.js';

const ns = (name: string, rest: Omit<KubeObject, 'metadata'>): KubeObject => ({ metadata: { name, namespace: 'ns' }, ...rest });

const createCases: { name: string; def: ResourceDefinition; input: KubeObject; want: string[] }[] = [
  { name: 'event in its namespace', def: events, input: ns('e.1', { involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns' } }), want: [] },
  {
    name: 'event namespace mismatch',
    def: events,
    input: ns('e.1', { involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } }),
    want: ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'],
  },
  {
    name: 'new-style event needs reporting fields',
    def: events,
    input: ns('e.2', { eventTime: '2026-01-01T00:00:00.000000Z', involvedObject: { namespace: 'ns' } }),
    want: [
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ],
  },
  {
    name: 'endpoints bad address and port',
    def: endpoints,
    input: ns('ep', { subsets: [{ addresses: [{ ip: 'x' }], ports: [{ port: 0 }] }] }),
    want: ['subsets[0].addresses[0].ip: Invalid value: "x": must be a valid IP address', 'subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive'],
  },
  {
    name: 'node taint effect',
    def: nodes,
    input: { metadata: { name: 'n1' }, spec: { taints: [{ key: 'k', effect: 'Sometimes' }] } },
    want: ['spec.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoExecute", "NoSchedule", "PreferNoSchedule"'],
  },
  {
    name: 'pv without source, modes or capacity',
    def: persistentVolumes,
    input: { metadata: { name: 'pv1' }, spec: {} },
    want: ['spec.accessModes: Required value', 'spec.capacity: Required value', 'spec.capacity: Unsupported value: {}: supported values: "storage"', 'spec: Required value: must specify a volume type'],
  },
  {
    name: 'valid pv',
    def: persistentVolumes,
    input: { metadata: { name: 'pv1' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/d' } } },
    want: [],
  },
  {
    name: 'pvc without storage',
    def: persistentVolumeClaims,
    input: ns('c', { spec: { accessModes: [] } }),
    want: ['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value'],
  },
  {
    name: 'rc selector mismatch',
    def: replicationControllers,
    input: ns('rc', { spec: { selector: { app: 'a' }, template: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } }),
    want: ['spec.template.metadata.labels: Invalid value: {"app":"b"}: `selector` does not match template `labels`'],
  },
  {
    name: 'rc template must restart Always',
    def: replicationControllers,
    input: ns('rc', { spec: { template: { metadata: { labels: { app: 'a' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } } }),
    want: ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
  },
  {
    name: 'pod template allows empty image',
    def: podTemplates,
    input: ns('pt', { template: { spec: { containers: [{ name: 'c' }] } } }),
    want: [],
  },
  {
    name: 'limit range duplicate type',
    def: limitRanges,
    input: ns('l', { spec: { limits: [{ type: 'Container' }, { type: 'Container' }] } }),
    want: ['spec.limits[1].type: Duplicate value: "Container"'],
  },
  {
    name: 'negative quota',
    def: resourceQuotas,
    input: ns('q', { spec: { hard: { pods: '-1' } } }),
    want: ['spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0'],
  },
];

describe('create validation', () => {
  for (const c of createCases) test(c.name, () => expect(runCreate(c.def, c.input).errors).toEqual(c.want));
});

describe('defaults and status on create', () => {
  test('rc defaults from template', () => {
    const { obj } = runCreate(replicationControllers, ns('rc', { spec: { template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } }));
    expect(obj.metadata).toMatchObject({ labels: { app: 'a' }, generation: 1 });
    expect(obj.spec).toMatchObject({ replicas: 1, selector: { app: 'a' }, template: { spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' } } });
    expect(obj.status).toEqual({ replicas: 0 });
  });

  test('limit range container chain', () => {
    const { obj } = runCreate(limitRanges, ns('l', { spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' } }] } }));
    expect(obj.spec).toEqual({ limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '1Mi' } }] });
  });

  test('pv and pvc start Pending', () => {
    expect(runCreate(persistentVolumes, { metadata: { name: 'pv' }, spec: {} }).obj.status).toMatchObject({ phase: 'Pending' });
    expect(runCreate(persistentVolumeClaims, ns('c', { spec: {} })).obj).toMatchObject({ spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });
  });

  test('node keeps status on create and allocatable defaults to capacity', () => {
    const { obj } = runCreate(nodes, { metadata: { name: 'n' }, status: { capacity: { cpu: '4' } } });
    expect(obj.status).toEqual({ capacity: { cpu: '4' }, allocatable: { cpu: '4' } });
  });

  test('quota status cleared on create', () => {
    expect(runCreate(resourceQuotas, ns('q', { spec: {}, status: { used: { pods: '1' } } })).obj.status).toBeUndefined();
  });
});

describe('updates', () => {
  test('pvc spec frozen except size', () => {
    const prev = ns('c', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    expect(runUpdate(persistentVolumeClaims, prev, ns('c', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } })).errors).toEqual([]);
    expect(runUpdate(persistentVolumeClaims, prev, ns('c', { spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } } })).errors).toEqual([
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    ]);
  });

  test('rc generation follows spec', () => {
    const spec = (replicas: number): Record<string, unknown> => ({ replicas, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
    expect(runUpdate(replicationControllers, ns('rc', { spec: spec(1) }), ns('rc', { spec: spec(1) })).obj.metadata.generation).toBe(1);
    expect(runUpdate(replicationControllers, ns('rc', { spec: spec(1) }), ns('rc', { spec: spec(3) })).obj.metadata.generation).toBe(2);
  });

  test('node status comes from the stored object', () => {
    const got = runUpdate(nodes, { metadata: { name: 'n' }, status: { phase: 'Running' } }, { metadata: { name: 'n' }, status: { phase: 'x' } });
    expect(got.obj.status).toEqual({ phase: 'Running' });
  });
});

describe('selectable fields', () => {
  test('event fields, source falls back to reportingComponent', () => {
    const fields = events.strategy.selectableFields?.(ns('e', { involvedObject: { kind: 'Pod', name: 'p', uid: 'u' }, reason: 'Started', reportingComponent: 'kubelet', type: 'Normal' }));
    expect(fields).toEqual({
      'involvedObject.kind': 'Pod',
      'involvedObject.namespace': '',
      'involvedObject.name': 'p',
      'involvedObject.uid': 'u',
      'involvedObject.apiVersion': '',
      'involvedObject.resourceVersion': '',
      'involvedObject.fieldPath': '',
      reason: 'Started',
      reportingComponent: 'kubelet',
      source: 'kubelet',
      type: 'Normal',
    });
  });
  test('node and rc', () => {
    expect(nodes.strategy.selectableFields?.({ metadata: {}, spec: { unschedulable: true } })).toEqual({ 'spec.unschedulable': 'true' });
    expect(replicationControllers.strategy.selectableFields?.({ metadata: {}, status: { replicas: 3 } })).toEqual({ 'status.replicas': '3' });
  });
});
