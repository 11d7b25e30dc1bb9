// Pod rules through the registry over the memory backend (test/support/store-harness.ts):
// defaults, status on create, validation and update rules as the real store runs them.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { pods, POD_UPDATE_FORBIDDEN } from '../../../../src/apis/core/v1/pods.js';
import { defaultPullPolicy } from '../../../../src/apis/core/v1/pod-spec-defaults.js';
import { podQOSClass } from '../../../../src/apis/core/v1/pod-qos.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { createStoreHarness, systemMetadata, type StoreHarness } from '../../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const meta = { name: 'web', namespace: 'ns' };
const pod = (spec: Record<string, unknown>): KubeObject => ({ metadata: { ...meta }, spec });
const nginx = { name: 'nginx', image: 'nginx' };

describe('Pod defaults', () => {
  test('a minimal pod gets kube-apiserver defaults', async () => {
    const { object, stored, errors } = await h.create(pods, pod({ containers: [{ ...nginx, ports: [{ containerPort: 80 }] }] }));
    expect(errors).toEqual([]);
    expect(stored).toEqual(object);
    expect(stored).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { ...meta, ...systemMetadata(), generation: 1 },
      spec: {
        containers: [
          {
            name: 'nginx',
            image: 'nginx',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            resources: {},
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'Always',
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        schedulerName: 'default-scheduler',
        enableServiceLinks: true,
        priority: 0,
        preemptionPolicy: 'PreemptLowerPriority',
      },
      status: { phase: 'Pending', qosClass: 'BestEffort' },
    });
  });

  // kube-apiserver resets a pod's status on create: the client's is dropped, the store's Pending answered and kept.
  test('client status is replaced on create', async () => {
    const got = await h.create(pods, { ...pod({ containers: [nginx] }), status: { phase: 'Running', podIP: '10.1.1.1' } });
    expect(got.errors).toEqual([]);
    expect(got.object?.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(got.stored?.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  test('probes, volumes and requests from limits', async () => {
    const { stored: obj } = await h.create(
      pods,
      pod({
        containers: [{ ...nginx, resources: { limits: { cpu: '1' } }, livenessProbe: { httpGet: { port: 80 } } }],
        volumes: [{ name: 'cfg', configMap: { name: 'c' } }, { name: 'scratch' }],
      }),
    );
    const spec = obj?.spec as { containers: Record<string, unknown>[]; volumes: unknown[] };
    expect(spec.containers[0]!.resources).toEqual({ limits: { cpu: '1' }, requests: { cpu: '1' } });
    expect(spec.containers[0]!.livenessProbe).toEqual({
      httpGet: { port: 80, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(spec.volumes).toEqual([{ name: 'cfg', configMap: { name: 'c', defaultMode: 420 } }, { name: 'scratch', emptyDir: {} }]);
  });
});

const pullCases: { name: string; image: string; want: 'Always' | 'IfNotPresent' }[] = [
  { name: 'no tag', image: 'nginx', want: 'Always' },
  { name: 'latest', image: 'nginx:latest', want: 'Always' },
  { name: 'tag', image: 'nginx:1.27', want: 'IfNotPresent' },
  { name: 'registry port, no tag', image: 'localhost:5000/app', want: 'Always' },
  { name: 'registry port with tag', image: 'localhost:5000/app:v1', want: 'IfNotPresent' },
  { name: 'digest only', image: 'nginx@sha256:abc', want: 'IfNotPresent' },
  { name: 'unparsable upper case', image: 'NGINX', want: 'IfNotPresent' },
];

describe('imagePullPolicy default', () => {
  for (const c of pullCases) test(c.name, () => expect(defaultPullPolicy(c.image)).toBe(c.want));
});

const qosCases: { name: string; containers: Record<string, unknown>[]; want: string }[] = [
  { name: 'no resources', containers: [{}], want: 'BestEffort' },
  { name: 'requests only', containers: [{ resources: { requests: { cpu: '100m' } } }], want: 'Burstable' },
  { name: 'equal limits and requests', containers: [{ resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1Gi' } } }], want: 'Guaranteed' },
  { name: 'lower requests', containers: [{ resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } } }], want: 'Burstable' },
  { name: 'only cpu limit', containers: [{ resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }], want: 'Burstable' },
  { name: 'zero requests ignored', containers: [{ resources: { requests: { cpu: '0' } } }], want: 'BestEffort' },
];

describe('QoS class', () => {
  for (const c of qosCases) test(c.name, () => expect(podQOSClass({ containers: c.containers })).toBe(c.want));
});

const invalidCases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
  { name: 'no containers', spec: { containers: [] }, want: ['spec.containers: Required value'] },
  { name: 'no image', spec: { containers: [{ name: 'a' }] }, want: ['spec.containers[0].image: Required value'] },
  {
    name: 'bad container name',
    spec: { containers: [{ name: 'A_b', image: 'x' }] },
    want: [
      "spec.containers[0].name: Invalid value: \"A_b\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  { name: 'duplicate container name', spec: { containers: [nginx, nginx] }, want: ['spec.containers[1].name: Duplicate value: "nginx"'] },
  { name: 'container without an image, as in a template', spec: { containers: [{ name: 'c' }] }, want: ['spec.containers[0].image: Required value'] },
  // Only a Pod's own spec refuses this (validateContainersOnlyForPod); a template's " nginx " passes.
  { name: 'image with surrounding whitespace', spec: { containers: [{ name: 'c', image: ' nginx ' }] }, want: ['spec.containers[0].image: Invalid value: " nginx ": must not have leading or trailing whitespace'] },
  { name: 'ephemeral containers on create', spec: { containers: [nginx], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }, want: ['spec.ephemeralContainers: Forbidden: cannot be set on create'] },
  {
    name: 'bad restartPolicy',
    spec: { containers: [nginx], restartPolicy: 'Sometimes' },
    want: ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'],
  },
  {
    name: 'port out of range and bad protocol',
    spec: { containers: [{ ...nginx, ports: [{ containerPort: 70000, protocol: 'ICMP' }] }] },
    want: [
      'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ],
  },
  { name: 'unknown volume mount', spec: { containers: [{ ...nginx, volumeMounts: [{ name: 'v', mountPath: '/v' }] }] }, want: ['spec.containers[0].volumeMounts[0].name: Not found: "v"'] },
  {
    name: 'request above limit',
    spec: { containers: [{ ...nginx, resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }] },
    want: ['spec.containers[0].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1'],
  },
  {
    name: 'activeDeadlineSeconds zero',
    spec: { containers: [nginx], activeDeadlineSeconds: 0 },
    want: ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
  },
];

describe('Pod validation', () => {
  for (const c of invalidCases) {
    test(c.name, async () => {
      const got = await h.create(pods, pod(c.spec));
      expect(got.errors).toEqual(c.want);
      expect(got.stored).toBeUndefined();
    });
  }
});

const updateCases: { name: string; prev: Record<string, unknown>; next: Record<string, unknown>; want: string[]; generation?: number }[] = [
  { name: 'image change allowed', prev: { containers: [{ ...nginx, image: 'nginx:1' }] }, next: { containers: [{ ...nginx, image: 'nginx:2' }] }, want: [], generation: 2 },
  { name: 'no change keeps generation', prev: { containers: [nginx] }, next: { containers: [nginx] }, want: [], generation: 1 },
  { name: 'toleration added', prev: { containers: [nginx] }, next: { containers: [nginx], tolerations: [{ key: 'k', operator: 'Exists' }] }, want: [] },
  {
    name: 'port change forbidden',
    prev: { containers: [nginx] },
    next: { containers: [{ ...nginx, ports: [{ containerPort: 80 }] }] },
    want: [`spec: Forbidden: ${POD_UPDATE_FORBIDDEN}\n  spec.containers: changed`],
  },
  {
    name: 'adding a container forbidden',
    prev: { containers: [nginx] },
    next: { containers: [nginx, { name: 'b', image: 'b' }] },
    want: ['spec.containers: Forbidden: pod updates may not add or remove containers'],
  },
  {
    name: 'deadline may only shrink',
    prev: { containers: [nginx], activeDeadlineSeconds: 10 },
    next: { containers: [nginx], activeDeadlineSeconds: 20 },
    want: ['spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to previous value'],
  },
];

describe('Pod update', () => {
  for (const c of updateCases) {
    test(c.name, async () => {
      const created = await h.create(pods, pod(c.prev));
      expect(created.errors).toEqual([]);
      const got = await h.update(pods, pod(c.next));
      expect(got.errors).toEqual(c.want);
      if (c.want.length > 0) expect(got.stored).toEqual(created.stored);
      else expect(got.stored).toEqual(got.object);
      if (c.generation !== undefined) expect(got.stored?.metadata.generation).toBe(c.generation);
      expect(got.stored?.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    });
  }

  test('the main resource keeps the stored status whatever the body says', async () => {
    expect((await h.create(pods, pod({ containers: [nginx] }))).errors).toEqual([]);
    const got = await h.update(pods, { ...pod({ containers: [nginx] }), metadata: { ...meta, labels: { a: 'b' } }, status: { phase: 'Succeeded' } });
    expect(got.errors).toEqual([]);
    expect(got.object?.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(got.stored).toMatchObject({ metadata: { labels: { a: 'b' } }, status: { phase: 'Pending', qosClass: 'BestEffort' } });
  });
});

describe('Pod selectable fields', () => {
  test('kube field set', async () => {
    const { stored } = await h.create(pods, pod({ containers: [nginx], nodeName: 'n1' }));
    expect(pods.strategy.selectableFields?.(stored!)).toEqual({
      'spec.nodeName': 'n1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': '',
      'spec.hostNetwork': 'false',
      'status.phase': 'Pending',
      'status.podIP': '',
      'status.podIPs': '',
      'status.nominatedNodeName': '',
    });
  });
});
