// pods/ephemeralcontainers and pods/resize through the registry over the memory
// backend: one row per rule, the invalid form refused with kube's cause and the
// stored pod untouched, the valid form stored with only what the subresource writes.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { pods } from '../../../../src/apis/core/v1/pods.js';
import { podTemplates } from '../../../../src/apis/core/v1/pod-templates.js';
import { podRequests } from '../../../../src/apis/core/v1/pod-resize-admission.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

type Spec = Record<string, any>;
const meta = { name: 'web', namespace: 'ns' };
const nginx = { name: 'nginx', image: 'nginx' };
const FORBIDDEN = 'Forbidden: cannot be set for an Ephemeral Container';

/** Creates a pod and answers what the store holds. */
async function created(spec: Spec, metadata: Record<string, unknown> = {}): Promise<KubeObject> {
  const got = await h.create(pods, { metadata: { ...meta, ...metadata }, spec });
  expect(got.errors).toEqual([]);
  return got.stored!;
}

/** The stored pod with spec changed by `edit`, as a client's read-modify-write sends it. */
function edited(stored: KubeObject, edit: (spec: Spec) => void): KubeObject {
  const next = structuredClone(stored) as KubeObject & { spec: Spec };
  edit(next.spec);
  return next;
}

describe('pods/ephemeralcontainers', () => {
  test('adds a container, defaulted, and moves generation; everything else the body carries is dropped', async () => {
    const stored = await created({ containers: [nginx] });
    const body = edited(stored, (spec) => {
      spec.ephemeralContainers = [{ name: 'debug', image: 'busybox', targetContainerName: 'nginx', stdin: true, tty: true }];
      spec.containers[0].image = 'other';
    });
    body.metadata.labels = { added: 'label' };
    body.status = { phase: 'Running' };
    const got = await h.updateSubresource(pods, 'ephemeralcontainers', body);
    expect(got.errors).toEqual([]);
    expect(got.stored).toEqual(got.object);
    expect(got.stored?.metadata.generation).toBe(2);
    expect(got.stored?.metadata.labels).toBeUndefined();
    expect(got.stored?.status).toEqual(stored.status);
    expect((got.stored?.spec as Spec).containers[0].image).toBe('nginx');
    expect((got.stored?.spec as Spec).ephemeralContainers).toEqual([
      {
        name: 'debug',
        image: 'busybox',
        targetContainerName: 'nginx',
        stdin: true,
        tty: true,
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'Always',
      },
    ]);
  });

  test('a write that changes nothing keeps generation', async () => {
    const stored = await created({ containers: [nginx] });
    const got = await h.updateSubresource(pods, 'ephemeralcontainers', edited(stored, () => {}));
    expect(got.errors).toEqual([]);
    expect(got.stored?.metadata.generation).toBe(1);
  });

  const invalid: { name: string; ephemeral: Spec[]; volumes?: Spec[]; want: string[] }[] = [
    { name: 'image required', ephemeral: [{ name: 'debug' }], want: ['spec.ephemeralContainers[0].image: Required value'] },
    { name: 'name required', ephemeral: [{ image: 'busybox' }], want: ['spec.ephemeralContainers[0].name: Required value'] },
    { name: 'name taken by a regular container', ephemeral: [{ name: 'nginx', image: 'busybox' }], want: ['spec.ephemeralContainers[0].name: Duplicate value: "nginx"'] },
    {
      name: 'name taken by another ephemeral container',
      ephemeral: [
        { name: 'debug', image: 'busybox' },
        { name: 'debug', image: 'busybox' },
      ],
      want: ['spec.ephemeralContainers[1].name: Duplicate value: "debug"'],
    },
    { name: 'target names no container', ephemeral: [{ name: 'debug', image: 'busybox', targetContainerName: 'nope' }], want: ['spec.ephemeralContainers[0].targetContainerName: Not found: "nope"'] },
    {
      name: 'target names an ephemeral container',
      ephemeral: [
        { name: 'a', image: 'busybox' },
        { name: 'b', image: 'busybox', targetContainerName: 'a' },
      ],
      want: ['spec.ephemeralContainers[1].targetContainerName: Not found: "a"'],
    },
    { name: 'ports', ephemeral: [{ name: 'debug', image: 'busybox', ports: [{ containerPort: 80 }] }], want: [`spec.ephemeralContainers[0].ports: ${FORBIDDEN}`] },
    { name: 'an empty port list is set', ephemeral: [{ name: 'debug', image: 'busybox', ports: [] }], want: [`spec.ephemeralContainers[0].ports: ${FORBIDDEN}`] },
    { name: 'resources', ephemeral: [{ name: 'debug', image: 'busybox', resources: { limits: { cpu: '1' } } }], want: [`spec.ephemeralContainers[0].resources: ${FORBIDDEN}`] },
    { name: 'resources with an empty list', ephemeral: [{ name: 'debug', image: 'busybox', resources: { requests: {} } }], want: [`spec.ephemeralContainers[0].resources: ${FORBIDDEN}`] },
    {
      name: 'probes, lifecycle and restart policies, in kube order',
      ephemeral: [
        {
          name: 'debug',
          image: 'busybox',
          lifecycle: { preStop: { exec: { command: ['x'] } } },
          startupProbe: { exec: { command: ['x'] } },
          livenessProbe: { exec: { command: ['x'] } },
          restartPolicy: 'Always',
          resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
        },
      ],
      want: [
        `spec.ephemeralContainers[0].resizePolicy: ${FORBIDDEN}`,
        `spec.ephemeralContainers[0].restartPolicy: ${FORBIDDEN}`,
        `spec.ephemeralContainers[0].livenessProbe: ${FORBIDDEN}`,
        `spec.ephemeralContainers[0].startupProbe: ${FORBIDDEN}`,
        `spec.ephemeralContainers[0].lifecycle: ${FORBIDDEN}`,
      ],
    },
    {
      name: 'subPath and subPathExpr',
      volumes: [{ name: 'v', emptyDir: {} }],
      ephemeral: [{ name: 'debug', image: 'busybox', volumeMounts: [{ name: 'v', mountPath: '/a', subPath: 'x', subPathExpr: '$(Y)' }] }],
      want: [`spec.ephemeralContainers[0].volumeMounts[0].subPath: ${FORBIDDEN}`, `spec.ephemeralContainers[0].volumeMounts[0].subPathExpr: ${FORBIDDEN}`],
    },
    { name: 'a mount of no volume', ephemeral: [{ name: 'debug', image: 'busybox', volumeMounts: [{ name: 'v', mountPath: '/a' }] }], want: ['spec.ephemeralContainers[0].volumeMounts[0].name: Not found: "v"'] },
  ];
  for (const c of invalid) {
    test(`refused: ${c.name}`, async () => {
      const stored = await created({ containers: [nginx], ...(c.volumes === undefined ? {} : { volumes: c.volumes }) });
      const got = await h.updateSubresource(pods, 'ephemeralcontainers', edited(stored, (spec) => (spec.ephemeralContainers = c.ephemeral)));
      expect(got.errors).toEqual(c.want);
      expect(got.stored).toEqual(stored);
    });
  }

  test('an existing ephemeral container may not be removed or changed', async () => {
    const stored = await created({ containers: [nginx] });
    const added = await h.updateSubresource(pods, 'ephemeralcontainers', edited(stored, (spec) => (spec.ephemeralContainers = [{ name: 'debug', image: 'busybox' }])));
    expect(added.errors).toEqual([]);
    const removed = await h.updateSubresource(pods, 'ephemeralcontainers', edited(added.stored!, (spec) => (spec.ephemeralContainers = [])));
    expect(removed.errors).toEqual(['spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be removed\n']);
    const changed = await h.updateSubresource(pods, 'ephemeralcontainers', edited(added.stored!, (spec) => (spec.ephemeralContainers[0].image = 'alpine')));
    expect(changed.errors).toEqual(['spec.ephemeralContainers[debug]: Forbidden: existing ephemeral containers "debug" may not be changed\n  image: changed']);
    expect(changed.stored).toEqual(added.stored);
    // Reordered is not changed: kube looks them up by name.
    const two = await h.updateSubresource(pods, 'ephemeralcontainers', edited(added.stored!, (spec) => spec.ephemeralContainers.push({ name: 'second', image: 'busybox' })));
    expect(two.errors).toEqual([]);
    const swapped = await h.updateSubresource(pods, 'ephemeralcontainers', edited(two.stored!, (spec) => spec.ephemeralContainers.reverse()));
    expect(swapped.errors).toEqual([]);
  });

  test('a static pod takes none, and says only that', async () => {
    const stored = await created({ containers: [nginx] }, { annotations: { 'kubernetes.io/config.mirror': 'abc' } });
    const got = await h.updateSubresource(pods, 'ephemeralcontainers', edited(stored, (spec) => (spec.ephemeralContainers = [{ name: 'debug' }])));
    expect(got.errors).toEqual(['[]: Forbidden: static pods do not support ephemeral containers']);
    expect(got.causes).toEqual([{ field: '[]', reason: 'FieldValueForbidden', message: 'Forbidden: static pods do not support ephemeral containers' }]);
  });

  test('the main resource may not add them', async () => {
    const stored = await created({ containers: [nginx] });
    const got = await h.update(pods, edited(stored, (spec) => (spec.ephemeralContainers = [{ name: 'debug', image: 'busybox' }])));
    expect(got.errors[0]).toMatch(/^spec: Forbidden: pod updates may not change fields other than/);
  });

  test('templates may not carry them', async () => {
    const got = await h.create(podTemplates, { metadata: meta, template: { spec: { containers: [nginx], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] } } });
    expect(got.errors).toEqual(['template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template']);
  });
});

const burstable = { name: 'c', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } };

describe('pods/resize', () => {
  test('cpu and memory move, generation with them; other changes are dropped', async () => {
    const stored = await created({ containers: [burstable] });
    const body = edited(stored, (spec) => {
      spec.containers[0].resources = { requests: { cpu: '150m', memory: '96Mi' }, limits: { cpu: '300m', memory: '128Mi' } };
      spec.containers[0].image = 'other';
      spec.activeDeadlineSeconds = 5;
    });
    body.metadata.labels = { dropped: 'yes' };
    const got = await h.updateSubresource(pods, 'resize', body);
    expect(got.errors).toEqual([]);
    expect(got.stored).toEqual(got.object);
    const spec = got.stored?.spec as Spec;
    expect(spec.containers[0]).toMatchObject({ image: 'nginx', resources: { requests: { cpu: '150m', memory: '96Mi' }, limits: { cpu: '300m', memory: '128Mi' } } });
    expect(spec.activeDeadlineSeconds).toBeUndefined();
    expect(got.stored?.metadata.labels).toBeUndefined();
    expect(got.stored?.metadata.generation).toBe(2);
  });

  test('a write that changes only dropped fields keeps generation', async () => {
    const stored = await created({ containers: [burstable] });
    const got = await h.updateSubresource(pods, 'resize', edited(stored, (spec) => (spec.containers[0].image = 'other')));
    expect(got.errors).toEqual([]);
    expect(got.stored).toEqual(stored);
  });

  const guaranteed = { name: 'g', image: 'nginx', resources: { limits: { cpu: '100m', memory: '64Mi' } } };
  const invalid: { name: string; containers: Spec[]; edit: (spec: Spec) => void; status?: Spec; metadata?: Record<string, unknown>; want: string[] }[] = [
    {
      name: 'the QoS class may not change (the stored class is what kube quotes)',
      containers: [guaranteed],
      edit: (spec) => (spec.containers[0].resources = { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } }),
      want: ['spec: Invalid value: "Guaranteed": Pod QOS Class may not change as a result of resizing'],
    },
    {
      name: 'a best-effort pod may not gain requests',
      containers: [nginx],
      edit: (spec) => (spec.containers[0].resources = { requests: { cpu: '50m' } }),
      want: ['spec: Invalid value: "BestEffort": Pod QOS Class may not change as a result of resizing'],
    },
    {
      name: 'requests stay under limits',
      containers: [burstable],
      edit: (spec) => (spec.containers[0].resources.requests.cpu = '500m'),
      want: ['spec.containers[0].resources.requests[cpu]: Invalid value: "500m": must be less than or equal to cpu limit of 200m'],
    },
    {
      name: 'a limit may not be removed',
      containers: [burstable],
      edit: (spec) => delete spec.containers[0].resources.limits.memory,
      want: ['spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed'],
    },
    {
      name: 'a request may not be removed',
      containers: [{ ...burstable, resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m' } } }],
      edit: (spec) => delete spec.containers[0].resources.requests.memory,
      want: ['spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed'],
    },
    {
      name: 'pod-level: only cpu and memory move',
      containers: [burstable],
      edit: (spec) => (spec.resources.requests['ephemeral-storage'] = '1Gi'),
      want: ['spec: Forbidden: only cpu and memory resources are mutable at pod-level'],
    },
    {
      name: 'only cpu and memory move',
      containers: [burstable],
      edit: (spec) => (spec.containers[0].resources.limits['ephemeral-storage'] = '1Gi'),
      want: ['spec: Forbidden: only cpu and memory resources are mutable'],
    },
    {
      name: 'a changed resizePolicy is a change past cpu and memory',
      containers: [burstable],
      edit: (spec) => (spec.containers[0].resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }]),
      want: ['spec: Forbidden: only cpu and memory resources are mutable'],
    },
    {
      name: 'a sidecar changes only cpu and memory',
      containers: [burstable],
      edit: (spec) => (spec.initContainers[0].resources = { limits: { 'ephemeral-storage': '1Gi' } }),
      want: ['spec: Forbidden: only cpu and memory resources for sidecar containers are mutable'],
    },
    {
      name: 'containers may not be added',
      containers: [burstable],
      edit: (spec) => spec.containers.push({ name: 'd', image: 'nginx' }),
      want: ['spec.containers: Forbidden: containers may not be added or removed on resize'],
    },
    {
      name: 'containers may not be renamed',
      containers: [burstable, { ...burstable, name: 'd' }],
      edit: (spec) => spec.containers.reverse(),
      want: ['spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize', 'spec.containers[1].name: Forbidden: containers may not be renamed or reordered on resize'],
    },
    {
      name: 'a running container on a node that reports no resources',
      containers: [burstable],
      status: { phase: 'Running', containerStatuses: [{ name: 'c', state: { running: {} } }] },
      edit: (spec) => (spec.containers[0].resources.requests.cpu = '150m'),
      want: ['spec: Forbidden: Pod running on node without support for resize'],
    },
    {
      name: 'a static pod',
      containers: [burstable],
      metadata: { annotations: { 'kubernetes.io/config.mirror': 'abc' } },
      edit: (spec) => (spec.containers[0].resources.requests.cpu = '150m'),
      want: ['[]: Forbidden: static pods cannot be resized'],
    },
    {
      name: 'pod-level resources may not be removed',
      containers: [burstable],
      edit: (spec) => delete spec.resources,
      want: ['spec.resources: Forbidden: pod-level resources cannot be removed'],
    },
  ];
  for (const c of invalid) {
    test(`refused: ${c.name}`, async () => {
      const init = c.name.includes('sidecar') ? { initContainers: [{ name: 'side', image: 'envoy', restartPolicy: 'Always' }] } : {};
      const podLevel = c.name.includes('pod-level') ? { resources: { requests: { cpu: '500m' } } } : {};
      let stored = await created({ containers: c.containers, ...init, ...podLevel }, c.metadata);
      if (c.status !== undefined) {
        const st = await h.updateStatus(pods, { ...stored, status: { ...(stored.status as Spec), ...c.status } });
        expect(st.errors).toEqual([]);
        stored = st.stored!;
      }
      const got = await h.updateSubresource(pods, 'resize', edited(stored, c.edit));
      expect(got.errors).toEqual(c.want);
      expect(got.stored).toEqual(stored);
    });
  }

  test('a running container whose status reports resources may be resized', async () => {
    const stored = await created({ containers: [burstable] });
    const running = await h.updateStatus(pods, { ...stored, status: { ...(stored.status as Spec), phase: 'Running', containerStatuses: [{ name: 'c', state: { running: {} }, resources: {} }] } });
    expect(running.errors).toEqual([]);
    const got = await h.updateSubresource(pods, 'resize', edited(running.stored!, (spec) => (spec.containers[0].resources.requests.cpu = '150m')));
    expect(got.errors).toEqual([]);
    expect((got.stored?.spec as Spec).containers[0].resources.requests.cpu).toBe('150m');
  });

  test('pod-level cpu moves', async () => {
    const stored = await created({ containers: [burstable], resources: { requests: { cpu: '500m' } } });
    const got = await h.updateSubresource(pods, 'resize', edited(stored, (spec) => (spec.resources.requests.cpu = '600m')));
    expect(got.errors).toEqual([]);
    expect((got.stored?.spec as Spec).resources).toEqual({ requests: { cpu: '600m' } });
  });
});

describe('podRequests: what a pod asks of its node (PodResizeValidator)', () => {
  const c = (name: string, cpu: string, memory: string, restartPolicy?: string) => ({ name, image: 'x', resources: { requests: { cpu, memory } }, ...(restartPolicy === undefined ? {} : { restartPolicy }) });
  const rows: { name: string; spec: Spec; want: { cpu: number; memory: number } }[] = [
    { name: 'containers add up', spec: { containers: [c('a', '100m', '1Mi'), c('b', '200m', '1Mi')] }, want: { cpu: 0.3, memory: 2 * 2 ** 20 } },
    { name: 'a larger init container wins', spec: { containers: [c('a', '100m', '1Mi')], initContainers: [c('i', '1', '1Ki')] }, want: { cpu: 1, memory: 2 ** 20 } },
    {
      name: 'sidecars run beside the containers and the init containers after them',
      spec: { containers: [c('a', '100m', '1Mi')], initContainers: [c('s', '200m', '1Mi', 'Always'), c('i', '250m', '1Ki')] },
      want: { cpu: 0.45, memory: 2 * 2 ** 20 },
    },
    { name: 'pod-level requests replace the sum', spec: { containers: [c('a', '100m', '1Mi')], resources: { requests: { cpu: '2' } } }, want: { cpu: 2, memory: 2 ** 20 } },
    { name: 'overhead is added', spec: { containers: [c('a', '100m', '1Mi')], overhead: { cpu: '50m' } }, want: { cpu: 0.15, memory: 2 ** 20 } },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const got = podRequests(row.spec);
      expect(got.cpu).toBeCloseTo(row.want.cpu, 9);
      expect(got.memory).toBe(row.want.memory);
    });
  }
});
