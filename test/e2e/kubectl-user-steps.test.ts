// The README's user steps, run with real kubectl: the one on PATH, 1.27 (JSON
// bodies, OpenAPI v2 protobuf, aggregated discovery v2beta1) and 1.33 (protobuf
// bodies, OpenAPI v3, discovery v2). Each binary works in its own namespace.
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


test('kubectl binaries are present', () => {
  expect(binaries.map((b) => b.name)).toEqual(['kubectl', 'kubectl.1.27', 'kubectl.1.33']);
});

for (const binary of binaries) {
  describe(`user steps with ${binary.name}`, () => {
    let k: Kubectl;
    const ns = `team-${binary.name.replace(/\W/g, '')}`;
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
    });

    test('get ns lists the four default namespaces', () => {
      const names = ok(k, ['get', 'ns', '-o', 'name']).trim().split('\n');
      for (const n of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) expect(names).toContain(`namespace/${n}`);
      expect(ok(k, ['get', 'ns'])).toMatch(/^NAME\s+.*AGE/m);
    });

    test('create ns, create configmap, get it as yaml', () => {
      expect(ok(k, ['create', 'ns', ns])).toContain(`namespace/${ns} created`);
      expect(ok(k, ['-n', ns, 'create', 'configmap', 'app', '--from-literal=k=v'])).toContain('configmap/app created');
      const cm = yaml.load(ok(k, ['-n', ns, 'get', 'configmap', 'app', '-o', 'yaml'])) as Record<string, any>;
      expect(cm).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' }, metadata: { name: 'app', namespace: ns } });
      expect(cm.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number(cm.metadata.resourceVersion)).toBeGreaterThan(0);
    });

    test('apply -f and create -f', () => {
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { a: '1' } };
      expect(ok(k, ['-n', ns, 'apply', '-f', '-'], JSON.stringify(cm))).toContain('configmap/applied created');
      const pod = {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
      };
      expect(ok(k, ['-n', ns, 'create', '-f', '-'], yaml.dump(pod))).toContain('pod/web created');
      const stored = JSON.parse(ok(k, ['-n', ns, 'get', 'pod', 'web', '-o', 'json']));
      expect(stored.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' });
      expect(stored.spec.restartPolicy).toBe('Always');
      expect(stored.status.phase).toBe('Pending');
    });

    test('replace with a stale resourceVersion is a Conflict and changes nothing', () => {
      const live = JSON.parse(ok(k, ['-n', ns, 'get', 'configmap', 'app', '-o', 'json']));
      const stale = { ...live, data: { k: 'stale' } };
      ok(k, ['-n', ns, 'replace', '-f', '-'], JSON.stringify({ ...live, data: { k: 'fresh' } }));
      const res = k.run(['-n', ns, 'replace', '-f', '-'], { input: JSON.stringify(stale) });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('Error from server (Conflict)');
      expect(res.stderr).toContain('the object has been modified');
      const after = JSON.parse(ok(k, ['-n', ns, 'get', 'configmap', 'app', '-o', 'json']));
      expect(after.data).toEqual({ k: 'fresh' });
    });

    test('delete configmap', () => {
      expect(ok(k, ['-n', ns, 'delete', 'configmap', 'app'])).toContain('configmap "app" deleted');
      const res = k.run(['-n', ns, 'get', 'configmap', 'app']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('Error from server (NotFound): configmaps "app" not found');
    });

    test('api-resources, explain, whoami, readyz', () => {
      const resources = ok(k, ['api-resources']);
      expect(resources).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
      expect(resources).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
      expect(resources).toMatch(/^selfsubjectreviews\s+authentication\.k8s\.io\/v1\s+false\s+SelfSubjectReview$/m);
      const explain = ok(k, ['explain', 'pod.spec.containers']);
      expect(explain).toMatch(/FIELD:\s+containers/);
      expect(explain).toMatch(/image\s+<string>/);
      const whoami = ok(k, ['auth', 'whoami']);
      expect(whoami).toMatch(/Username\s+kubernetes-admin/);
      expect(whoami).toMatch(/Groups\s+\[system:masters system:authenticated\]/);
      const ready = ok(k, ['get', '--raw', '/readyz?verbose']);
      expect(ready).toContain('[+]ping ok');
      expect(ready).toContain('readyz check passed');
    });
  });
}
