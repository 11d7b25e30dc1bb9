// The edges of the pod checks that decide cheaply whether there is anything to do
// (pod-warnings.ts, pod-spec-defaults.ts): the pairwise search for repeated ports
// and env names up to its limit and the indexed check past it, repeats across
// container lists, node selector terms that warn among ones that do not, the
// image reference read by index, and a volume whose only other key is `__proto__`.
import { describe, expect, test } from 'vitest';
import { defaultPodSpec, defaultPullPolicy } from '../../../../src/apis/core/v1/pod-spec-defaults.js';
import { podTemplateWarnings, podWarnings } from '../../../../src/apis/core/v1/pod-warnings.js';
import { path } from '../../../../src/schema/field-errors.js';
import type { KubeObject } from '../../../../src/schema/object.js';

type Json = Record<string, unknown>;

const pod = (spec: Json, annotations?: Record<string, string>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: annotations === undefined ? { name: 'p' } : { name: 'p', annotations }, spec }) as KubeObject;

const ports = (numbers: readonly number[]): Json[] => numbers.map((containerPort) => ({ containerPort, protocol: 'TCP' }));
const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

describe('port clashes', () => {
  test('16 distinct ports, then a 17th that repeats the first: found past the pairwise limit', () => {
    const spec = { containers: [{ name: 'c', image: 'i', ports: ports([...range(1, 16), 1]) }] };
    expect(podWarnings(pod(spec))).toEqual(['spec.containers[0].ports[16]: duplicate port definition with spec.containers[0].ports[0]']);
  });

  test('the 16th port repeats the 15th: found by the pairwise search', () => {
    const spec = { containers: [{ name: 'c', image: 'i', ports: ports([...range(1, 15), 15]) }] };
    expect(podWarnings(pod(spec))).toEqual(['spec.containers[0].ports[15]: duplicate port definition with spec.containers[0].ports[14]']);
  });

  test('40 distinct ports warn about nothing', () => {
    expect(podWarnings(pod({ containers: [{ name: 'c', image: 'i', ports: ports(range(1, 40)) }] }))).toEqual([]);
  });

  test('a repeat across container lists is named in visiting order (init, containers, ephemeral)', () => {
    const spec = {
      ephemeralContainers: [{ name: 'e', image: 'i', ports: ports([80]) }],
      containers: [{ name: 'c', image: 'i', ports: ports([81]) }],
      initContainers: [{ name: 'i', image: 'i', ports: ports([80]) }],
    };
    expect(podWarnings(pod(spec))).toEqual(['spec.ephemeralContainers[0].ports[0]: duplicate port definition with spec.initContainers[0].ports[0]']);
  });

  test('the same number with another protocol, or with none, is no clash', () => {
    const spec = { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 53, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }, { containerPort: 53 }] }] };
    expect(podWarnings(pod(spec))).toEqual([]);
  });

  test('a lone hostIP without hostPort warns though no port repeats', () => {
    const spec = { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP', hostIP: '10.0.0.1' }] }] };
    expect(podWarnings(pod(spec))).toEqual(['spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:TCP HostIP:10.0.0.1}']);
  });
});

describe('repeated env names', () => {
  const env = (names: readonly string[]): Json[] => names.map((name) => ({ name, value: 'v' }));
  const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `E${i}`);

  test('a repeat at the 17th entry, past the pairwise limit', () => {
    const spec = { containers: [{ name: 'c', image: 'i', env: env([...names(16), 'E0']) }] };
    expect(podWarnings(pod(spec))).toEqual(['spec.containers[0].env[16]: hides previous definition of "E0", which may be dropped when using apply']);
  });

  test('a repeat at the 16th entry, within it', () => {
    const spec = { containers: [{ name: 'c', image: 'i', env: env([...names(15), 'E3']) }] };
    expect(podWarnings(pod(spec))).toEqual(['spec.containers[0].env[15]: hides previous definition of "E3", which may be dropped when using apply']);
  });

  test('the same name in two containers is no repeat; a template names its own path', () => {
    const spec = { containers: [{ name: 'a', image: 'i', env: env(['A', 'B']) }, { name: 'b', image: 'i', env: env(['A', 'C', 'A']) }] };
    expect(podTemplateWarnings({ spec }, path('spec', 'template'))).toEqual([
      'spec.template.spec.containers[1].env[2]: hides previous definition of "A", which may be dropped when using apply',
    ]);
  });
});

describe('node selector terms', () => {
  test('only the terms and expressions that warn are named, in order', () => {
    const spec = {
      containers: [{ name: 'c', image: 'i' }],
      nodeSelector: { zone: 'a', 'beta.kubernetes.io/os': 'linux' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, { matchExpressions: [{ key: 'x' }, { key: 'beta.kubernetes.io/arch' }] }],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: {} }, { weight: 1, preference: { matchExpressions: [{ key: 'beta.kubernetes.io/os' }] } }],
        },
      },
    };
    expect(podWarnings(pod(spec))).toEqual([
      'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[1].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].preference.matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead',
    ]);
  });
});

describe('templates without metadata or spec', () => {
  test('no template, and a template with neither, warn about nothing', () => {
    expect(podTemplateWarnings(undefined, path('spec', 'template'))).toEqual([]);
    expect(podTemplateWarnings({}, path('spec', 'template'))).toEqual([]);
  });

  test('the answer is a list of its own each time (callers append to it)', () => {
    const a = podTemplateWarnings({}, path('template'));
    const b = podTemplateWarnings({}, path('template'));
    a.push('x');
    expect(b).toEqual([]);
  });
});

// Expected values are kube's reference parser's answers (as the earlier sliced reading gave them).
const pullCases: readonly (readonly [string, 'Always' | 'IfNotPresent'])[] = [
  ['', 'IfNotPresent'],
  [' nginx', 'IfNotPresent'],
  ['nginx ', 'IfNotPresent'],
  ['nginx:', 'Always'],
  ['localhost/app', 'Always'],
  ['localhost/App', 'IfNotPresent'],
  ['localhostx/App', 'IfNotPresent'],
  ['Registry.io/app:latest', 'Always'],
  ['REG/app', 'IfNotPresent'],
  ['REG.io/app', 'Always'],
  ['Host:5000/app', 'Always'],
  ['a:latest@sha256:x', 'Always'],
  ['a@sha256:x', 'IfNotPresent'],
  ['a/b:Latest', 'IfNotPresent'],
  ['a/b:latest', 'Always'],
  ['repo/x:latestx', 'IfNotPresent'],
  ['a:b/c', 'Always'],
  ['@x', 'IfNotPresent'],
  ['x.io/a/B:1', 'IfNotPresent'],
  ['registry.example.com/shop/web:1.4.2', 'IfNotPresent'],
];

describe('imagePullPolicy from the reference', () => {
  for (const [image, want] of pullCases) test(JSON.stringify(image), () => expect(defaultPullPolicy(image)).toBe(want));
});

describe('volume defaults', () => {
  test('a volume with only a name becomes emptyDir; one whose other key is __proto__ does not', () => {
    const spec = JSON.parse('{"containers":[],"volumes":[{"name":"a"},{"name":"b","__proto__":{"x":1}},{"name":"c","secret":{}}]}') as Json;
    defaultPodSpec(spec);
    const volumes = spec.volumes as Json[];
    expect(volumes[0]).toEqual({ name: 'a', emptyDir: {} });
    expect(Object.hasOwn(volumes[1]!, 'emptyDir')).toBe(false);
    expect(Object.keys(volumes[1]!)).toEqual(['name', '__proto__']);
    expect(volumes[2]).toEqual({ name: 'c', secret: { defaultMode: 420 } });
  });

  test('defaults keep the client key order and append the defaulted keys in kube order', () => {
    const spec = JSON.parse('{"containers":[{"image":"nginx","name":"c","ports":[{"containerPort":80}],"livenessProbe":{"httpGet":{"port":80}}}]}') as Json;
    defaultPodSpec(spec);
    expect(Object.keys(spec)).toEqual(['containers', 'dnsPolicy', 'restartPolicy', 'terminationGracePeriodSeconds', 'schedulerName', 'securityContext']);
    const c = (spec.containers as Json[])[0]!;
    expect(Object.keys(c)).toEqual(['image', 'name', 'ports', 'livenessProbe', 'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy', 'resources']);
    expect(JSON.stringify(c.livenessProbe)).toBe('{"httpGet":{"port":80,"path":"/","scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3}');
    expect(c.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(c.imagePullPolicy).toBe('Always');
  });
});
