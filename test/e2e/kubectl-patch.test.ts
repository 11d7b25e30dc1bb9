// Every kubectl command that writes with PATCH, driven by real kubectl (the one on
// PATH, 1.27 and 1.33): client-side apply of an existing object (strategic merge
// with the last-applied annotation), label, annotate, patch of each type, set
// image, and diff (a dry-run PATCH). Each step asserts what is persisted.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let server: RunningKapi;

beforeAll(async () => {
  server = await startKapi();
}, 60_000);
afterAll(async () => server?.stop());


const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function pod(image: string, labels: Record<string, string>): string {
  return yaml.dump({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels },
    spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }, { name: 'side', image: 'busybox:1' }] },
  });
}

test('kubectl binaries are present', () => {
  expect(binaries.map((b) => b.name)).toEqual(['kubectl', 'kubectl.1.27', 'kubectl.1.33']);
});

for (const binary of binaries) {
  describe(`PATCH with ${binary.name}`, () => {
    let k: Kubectl;
    const ns = `patch-${binary.name.replace(/\W/g, '')}`;
    const get = (kind: string, name: string): Record<string, any> => JSON.parse(ok(k, ['-n', ns, 'get', kind, name, '-o', 'json']));
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
      ok(k, ['create', 'ns', ns]);
    });

    test('apply twice: the second apply patches the live object', () => {
      expect(ok(k, ['-n', ns, 'apply', '-f', '-'], pod('nginx:1.26', { app: 'web' }))).toContain('pod/web created');
      expect(ok(k, ['-n', ns, 'apply', '-f', '-'], pod('nginx:1.27', { app: 'web', tier: 'front' }))).toContain('pod/web configured');
      const live = get('pod', 'web');
      expect(live.spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`)).toEqual(['nginx=nginx:1.27', 'side=busybox:1']);
      expect(live.metadata.labels).toEqual({ app: 'web', tier: 'front' });
      expect(JSON.parse(live.metadata.annotations[LAST_APPLIED]).spec.containers[0].image).toBe('nginx:1.27');
      expect(ok(k, ['-n', ns, 'apply', '-f', '-'], pod('nginx:1.27', { app: 'web', tier: 'front' }))).toContain('pod/web unchanged');
    });

    test('apply removes what the previous apply set and the new one does not', () => {
      const cm = (data: Record<string, string>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data });
      ok(k, ['-n', ns, 'apply', '-f', '-'], cm({ a: '1', b: '2' }));
      expect(ok(k, ['-n', ns, 'apply', '-f', '-'], cm({ a: '1', c: '3' }))).toContain('configmap/cfg configured');
      expect(get('configmap', 'cfg').data).toEqual({ a: '1', c: '3' });
    });

    test('label and annotate', () => {
      expect(ok(k, ['-n', ns, 'label', 'pod', 'web', 'env=prod'])).toContain('pod/web labeled');
      // kubectl 1.27 prints "pod/web annotate".
      expect(ok(k, ['-n', ns, 'annotate', 'pod', 'web', 'note=hello'])).toMatch(/^pod\/web annotated?$/m);
      expect(ok(k, ['-n', ns, 'label', 'pod', 'web', 'tier-'])).toContain('pod/web unlabeled');
      const live = get('pod', 'web');
      expect(live.metadata.labels).toEqual({ app: 'web', env: 'prod' });
      expect(live.metadata.annotations.note).toBe('hello');
      const res = k.run(['-n', ns, 'label', 'pod', 'web', 'env=dev']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain("'env' already has a value (prod)");
    });

    test('patch --type=merge, --type=json and strategic (the default)', () => {
      expect(ok(k, ['-n', ns, 'patch', 'configmap', 'cfg', '--type=merge', '-p', '{"data":{"m":"1","a":null}}'])).toContain('configmap/cfg patched');
      expect(ok(k, ['-n', ns, 'patch', 'configmap', 'cfg', '--type=json', '-p', '[{"op":"add","path":"/data/j","value":"2"}]'])).toContain('configmap/cfg patched');
      expect(get('configmap', 'cfg').data).toEqual({ c: '3', m: '1', j: '2' });
      expect(ok(k, ['-n', ns, 'patch', 'pod', 'web', '-p', '{"spec":{"containers":[{"name":"side","image":"busybox:2"}]}}'])).toContain('pod/web patched');
      const images = get('pod', 'web').spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`);
      expect(images).toEqual(['nginx=nginx:1.27', 'side=busybox:2']);
    });

    test('a failing JSON patch test changes nothing', () => {
      const before = get('configmap', 'cfg');
      const res = k.run(['-n', ns, 'patch', 'configmap', 'cfg', '--type=json', '-p', '[{"op":"test","path":"/data/m","value":"nope"},{"op":"remove","path":"/data/m"}]']);
      expect(res.code).not.toBe(0);
      // A 422 whose only cause is the failed test: kubectl prints the cause.
      expect(res.stderr).toContain('The request is invalid');
      expect(res.stderr).toContain('testing value /data/m failed');
      expect(get('configmap', 'cfg')).toEqual(before);
    });

    test('patch of a missing object is NotFound', () => {
      const res = k.run(['-n', ns, 'patch', 'configmap', 'nope', '--type=merge', '-p', '{"data":{"a":"1"}}']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('Error from server (NotFound): configmaps "nope" not found');
    });

    test('set image', () => {
      expect(ok(k, ['-n', ns, 'set', 'image', 'pod/web', 'nginx=nginx:2'])).toContain('pod/web image updated');
      const images = get('pod', 'web').spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`);
      expect(images).toEqual(['nginx=nginx:2', 'side=busybox:2']);
    });

    test('diff -f shows the change a dry-run PATCH would make and persists nothing', () => {
      const before = get('pod', 'web');
      const res = k.run(['-n', ns, 'diff', '-f', '-'], { input: pod('nginx:3', { app: 'web', env: 'prod' }) });
      // kubectl diff exits 1 when there are differences.
      expect(res.code, res.stderr).toBe(1);
      expect(res.stdout).toMatch(/^-\s+- image: nginx:2$/m);
      expect(res.stdout).toMatch(/^\+\s+- image: nginx:3$/m);
      expect(get('pod', 'web').metadata.resourceVersion).toBe(before.metadata.resourceVersion);
      expect(get('pod', 'web').spec.containers[0].image).toBe('nginx:2');
    });
  });
}
