// Kind rules of the smaller core kinds, each row written through the registry over
// the memory backend (test/support/store-harness.ts): what the store answers, what
// it keeps, and the Invalid causes, in the order the real store produces them.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
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
import { createStoreHarness, type StoreHarness } from '../../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

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
    name: 'pod template needs an image, as every container does',
    def: podTemplates,
    input: ns('pt', { template: { spec: { containers: [{ name: 'c' }] } } }),
    want: ['template.spec.containers[0].image: Required value'],
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
  for (const c of createCases) {
    test(c.name, async () => {
      const got = await h.create(c.def, c.input);
      expect(got.errors).toEqual(c.want);
      // Refused objects are not stored; accepted ones are stored as answered.
      if (c.want.length > 0) expect(got.stored).toBeUndefined();
      else expect(got.stored).toEqual(got.object);
    });
  }
});

const rcSpec = (replicas?: number): Record<string, unknown> => ({
  ...(replicas === undefined ? {} : { replicas }),
  template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
});
const validPv = { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/d' } };
const validPvc = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };

const defaultCases: {
  name: string;
  def: ResourceDefinition;
  input: KubeObject;
  /** Matched against the answer and the stored object. */
  want: Record<string, unknown>;
  /** Top-level fields that must equal exactly (undefined: absent). */
  exact?: Record<string, unknown>;
}[] = [
  {
    name: 'rc defaults from template',
    def: replicationControllers,
    input: ns('rc', { spec: rcSpec() }),
    want: {
      metadata: { labels: { app: 'a' }, generation: 1 },
      spec: { replicas: 1, selector: { app: 'a' }, template: { spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' } } },
    },
    exact: { status: { replicas: 0 } },
  },
  {
    name: 'limit range container chain',
    def: limitRanges,
    input: ns('l', { spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' } }] } }),
    want: {},
    exact: { spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '1Mi' } }] } },
  },
  // A valid volume and claim: the real store refuses the empty spec before anything is stored.
  { name: 'pv starts Pending', def: persistentVolumes, input: { metadata: { name: 'pv' }, spec: validPv }, want: { status: { phase: 'Pending' } } },
  { name: 'pvc starts Pending', def: persistentVolumeClaims, input: ns('c', { spec: validPvc }), want: { spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } } },
  {
    // kube-apiserver keeps the status a Node is created with (the kubelet registers with one).
    name: 'node keeps status on create and allocatable defaults to capacity',
    def: nodes,
    input: { metadata: { name: 'n' }, status: { capacity: { cpu: '4' } } },
    want: {},
    exact: { status: { capacity: { cpu: '4' }, allocatable: { cpu: '4' } } },
  },
  { name: 'quota status cleared on create', def: resourceQuotas, input: ns('q', { spec: {}, status: { used: { pods: '1' } } }), want: {}, exact: { status: undefined } },
];

describe('defaults and status on create', () => {
  for (const c of defaultCases) {
    test(c.name, async () => {
      const got = await h.create(c.def, c.input);
      expect(got.errors).toEqual([]);
      expect(got.stored).toEqual(got.object);
      expect(got.stored).toMatchObject(c.want);
      for (const [field, value] of Object.entries(c.exact ?? {})) expect(got.stored?.[field]).toEqual(value);
    });
  }
});

const updateCases: {
  name: string;
  def: ResourceDefinition;
  prev: KubeObject;
  next: KubeObject;
  want: string[];
  wantObj?: Partial<KubeObject> & { metadata?: object };
}[] = [
  {
    name: 'pvc storage request may grow',
    def: persistentVolumeClaims,
    prev: ns('c', { spec: validPvc }),
    next: ns('c', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } }),
    want: [],
  },
  {
    name: 'pvc spec frozen except size',
    def: persistentVolumeClaims,
    prev: ns('c', { spec: validPvc }),
    next: ns('c', { spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } } }),
    want: ['spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'],
  },
  { name: 'rc unchanged spec keeps generation', def: replicationControllers, prev: ns('rc', { spec: rcSpec(1) }), next: ns('rc', { spec: rcSpec(1) }), want: [], wantObj: { metadata: { generation: 1 } } },
  { name: 'rc changed spec bumps generation', def: replicationControllers, prev: ns('rc', { spec: rcSpec(1) }), next: ns('rc', { spec: rcSpec(3) }), want: [], wantObj: { metadata: { generation: 2 } } },
  {
    // The main resource never writes status; this needs the create above to have kept it (kube does).
    name: 'node status comes from the stored object',
    def: nodes,
    prev: { metadata: { name: 'n' }, status: { phase: 'Running' } },
    next: { metadata: { name: 'n' }, status: { phase: 'x' } },
    want: [],
    wantObj: { status: { phase: 'Running' } },
  },
];

describe('updates', () => {
  for (const c of updateCases) {
    test(c.name, async () => {
      const created = await h.create(c.def, c.prev);
      expect(created.errors).toEqual([]);
      const got = await h.update(c.def, c.next);
      expect(got.errors).toEqual(c.want);
      if (c.want.length > 0) {
        // A refused update leaves the stored object as it was.
        expect(got.stored).toEqual(created.stored);
      } else {
        expect(got.stored).toEqual(got.object);
        if (c.wantObj !== undefined) expect(got.stored).toMatchObject(c.wantObj);
      }
    });
  }

  test('node status written through /status survives a main-resource update whatever the body says', async () => {
    expect((await h.create(nodes, { metadata: { name: 'n' }, spec: {} })).errors).toEqual([]);
    const status = await h.updateStatus(nodes, { metadata: { name: 'n' }, status: { phase: 'Running' } });
    expect(status.errors).toEqual([]);
    expect(status.stored?.status).toEqual({ phase: 'Running' });
    const got = await h.update(nodes, { metadata: { name: 'n' }, spec: { unschedulable: true }, status: { phase: 'x' } });
    expect(got.errors).toEqual([]);
    expect(got.object?.status).toEqual({ phase: 'Running' });
    expect(got.stored).toMatchObject({ spec: { unschedulable: true }, status: { phase: 'Running' } });
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
