// The default RBAC policy as kubectl (1.27 and 1.33) shows it: `kubectl get
// clusterroles|clusterrolebindings|roles` list kube's defaults, `kubectl describe
// clusterrole view` shows the rules the clusterrole-aggregation-controller made
// it of, a user's ClusterRole labelled aggregate-to-view shows up in view, edit
// and admin (and leaves when deleted), and a restart on the same data dir
// rewrites none of the policy's objects.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { get } from './support/cluster-state.js';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let server: RunningKapi;
// Ours, not the server's: the restart below starts a second server on it.
const dataDir = mkdtempSync(join(tmpdir(), 'kapi-rbac-defaults-'));

beforeAll(async () => {
  server = await startKapi({ dataDir });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

type Rule = { apiGroups?: string[]; resources?: string[]; verbs?: string[] };

function rows(table: string): string[][] {
  return table.trim().split('\n').map((line) => line.trim().split(/\s{2,}/));
}

const rulesOf = async (name: string): Promise<Rule[]> => ((await get(server, `/apis/rbac.authorization.k8s.io/v1/clusterroles/${encodeURIComponent(name)}`)).rules ?? []) as Rule[];
const grants = (rules: Rule[], group: string, resource: string, verb: string) =>
  rules.some((r) => (r.apiGroups ?? []).includes(group) && (r.resources ?? []).includes(resource) && (r.verbs ?? []).includes(verb));

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

test('view, edit and admin are aggregated soon after start', async () => {
  await eventually('view aggregated', async () => grants(await rulesOf('view'), '', 'pods', 'list'), 20_000);
  await eventually('admin aggregated', async () => grants(await rulesOf('admin'), 'rbac.authorization.k8s.io', 'rolebindings', 'create'), 20_000);
  expect(grants(await rulesOf('edit'), 'apps', 'deployments', 'create')).toBe(true);
  expect(grants(await rulesOf('view'), 'apps', 'deployments', 'create')).toBe(false);
}, 30_000);

for (const binary of binaries) {
  describe(`default policy with ${binary.name}`, () => {
    let k: Kubectl;
    const suffix = binary.name.replace(/\W/g, '');
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
    });

    test('kubectl get clusterroles, clusterrolebindings and roles list the defaults', () => {
      const roles = rows(ok(k, ['get', 'clusterroles']));
      expect(roles[0]).toEqual(['NAME', 'CREATED AT']);
      const names = roles.slice(1).map((r) => r[0]);
      for (const want of ['admin', 'cluster-admin', 'edit', 'view', 'system:basic-user', 'system:discovery', 'system:node', 'system:controller:namespace-controller']) {
        expect(names).toContain(want);
      }
      expect(names.filter((n) => n?.startsWith('system:controller:'))).toHaveLength(38);
      const bindings = rows(ok(k, ['get', 'clusterrolebindings']));
      expect(bindings[0]).toEqual(['NAME', 'ROLE', 'AGE']);
      expect(bindings.find((r) => r[0] === 'cluster-admin')?.[1]).toBe('ClusterRole/cluster-admin');
      const ns = rows(ok(k, ['get', 'roles', '-n', 'kube-system']));
      expect(ns.slice(1).map((r) => r[0]).sort()).toEqual([
        'extension-apiserver-authentication-reader',
        'system::leader-locking-kube-controller-manager',
        'system::leader-locking-kube-scheduler',
        'system:controller:bootstrap-signer',
        'system:controller:cloud-provider',
        'system:controller:token-cleaner',
      ]);
    });

    test('kubectl describe clusterrole view shows its aggregated rules', async () => {
      await eventually('view aggregated', async () => grants(await rulesOf('view'), '', 'pods', 'get'), 20_000);
      const out = ok(k, ['describe', 'clusterrole', 'view']);
      expect(out).toMatch(/^Name:\s+view$/m);
      expect(out).toContain('rbac.authorization.k8s.io/aggregate-to-edit=true');
      expect(out).toContain('PolicyRule:');
      expect(out).toMatch(/^\s+Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
      expect(out).toMatch(/^\s+pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
      expect(out).toMatch(/^\s+deployments\.apps\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    }, 30_000);

    test("a user's ClusterRole labelled aggregate-to-view shows up in view, edit and admin, and leaves when deleted", async () => {
      const name = `widget-viewer-${suffix}`;
      const resource = `widgets${suffix}`;
      const manifest = {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name, labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
        rules: [{ apiGroups: ['example.com'], resources: [resource], verbs: ['get', 'list'] }],
      };
      expect(ok(k, ['create', '-f', '-'], JSON.stringify(manifest))).toContain(`clusterrole.rbac.authorization.k8s.io/${name} created`);
      for (const role of ['view', 'edit', 'admin']) {
        await eventually(`${resource} in ${role}`, async () => grants(await rulesOf(role), 'example.com', resource, 'list'), 20_000);
      }
      expect(ok(k, ['describe', 'clusterrole', 'view'])).toMatch(new RegExp(`^\\s+${resource}\\.example\\.com\\s+\\[\\]\\s+\\[\\]\\s+\\[get list\\]$`, 'm'));
      ok(k, ['delete', 'clusterrole', name]);
      for (const role of ['view', 'edit', 'admin']) {
        await eventually(`${resource} gone from ${role}`, async () => !grants(await rulesOf(role), 'example.com', resource, 'list'), 20_000);
      }
    }, 60_000);
  });
}

test('a restart on the same data dir rewrites none of the policy', async () => {
  const policy = async () => {
    const out: Record<string, string> = {};
    for (const r of ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings']) {
      for (const item of (await get(server, `/apis/rbac.authorization.k8s.io/v1/${r}`)).items) {
        out[`${r}/${item.metadata.namespace ?? ''}/${item.metadata.name}`] = item.metadata.resourceVersion;
      }
    }
    return out;
  };
  await eventually('view aggregated', async () => grants(await rulesOf('view'), '', 'pods', 'get'), 20_000);
  const before = await policy();
  const port = server.port;
  expect(await server.stop()).toEqual({ code: 0, signal: null });
  server = await startKapi({ dataDir, port });
  await eventually('second server lists roles', async () => Object.keys(await policy()).length === Object.keys(before).length, 20_000);
  expect(await policy()).toEqual(before);
  expect(server.logs()).toMatch(/"created":0,"updated":0,"recreated":0,"protected":0,"ms":\d+,"msg":"default rbac policy ensured"/);
}, 90_000);
