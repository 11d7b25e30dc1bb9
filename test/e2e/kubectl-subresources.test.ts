// status and scale subresources with real kubectl: `get --raw` of pods/status,
// `get/replace --subresource=status`, `get --subresource=scale`, and `kubectl
// scale`, both its PATCH of /scale and, with --current-replicas, its GET+PUT.
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


const rc = {
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name: 'web' },
  spec: { replicas: 1, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
};

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

for (const binary of binaries) {
  describe(`subresources with ${binary.name}`, () => {
    let k: Kubectl;
    const ns = `sub-${binary.name.replace(/\W/g, '')}`;
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
      ok(k, ['create', 'ns', ns]);
      ok(k, ['-n', ns, 'run', 'p', '--image=nginx']);
      ok(k, ['-n', ns, 'create', '-f', '-'], yaml.dump(rc));
    });

    test('get --raw of pods/status answers the pod', () => {
      const pod = JSON.parse(ok(k, ['get', '--raw', `/api/v1/namespaces/${ns}/pods/p/status`]));
      expect(pod).toMatchObject({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p', namespace: ns }, status: { phase: 'Pending' } });
    });

    test('replace --subresource=status writes status only', () => {
      const pod = JSON.parse(ok(k, ['-n', ns, 'get', 'pod', 'p', '--subresource=status', '-o', 'json']));
      pod.status = { phase: 'Running' };
      pod.metadata.labels = { changed: 'ignored' };
      expect(ok(k, ['-n', ns, 'replace', '--subresource=status', '-f', '-'], JSON.stringify(pod))).toContain('pod/p replaced');
      const stored = JSON.parse(ok(k, ['-n', ns, 'get', 'pod', 'p', '-o', 'json']));
      expect(stored.status).toEqual({ phase: 'Running' });
      expect(stored.metadata.labels).toEqual({ run: 'p' });

      // The same object again carries a stale resourceVersion now.
      const stale = k.run(['-n', ns, 'replace', '--subresource=status', '-f', '-'], { input: JSON.stringify(pod) });
      expect(stale.code).not.toBe(0);
      expect(stale.stderr).toContain('Error from server (Conflict)');
    });

    test('get --subresource=scale answers an autoscaling/v1 Scale', () => {
      const scale = JSON.parse(ok(k, ['-n', ns, 'get', 'rc', 'web', '--subresource=scale', '-o', 'json']));
      expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web', namespace: ns }, spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=web' } });
    });

    test('scale --current-replicas (GET and PUT of /scale), then scale (PATCH of /scale)', () => {
      expect(ok(k, ['-n', ns, 'scale', 'rc', 'web', '--current-replicas=1', '--replicas=2'])).toContain('replicationcontroller/web scaled');
      expect(ok(k, ['-n', ns, 'get', 'rc', 'web', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}'])).toBe('2 2');
      const wrong = k.run(['-n', ns, 'scale', 'rc', 'web', '--current-replicas=7', '--replicas=3']);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toContain('Expected replicas to be 7, was 2');

      expect(ok(k, ['-n', ns, 'scale', 'rc', 'web', '--replicas=3'])).toContain('replicationcontroller/web scaled');
      expect(ok(k, ['-n', ns, 'get', 'rc', 'web', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}'])).toBe('3 3');
    });
  });
}
