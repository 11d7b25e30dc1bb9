// Pod-template warnings as a kubectl user sees them (kube's pkg/api/pod/warnings.go):
// `kubectl apply` and `kubectl create` of a Deployment whose template selects a
// deprecated node label print kube's `Warning: <path>: <text>` line on stderr and
// still create the object; a template without one prints no warning.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const found = kubectlBinaries(['1.27', '1.33']);
const binaries = found.length > 1 ? found.filter((b) => b.name !== 'kubectl') : found;
let server: RunningKapi;

beforeAll(async () => {
  server = await startKapi();
}, 60_000);
afterAll(async () => server?.stop());

const WARNING = 'Warning: spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead';

function deployment(name: string, nodeSelector: Record<string, string>): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { nodeSelector, containers: [{ name: 'c', image: 'nginx:1.25' }] } },
    },
  });
}

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

for (const binary of binaries) {
  describe(`pod template warnings with ${binary.name}`, () => {
    let k: Kubectl;
    const ns = `warn-${binary.name.replace(/\W/g, '')}`;
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
      ok(k, ['create', 'ns', ns]);
    });

    test('kubectl apply prints the warning line and creates the Deployment', () => {
      const res = k.run(['-n', ns, 'apply', '-f', '-'], { input: deployment('old-os', { 'beta.kubernetes.io/os': 'linux' }) });
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('deployment.apps/old-os created');
      expect(res.stderr.split('\n')).toContain(WARNING);
      const stored = JSON.parse(ok(k, ['-n', ns, 'get', 'deployment', 'old-os', '-o', 'json']));
      expect(stored.spec.template.spec.nodeSelector).toEqual({ 'beta.kubernetes.io/os': 'linux' });
    });

    test('kubectl create prints it too; a current label prints none', () => {
      const warned = k.run(['-n', ns, 'create', '-f', '-'], { input: deployment('old-os-2', { 'beta.kubernetes.io/os': 'linux' }) });
      expect(warned.code).toBe(0);
      expect(warned.stderr.split('\n')).toContain(WARNING);
      const clean = k.run(['-n', ns, 'create', '-f', '-'], { input: deployment('new-os', { 'kubernetes.io/os': 'linux' }) });
      expect(clean.code).toBe(0);
      expect(clean.stdout).toContain('deployment.apps/new-os created');
      expect(clean.stderr).not.toContain('Warning:');
    });
  });
}
