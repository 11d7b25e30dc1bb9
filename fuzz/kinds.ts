// The kinds the fuzzer writes: for each, a valid object, the path it lives at,
// and valid changes for update and each patch type. Valid seeds are built from
// these (seeds.ts); every one of them must be accepted unmutated, so a failure on
// a seed itself is the server's fault, not the fuzzer's.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonMap = { [key: string]: Json };

export interface FuzzKind {
  readonly kind: string;
  readonly resource: string;
  readonly namespaced: boolean;
  /** A valid object named `name` (the namespace is the path's, so it is left out). */
  make(name: string): JsonMap;
  /** A valid change made by update and by the merge and strategic patches (merged into the object). */
  readonly change: JsonMap;
  /** JSON patch operations valid on any object made by make(). */
  readonly jsonPatch: JsonMap[];
  /** A strategic merge patch using the kind's list directives (merged with `change`). */
  readonly strategic?: JsonMap;
}

/** The namespace the fuzzer's namespaced objects live in (created at setup). */
export const FUZZ_NAMESPACE = 'fuzz';

function meta(name: string): JsonMap {
  return { name, labels: { app: 'fuzz', tier: 'a' }, annotations: { note: 'seed' } };
}

const container: JsonMap = { name: 'c', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'A', value: '1' }] };
const podSpec: JsonMap = { containers: [container], restartPolicy: 'Always' };

export const KINDS: readonly FuzzKind[] = [
  {
    kind: 'ConfigMap', resource: 'configmaps', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(name), data: { a: '1', 'b.txt': 'hello' }, binaryData: { bin: 'AAEC' } }),
    change: { data: { a: '2', c: 'new' } },
    jsonPatch: [{ op: 'replace', path: '/data/a', value: '3' }, { op: 'add', path: '/data/d', value: 'x' }],
  },
  {
    kind: 'Secret', resource: 'secrets', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: meta(name), type: 'Opaque', data: { user: 'YWRtaW4=' }, stringData: { pass: 's3cret' } }),
    change: { data: { user: 'cm9vdA==' } },
    jsonPatch: [{ op: 'add', path: '/data/token', value: 'dG9r' }],
  },
  {
    kind: 'Namespace', resource: 'namespaces', namespaced: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: meta(name) }),
    change: { metadata: { labels: { tier: 'b' } } },
    jsonPatch: [{ op: 'add', path: '/metadata/annotations/extra', value: 'y' }],
  },
  {
    kind: 'Pod', resource: 'pods', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'Pod', metadata: meta(name), spec: podSpec }),
    change: { spec: { containers: [{ ...container, image: 'nginx:1.26' }] } },
    jsonPatch: [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.27' }],
    strategic: { spec: { '$setElementOrder/containers': [{ name: 'c' }], containers: [{ name: 'c', image: 'nginx:1.27' }] } },
  },
  {
    kind: 'Service', resource: 'services', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'Service', metadata: meta(name), spec: { selector: { app: 'fuzz' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] } }),
    change: { spec: { selector: { app: 'fuzz2' } } },
    jsonPatch: [{ op: 'replace', path: '/spec/selector/app', value: 'other' }],
    strategic: { spec: { ports: [{ port: 80, name: 'http', targetPort: 9090 }] } },
  },
  {
    kind: 'ServiceAccount', resource: 'serviceaccounts', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(name), automountServiceAccountToken: false }),
    change: { automountServiceAccountToken: true },
    jsonPatch: [{ op: 'add', path: '/automountServiceAccountToken', value: true }],
  },
  {
    kind: 'Endpoints', resource: 'endpoints', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: meta(name), subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }] }),
    change: { subsets: [{ addresses: [{ ip: '10.1.2.4' }], ports: [{ name: 'http', port: 81, protocol: 'TCP' }] }] },
    jsonPatch: [{ op: 'replace', path: '/subsets/0/addresses/0/ip', value: '10.1.2.5' }],
  },
  {
    kind: 'Node', resource: 'nodes', namespaced: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'Node', metadata: meta(name), spec: { podCIDR: '10.244.0.0/24', taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } }),
    change: { spec: { unschedulable: true } },
    jsonPatch: [{ op: 'add', path: '/spec/unschedulable', value: true }],
    strategic: { spec: { taints: [{ key: 'k2', value: 'v2', effect: 'NoExecute' }] } },
  },
  {
    kind: 'PersistentVolume', resource: 'persistentvolumes', namespaced: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: meta(name), spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/fuzz' }, persistentVolumeReclaimPolicy: 'Retain' } }),
    change: { spec: { capacity: { storage: '2Gi' } } },
    jsonPatch: [{ op: 'replace', path: '/spec/capacity/storage', value: '3Gi' }],
  },
  {
    kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: meta(name), spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
    change: { metadata: { labels: { tier: 'c' } } },
    jsonPatch: [{ op: 'add', path: '/metadata/labels/extra', value: 'z' }],
  },
  {
    kind: 'PodTemplate', resource: 'podtemplates', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'PodTemplate', metadata: meta(name), template: { metadata: { labels: { app: 'fuzz' } }, spec: podSpec } }),
    change: { template: { spec: { containers: [{ ...container, image: 'nginx:1.26' }] } } },
    jsonPatch: [{ op: 'replace', path: '/template/spec/containers/0/image', value: 'busybox' }],
  },
  {
    kind: 'ReplicationController', resource: 'replicationcontrollers', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: meta(name), spec: { replicas: 1, selector: { app: 'fuzz' }, template: { metadata: { labels: { app: 'fuzz' } }, spec: podSpec } } }),
    change: { spec: { replicas: 3 } },
    jsonPatch: [{ op: 'replace', path: '/spec/replicas', value: 2 }],
  },
  {
    kind: 'LimitRange', resource: 'limitranges', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: meta(name), spec: { limits: [{ type: 'Container', default: { cpu: '200m', memory: '64Mi' }, defaultRequest: { cpu: '100m' } }] } }),
    change: { spec: { limits: [{ type: 'Container', default: { cpu: '300m' } }] } },
    jsonPatch: [{ op: 'replace', path: '/spec/limits/0/default/cpu', value: '1' }],
  },
  {
    kind: 'ResourceQuota', resource: 'resourcequotas', namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: meta(name), spec: { hard: { pods: '100', 'requests.cpu': '10' } } }),
    change: { spec: { hard: { pods: '200' } } },
    jsonPatch: [{ op: 'replace', path: '/spec/hard/pods', value: '50' }],
  },
  {
    kind: 'Event', resource: 'events', namespaced: true,
    make: (name) => ({
      apiVersion: 'v1', kind: 'Event', metadata: meta(name), reason: 'Fuzz', message: 'seed event', type: 'Normal', count: 1,
      involvedObject: { kind: 'Pod', namespace: FUZZ_NAMESPACE, name: 'fz-pod-0', apiVersion: 'v1' }, source: { component: 'fuzz' },
      firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:00:00Z',
    }),
    change: { message: 'changed', count: 2 },
    jsonPatch: [{ op: 'replace', path: '/message', value: 'patched' }],
  },
];

/** /api/v1[/namespaces/<ns>]/<resource>[/<name>] */
export function resourcePath(kind: FuzzKind, opts: { namespace?: string; name?: string } = {}): string {
  const ns = kind.namespaced ? `/namespaces/${opts.namespace ?? FUZZ_NAMESPACE}` : '';
  return `/api/v1${ns}/${kind.resource}${opts.name === undefined ? '' : `/${opts.name}`}`;
}

/** Objects of each kind the setup creates (`fz-<kind>-0` …), so updates and patches find a target. */
export const TARGETS_PER_KIND = 4;
/** Names creates pick from: a bounded pool keeps the stored set, and the final re-validation, small. */
export const NAMES_PER_KIND = 16;

export function poolName(kind: FuzzKind, i: number): string {
  return `fz-${kind.kind.toLowerCase()}-${i}`;
}

/** A deep copy of `change` merged into `base` (objects merge, everything else replaces). */
export function mergeInto(base: JsonMap, change: JsonMap): JsonMap {
  const out: JsonMap = { ...base };
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined) continue;
    const prev = Object.hasOwn(out, k) ? out[k] : undefined;
    out[k] = isMap(prev) && isMap(v) ? mergeInto(prev, v) : structuredClone(v);
  }
  return out;
}

export function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
