// Pod and pod-template Warning headers (kube's pkg/api/pod/warnings.go): each row
// is a pod spec or template metadata that triggers one warning and kube's exact
// text; the valid forms warn about nothing. Then the wiring through the real
// registry: every kind with a pod template warns with its own path on create, on
// update only when the generation moved, and a Pod warns on create and update.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { deployments } from '../../../../src/apis/apps/v1/deployments.js';
import { daemonSets } from '../../../../src/apis/apps/v1/daemon-sets.js';
import { replicaSets } from '../../../../src/apis/apps/v1/replica-sets.js';
import { statefulSets } from '../../../../src/apis/apps/v1/stateful-sets.js';
import { cronJobs } from '../../../../src/apis/batch/v1/cron-jobs.js';
import { jobs } from '../../../../src/apis/batch/v1/jobs.js';
import { podTemplates } from '../../../../src/apis/core/v1/pod-templates.js';
import { pods } from '../../../../src/apis/core/v1/pods.js';
import { podTemplateWarnings, podWarnings } from '../../../../src/apis/core/v1/pod-warnings.js';
import { path } from '../../../../src/schema/field-errors.js';
import type { ResourceDefinition } from '../../../../src/registry/define-resource.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../../support/store-harness.js';

type Json = Record<string, unknown>;

const container = (extra: Json = {}): Json => ({ name: 'c', image: 'nginx', ...extra });

interface Row {
  readonly name: string;
  /** The pod spec (containers default to one plain container). */
  readonly spec?: Json;
  readonly annotations?: Record<string, string>;
  /** Texts for a Pod (paths from `spec`); the template texts are the same under `spec.template.`. */
  readonly want: readonly string[];
}

const rows: Row[] = [
  { name: 'a plain pod warns about nothing', want: [] },
  {
    name: 'deprecated node label in nodeSelector',
    spec: { nodeSelector: { 'beta.kubernetes.io/os': 'linux' } },
    want: ['spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead'],
  },
  { name: 'current node label in nodeSelector', spec: { nodeSelector: { 'kubernetes.io/os': 'linux' } }, want: [] },
  {
    name: 'deprecated key in a required node affinity term',
    spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'Exists' }] }] } } } },
    want: [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    ],
  },
  {
    name: 'deprecated key in a preferred node affinity term',
    spec: { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'node-role.kubernetes.io/master', operator: 'Exists' }] } }] } } },
    want: [
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: node-role.kubernetes.io/master is use "node-role.kubernetes.io/control-plane" instead',
    ],
  },
  {
    name: 'topology spread: deprecated key and no labelSelector',
    spec: { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'beta.kubernetes.io/instance-type', whenUnsatisfiable: 'DoNotSchedule' }] },
    want: [
      'spec.topologySpreadConstraints[0].topologyKey: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
      'spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod',
    ],
  },
  { name: 'topology spread with a selector and a current key', spec: { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: {} }] }, want: [] },
  {
    name: 'deprecated critical-pod annotation',
    annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' },
    want: ['metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead'],
  },
  {
    name: 'deprecated sysctls annotation',
    annotations: { 'security.alpha.kubernetes.io/sysctls': 'a=b' },
    want: ['metadata.annotations[security.alpha.kubernetes.io/sysctls]: non-functional in v1.11+; use the "sysctls" field instead'],
  },
  {
    name: 'deprecated volume plugins',
    spec: {
      volumes: [
        { name: 'a', gitRepo: { repository: 'https://example.com/r.git' } },
        { name: 'b', storageos: { volumeName: 'v' } },
        { name: 'c', rbd: { monitors: ['m'], image: 'i' } },
        { name: 'd', configMap: { name: 'fine' } },
      ],
    },
    want: [
      'spec.volumes[0].gitRepo: deprecated in v1.11',
      'spec.volumes[1].storageOS: deprecated in v1.22, non-functional in v1.25+',
      'spec.volumes[2].rbd: deprecated in v1.28, non-functional in v1.31+',
    ],
  },
  {
    name: 'duplicate hostAliases ip',
    spec: { hostAliases: [{ ip: '10.0.0.1', hostnames: ['a'] }, { ip: '10.0.0.1', hostnames: ['b'] }] },
    want: ['spec.hostAliases[1].ip: duplicate ip "10.0.0.1"'],
  },
  {
    name: 'duplicate and empty imagePullSecrets',
    spec: { imagePullSecrets: [{ name: 'r' }, { name: 'r' }, {}] },
    want: ['spec.imagePullSecrets[1].name: duplicate name "r"', 'spec.imagePullSecrets[2].name: invalid empty name ""'],
  },
  {
    name: 'fractional memory limit and ephemeral-storage request',
    spec: { containers: [container({ resources: { limits: { memory: '1.5' }, requests: { 'ephemeral-storage': '100m' } } })] },
    want: [
      'spec.containers[0].resources.limits[memory]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.containers[0].resources.requests[ephemeral-storage]: fractional byte value "100m" is invalid, must be an integer',
    ],
  },
  {
    // The second container's answer comes from the remembered text: the same warning.
    name: 'one fractional quantity in two containers',
    spec: { containers: [container({ name: 'a', resources: { limits: { memory: '2.5' } } }), container({ name: 'b', resources: { requests: { memory: '2.5' } } })] },
    want: [
      'spec.containers[0].resources.limits[memory]: fractional byte value "2500m" is invalid, must be an integer',
      'spec.containers[1].resources.requests[memory]: fractional byte value "2500m" is invalid, must be an integer',
    ],
  },
  { name: 'whole byte quantities', spec: { containers: [container({ resources: { limits: { memory: '0.5Gi', cpu: '100m' }, requests: { memory: '128Mi' } } })] }, want: [] },
  {
    name: 'fractional overhead memory',
    spec: { overhead: { memory: '0.5' } },
    want: ['spec.overhead[memory]: fractional byte value "500m" is invalid, must be an integer'],
  },
  {
    name: 'seccomp annotations without the field',
    annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default', 'container.seccomp.security.alpha.kubernetes.io/c': 'runtime/default' },
    want: [
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/c]: non-functional in v1.27+; use the "seccompProfile" field instead',
    ],
  },
  {
    name: 'seccomp annotations with the fields',
    annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default', 'container.seccomp.security.alpha.kubernetes.io/c': 'runtime/default' },
    spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [container({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } })] },
    want: [],
  },
  {
    name: 'an env name defined twice',
    spec: { containers: [container({ env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }, { name: 'B', value: 'x' }, { name: 'B', value: '$(B)y' }] })] },
    want: ['spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply'],
  },
  {
    name: 'ports that clash across containers',
    spec: {
      containers: [
        container({ ports: [{ containerPort: 80 }, { containerPort: 90, hostIP: '10.0.0.1' }] }),
        { name: 'd', image: 'nginx', ports: [{ containerPort: 80 }, { containerPort: 80, hostPort: 8080 }] },
      ],
    },
    want: [
      'spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:90 Protocol:TCP HostIP:10.0.0.1}',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[1]: overlapping port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[1]: overlapping port definition with spec.containers[1].ports[0]',
    ],
  },
  {
    name: 'negative terminationGracePeriodSeconds',
    spec: { terminationGracePeriodSeconds: -5 },
    want: ['spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1'],
  },
  {
    name: 'pod (anti-)affinity terms without a labelSelector',
    spec: {
      affinity: {
        podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname' }] },
        podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname' } }] },
      },
    },
    want: [
      'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: a null labelSelector results in matching no pod',
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod',
    ],
  },
];

/** Specs are checked after defaulting in the store; the unit rows give the defaulted protocol themselves. */
function specOf(row: Row): Json {
  const spec = { containers: [container()], ...row.spec };
  for (const c of spec.containers as Json[]) for (const p of (c.ports as Json[] | undefined) ?? []) p.protocol ??= 'TCP';
  return spec;
}

describe('pod warnings (GetWarningsForPod)', () => {
  for (const row of rows) {
    test(row.name, () => {
      const pod: KubeObject = { metadata: { name: 'p', annotations: row.annotations ?? {} }, spec: specOf(row) };
      expect(podWarnings(pod)).toEqual(row.want);
    });
  }
});

describe('pod template warnings (GetWarningsForPodTemplate) at spec.template', () => {
  for (const row of rows) {
    test(row.name, () => {
      const template = { metadata: { annotations: row.annotations ?? {} }, spec: specOf(row) };
      expect(podTemplateWarnings(template, path('spec', 'template'))).toEqual(row.want.map((w) => `spec.template.${w}`.replaceAll(' with spec.', ' with spec.template.spec.')));
    });
  }
  test('AppArmor annotation without the field warns for templates only', () => {
    const annotations = { 'container.apparmor.security.beta.kubernetes.io/c': 'runtime/default' };
    const want = 'spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead';
    expect(podTemplateWarnings({ metadata: { annotations }, spec: { containers: [container()] } }, path('spec', 'template'))).toEqual([want]);
    const withField = { metadata: { annotations }, spec: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [container()] } };
    expect(podTemplateWarnings(withField, path('spec', 'template'))).toEqual([]);
    expect(podWarnings({ metadata: { name: 'p', annotations }, spec: { containers: [container()] } })).toEqual([]);
  });
});

// --- through the registry ---------------------------------------------------------------

const LABELS = { app: 'a' };
const DEPRECATED_SPEC = { nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' }, containers: [container()] };
const ARCH = 'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead';
const template = (spec: Json): Json => ({ metadata: { labels: LABELS }, spec });

interface KindRow {
  readonly def: ResourceDefinition;
  /** The object with the given pod spec in its template. */
  readonly make: (spec: Json) => KubeObject;
  /** Where the template's pod spec is. */
  readonly prefix: string;
  /** A spec change that leaves the template alone (undefined: the kind has none to make). */
  readonly otherChange?: (obj: KubeObject) => void;
}

const meta = { name: 'w', namespace: 'default' };
const kinds: KindRow[] = [
  {
    def: deployments,
    make: (spec) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta, spec: { selector: { matchLabels: LABELS }, template: template(spec) } }),
    prefix: 'spec.template.',
    otherChange: (o) => void ((o.spec as Json).replicas = 5),
  },
  {
    def: replicaSets,
    make: (spec) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: meta, spec: { selector: { matchLabels: LABELS }, template: template(spec) } }),
    prefix: 'spec.template.',
    otherChange: (o) => void ((o.spec as Json).replicas = 5),
  },
  {
    def: statefulSets,
    make: (spec) => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: meta, spec: { selector: { matchLabels: LABELS }, serviceName: 's', template: template(spec) } }),
    prefix: 'spec.template.',
    otherChange: (o) => void ((o.spec as Json).replicas = 5),
  },
  {
    def: daemonSets,
    make: (spec) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta, spec: { selector: { matchLabels: LABELS }, template: template(spec) } }),
    prefix: 'spec.template.',
    otherChange: (o) => void ((o.spec as Json).minReadySeconds = 5),
  },
  {
    def: jobs,
    make: (spec) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: meta, spec: { template: template({ ...spec, restartPolicy: 'Never' }) } }),
    prefix: 'spec.template.',
    otherChange: (o) => void ((o.spec as Json).activeDeadlineSeconds = 600),
  },
  {
    def: cronJobs,
    make: (spec) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: meta, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: template({ ...spec, restartPolicy: 'Never' }) } } } }),
    prefix: 'spec.jobTemplate.spec.template.',
    otherChange: (o) => void ((o.spec as Json).suspend = true),
  },
  {
    def: podTemplates,
    make: (spec) => ({ apiVersion: 'v1', kind: 'PodTemplate', metadata: meta, template: template(spec) }),
    prefix: 'template.',
  },
];

describe('template warnings through the registry', () => {
  let h: StoreHarness;
  beforeEach(async () => {
    h = await createStoreHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  for (const k of kinds) {
    test(`${k.def.kind}: warns on create with the template's path, not for a valid template`, async () => {
      const created = await h.create(k.def, k.make(DEPRECATED_SPEC));
      expect(created.errors).toEqual([]);
      expect(created.warnings).toEqual([`${k.prefix}${ARCH}`]);
      const clean = await h.create(k.def, { ...k.make({ containers: [container()] }), metadata: { ...meta, name: 'clean' } });
      expect(clean.errors).toEqual([]);
      expect(clean.warnings).toEqual([]);
    });

    test(`${k.def.kind}: warns on update only when the generation moves`, async () => {
      const created = await h.create(k.def, k.make(DEPRECATED_SPEC));
      expect(created.errors).toEqual([]);
      // What a client read back and writes again (a Job's generated selector included).
      const obj = created.stored!;
      // The same object again: no change, no generation bump, no warning.
      const same = await h.update(k.def, obj);
      expect(same.errors).toEqual([]);
      expect(same.stored?.metadata.generation).toBe(1);
      expect(same.warnings).toEqual([]);
      // A labels-only change leaves the generation alone.
      const relabelled = await h.update(k.def, { ...same.stored!, metadata: { ...same.stored!.metadata, labels: { x: 'y' } } });
      expect(relabelled.errors).toEqual([]);
      expect(relabelled.stored?.metadata.generation).toBe(1);
      expect(relabelled.warnings).toEqual([]);
      if (k.otherChange !== undefined) {
        const changed = structuredClone(relabelled.stored!);
        k.otherChange(changed);
        const out = await h.update(k.def, changed);
        expect(out.errors).toEqual([]);
        expect(out.stored?.metadata.generation).toBe(2);
        expect(out.warnings).toEqual([`${k.prefix}${ARCH}`]);
      }
    });
  }

  test('Pod: warns on create and on update, not on status writes', async () => {
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: DEPRECATED_SPEC };
    const created = await h.create(pods, pod);
    expect(created.errors).toEqual([]);
    expect(created.warnings).toEqual([ARCH]);
    const updated = await h.update(pods, created.stored!);
    expect(updated.errors).toEqual([]);
    expect(updated.warnings).toEqual([ARCH]);
    const status = await h.updateStatus(pods, { ...updated.stored!, status: { phase: 'Running' } });
    expect(status.errors).toEqual([]);
    expect(status.warnings).toEqual([]);
  });
});

describe('hostile port lists', () => {
  test('10,000 identical ports: the check stops once no more could reach the client', () => {
    const ports = Array.from({ length: 10_000 }, () => ({ containerPort: 80, protocol: 'TCP' }));
    const out = podWarnings({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', ports }] } } as never);
    expect(out[0]).toBe('spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]');
    // More than the 4 Ki runes the Warning headers carry, far fewer than n²/2.
    const chars = out.reduce((n, w) => n + w.length, 0);
    expect(chars).toBeGreaterThan(4096);
    expect(out.length).toBeLessThan(1000);
  });
});
