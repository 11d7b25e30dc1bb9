// apps/v1 and policy/v1 with real kubectl (1.27, 1.33 and the one on PATH):
// `create deployment`, the columns `get` shows, `scale`, `set image|env|resources`,
// `rollout restart` (a template annotation), `expose deployment` (a service from
// the deployment's selector), `create poddisruptionbudget`, `explain`, kube's
// Invalid text, and the other workloads' columns. No controller runs, so no pods
// appear and nothing becomes ready: only the API's answers are checked.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

// The two versions the issue names; the kubectl on PATH only when neither is installed (keeps the file near 40 s).
const found = kubectlBinaries(['1.27', '1.33']);
const binaries = found.length > 1 ? found.filter((b) => b.name !== 'kubectl') : found;
let server: RunningKapi;

beforeAll(async () => {
  server = await startKapi();
}, 60_000);
afterAll(async () => server?.stop());

/** The header line and the row of `name` in a `kubectl get` table, split on runs of spaces. */
function table(out: string, name: string): { header: string[]; row: string[] } {
  const lines = out.trim().split('\n');
  const cells = (line: string): string[] => line.trim().split(/\s{2,}/);
  const row = lines.slice(1).find((l) => l.startsWith(`${name} `));
  if (row === undefined) throw new Error(`no row ${name} in:\n${out}`);
  return { header: cells(lines[0]!), row: cells(row) };
}

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

for (const binary of binaries) {
  describe(`apps with ${binary.name}`, () => {
    let k: Kubectl;
    const ns = `apps-${binary.name.replace(/\W/g, '')}`;
    const get = (kind: string, name: string): Record<string, any> => JSON.parse(ok(k, ['-n', ns, 'get', kind, name, '-o', 'json']));
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
      ok(k, ['create', 'ns', ns]);
    });

    test('create deployment: defaults as kube-apiserver; get shows READY UP-TO-DATE AVAILABLE, -o wide the template', () => {
      expect(ok(k, ['-n', ns, 'create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2'])).toContain('deployment.apps/web created');
      const d = get('deployment', 'web');
      expect(d.spec).toMatchObject({
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        template: { metadata: { labels: { app: 'web' } }, spec: { restartPolicy: 'Always', containers: [{ name: 'nginx', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent' }] } },
      });
      expect(d.metadata.generation).toBe(1);
      expect(table(ok(k, ['-n', ns, 'get', 'deployment', 'web']), 'web')).toEqual({ header: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'], row: ['web', '0/2', '0', '0', expect.stringMatching(/^\d+s$/)] });
      const wide = table(ok(k, ['-n', ns, 'get', 'deploy', 'web', '-o', 'wide']), 'web');
      expect(wide.header).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      expect(wide.row.slice(5)).toEqual(['nginx', 'nginx:1.25', 'app=web']);
    });

    test('scale deployment goes through /scale; generation moves', () => {
      expect(ok(k, ['-n', ns, 'scale', 'deployment', 'web', '--replicas=4'])).toContain('deployment.apps/web scaled');
      const d = get('deployment', 'web');
      expect(d.spec.replicas).toBe(4);
      expect(d.metadata.generation).toBe(2);
      expect(table(ok(k, ['-n', ns, 'get', 'deployment', 'web']), 'web').row[1]).toBe('0/4');
    });

    test('set image, set env and set resources patch the template', () => {
      expect(ok(k, ['-n', ns, 'set', 'image', 'deployment/web', 'nginx=nginx:1.26'])).toContain('deployment.apps/web image updated');
      ok(k, ['-n', ns, 'set', 'env', 'deployment/web', 'MODE=prod']);
      ok(k, ['-n', ns, 'set', 'resources', 'deployment', 'web', '--limits=cpu=200m,memory=512Mi', '--requests=cpu=100m']);
      const c = get('deployment', 'web').spec.template.spec.containers[0];
      expect(c.image).toBe('nginx:1.26');
      expect(c.env).toEqual([{ name: 'MODE', value: 'prod' }]);
      // A template's requests are not defaulted from its limits (that is a Pod's default only).
      expect(c.resources).toEqual({ limits: { cpu: '200m', memory: '512Mi' }, requests: { cpu: '100m' } });
    });

    test('rollout restart sets the restartedAt template annotation', () => {
      const before = get('deployment', 'web').metadata.generation;
      expect(ok(k, ['-n', ns, 'rollout', 'restart', 'deployment', 'web'])).toContain('deployment.apps/web restarted');
      const d = get('deployment', 'web');
      expect(d.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(d.metadata.generation).toBe(before + 1);
    });

    test("expose deployment makes a service of the deployment's selector", () => {
      expect(ok(k, ['-n', ns, 'expose', 'deployment', 'web', '--port=80', '--target-port=8080'])).toContain('service/web exposed');
      const svc = get('service', 'web');
      expect(svc.spec.selector).toEqual({ app: 'web' });
      expect(svc.spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 8080 }]);
    });

    test('create poddisruptionbudget; get shows MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS', () => {
      expect(ok(k, ['-n', ns, 'create', 'poddisruptionbudget', 'web-pdb', '--selector=app=web', '--min-available=1'])).toContain('poddisruptionbudget.policy/web-pdb created');
      const pdb = get('pdb', 'web-pdb');
      expect(pdb.spec).toEqual({ minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
      expect(table(ok(k, ['-n', ns, 'get', 'pdb', 'web-pdb']), 'web-pdb')).toEqual({
        header: ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
        row: ['web-pdb', '1', 'N/A', '0', expect.stringMatching(/^\d+s$/)],
      });
      const err = k.run(['-n', ns, 'create', 'poddisruptionbudget', 'bad-pdb', '--selector=app=web', '--max-unavailable=150%']);
      expect(err.code).not.toBe(0);
      expect(err.stderr).toContain('PodDisruptionBudget.policy "bad-pdb" is invalid: spec.maxUnavailable: Invalid value');
    });

    test('explain deployment.spec.strategy', () => {
      const out = ok(k, ['explain', 'deployment.spec.strategy']);
      expect(out).toContain('KIND:');
      expect(out).toContain('Deployment');
      expect(out).toMatch(/rollingUpdate\s/);
      expect(out).toMatch(/type\s/);
    });

    test("an invalid Deployment gets kube's Invalid text; the selector cannot change", () => {
      const bad = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bad', namespace: ns }, spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'y' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
      const res = k.run(['apply', '-f', '-'], { input: yaml.dump(bad) });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('Deployment "bad" is invalid: spec.template.metadata.labels: Invalid value');
      expect(res.stderr).toContain('`selector` does not match template `labels`');
      const patch = k.run(['-n', ns, 'patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"web","v":"2"}},"template":{"metadata":{"labels":{"v":"2"}}}}}']);
      expect(patch.code).not.toBe(0);
      expect(patch.stderr).toContain('spec.selector: Invalid value');
      expect(patch.stderr).toContain('field is immutable');
    });

    test('statefulsets and daemonsets print their columns; get all lists the workloads', () => {
      const manifests = [
        { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: ns }, spec: { serviceName: 'db', replicas: 2, selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'pg', image: 'postgres:16' }] } } } },
        { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: ns }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { role: 'edge' }, containers: [{ name: 'a', image: 'busybox' }] } } } },
      ];
      ok(k, ['apply', '-f', '-'], manifests.map((m) => yaml.dump(m)).join('---\n'));
      expect(table(ok(k, ['-n', ns, 'get', 'sts', 'db']), 'db')).toEqual({ header: ['NAME', 'READY', 'AGE'], row: ['db', '0/2', expect.stringMatching(/^\d+s$/)] });
      expect(table(ok(k, ['-n', ns, 'get', 'ds', 'agent']), 'agent')).toEqual({
        header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
        row: ['agent', '0', '0', '0', '0', '0', 'role=edge', expect.stringMatching(/^\d+s$/)],
      });
      expect(get('ds', 'agent').metadata.annotations).toEqual(expect.objectContaining({ 'deprecated.daemonset.template.generation': '1' }));
      const all = ok(k, ['-n', ns, 'get', 'all']);
      for (const name of ['deployment.apps/web', 'statefulset.apps/db', 'daemonset.apps/agent', 'service/web']) expect(all).toContain(name);
      expect(ok(k, ['-n', ns, 'scale', 'sts', 'db', '--replicas=3'])).toContain('statefulset.apps/db scaled');
      expect(get('sts', 'db').spec.replicas).toBe(3);
    });
  });
}
