// Namespace deletion with real kubectl: `kubectl delete ns` returns once the
// namespace is gone (the lifecycle controller empties it and /finalize removes
// it); a namespace held by an object's finalizer stays Terminating, refuses new
// content, and a second DELETE is kube's 409.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
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
  expect(binaries.length).toBeGreaterThan(0);
});

for (const binary of binaries) {
  describe(`namespace deletion with ${binary.name}`, () => {
    let k: Kubectl;
    const suffix = binary.name.replace(/\W/g, '');
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
    });

    test('a new namespace gets the default service account and kube-root-ca.crt with the server CA', async () => {
      const ns = `fresh-${suffix}`;
      ok(k, ['create', 'ns', ns]);
      const deadline = Date.now() + 10_000;
      // The controller works asynchronously, as kube's does: wait on the objects with a bound.
      while (k.run(['-n', ns, 'get', 'serviceaccount', 'default']).code !== 0 || k.run(['-n', ns, 'get', 'configmap', 'kube-root-ca.crt']).code !== 0) {
        if (Date.now() > deadline) throw new Error(`no default service account or kube-root-ca.crt in ${ns}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
      const ca = Buffer.from(cfg.clusters[0]!.cluster['certificate-authority-data']!, 'base64').toString();
      expect(ok(k, ['-n', ns, 'get', 'configmap', 'kube-root-ca.crt', '-o', 'jsonpath={.data.ca\\.crt}'])).toBe(ca);
      expect(ok(k, ['-n', ns, 'get', 'sa'])).toMatch(/^NAME\s+SECRETS\s+AGE\ndefault\s+0\s+/);
    });

    test('delete ns waits until the namespace and its contents are gone', () => {
      const ns = `team-x-${suffix}`;
      ok(k, ['create', 'ns', ns]);
      ok(k, ['-n', ns, 'create', 'configmap', 'app', '--from-literal=k=v']);
      ok(k, ['-n', ns, 'run', 'web', '--image=nginx']);
      expect(ok(k, ['delete', 'ns', ns])).toContain(`namespace "${ns}" deleted`);

      const get = k.run(['get', 'ns', ns]);
      expect(get.code).not.toBe(0);
      expect(get.stderr).toContain(`Error from server (NotFound): namespaces "${ns}" not found`);
      const cms = k.run(['-n', ns, 'get', 'configmaps']);
      expect(cms.stdout).toBe('');
      expect(cms.stderr).toContain(`No resources found in ${ns} namespace.`);
    });

    test('a finalizer keeps it Terminating: new content refused, a second delete is 409', () => {
      const ns = `held-${suffix}`;
      ok(k, ['create', 'ns', ns]);
      const held = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/hold'] } };
      ok(k, ['-n', ns, 'create', '-f', '-'], yaml.dump(held));
      ok(k, ['-n', ns, 'create', 'configmap', 'free']);
      expect(ok(k, ['delete', 'ns', ns, '--wait=false'])).toContain(`namespace "${ns}" deleted`);
      expect(ok(k, ['get', 'ns', ns, '-o', 'jsonpath={.status.phase}'])).toBe('Terminating');

      const again = k.run(['delete', 'ns', ns, '--wait=false']);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain(
        `Error from server (Conflict): Operation cannot be fulfilled on namespaces "${ns}": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.`,
      );
      const create = k.run(['-n', ns, 'create', 'configmap', 'late']);
      expect(create.code).not.toBe(0);
      expect(create.stderr).toContain(`unable to create new content in namespace ${ns} because it is being terminated`);
      // The controller works asynchronously: wait (bounded) until only the held object is left,
      // marked rather than removed; the namespace waits for it.
      type Items = { items: { metadata: { name: string; deletionTimestamp?: string } }[] };
      let remaining: Items = { items: [] };
      for (let attempt = 0; attempt < 50; attempt++) {
        remaining = JSON.parse(ok(k, ['-n', ns, 'get', 'configmaps', '-o', 'json'])) as Items;
        if (remaining.items.length === 1) break;
      }
      expect(remaining.items.map((i) => i.metadata.name)).toEqual(['held']);
      expect(remaining.items[0]!.metadata.deletionTimestamp).toBeDefined();
      expect(ok(k, ['get', 'ns', ns, '-o', 'jsonpath={.status.phase}'])).toBe('Terminating');
    });
  });
}
