// RBAC and networking kinds with real kubectl (1.27 and 1.33): `kubectl create
// role|clusterrole|rolebinding|clusterrolebinding|ingress`, the columns `kubectl
// get` prints for each, kube's refusal to change a binding's roleRef, and
// `kubectl explain` of a nested RBAC field.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let server: RunningKapi;

beforeAll(async () => {
  server = await startKapi();
}, 60_000);
afterAll(async () => server?.stop());

/** The table's rows as whitespace-split cells, header first. */
function rows(table: string): string[][] {
  return table.trim().split('\n').map((line) => line.trim().split(/\s{2,}/));
}

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

for (const binary of binaries) {
  describe(`rbac and networking with ${binary.name}`, () => {
    let k: Kubectl;
    const ns = `rbac-${binary.name.replace(/\W/g, '')}`;
    const suffix = binary.name.replace(/\W/g, '');
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
      ok(k, ['create', 'ns', ns]);
    });

    test('create role and clusterrole; get prints NAME CREATED AT', () => {
      expect(ok(k, ['-n', ns, 'create', 'role', 'pod-reader', '--verb=get', '--verb=list', '--resource=pods,deployments.apps'])).toContain('role.rbac.authorization.k8s.io/pod-reader created');
      const role = JSON.parse(ok(k, ['-n', ns, 'get', 'role', 'pod-reader', '-o', 'json']));
      expect(role.rules).toEqual([
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
      ]);
      const [header, row] = rows(ok(k, ['-n', ns, 'get', 'roles']));
      expect(header).toEqual(['NAME', 'CREATED AT']);
      expect(row?.[0]).toBe('pod-reader');
      expect(row?.[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

      const cr = `health-${suffix}`;
      ok(k, ['create', 'clusterrole', cr, '--verb=get', '--non-resource-url=/healthz', '--non-resource-url=/livez']);
      expect(JSON.parse(ok(k, ['get', 'clusterrole', cr, '-o', 'json'])).rules).toEqual([{ nonResourceURLs: ['/healthz', '/livez'], verbs: ['get'] }]);
      expect(rows(ok(k, ['get', 'clusterrole', cr]))[0]).toEqual(['NAME', 'CREATED AT']);
    });

    test('a role without verbs is refused with kube\'s cause', () => {
      const manifest = JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'empty', namespace: ns }, rules: [{ apiGroups: [''], resources: ['pods'] }] });
      const res = k.run(['create', '-f', '-'], { input: manifest });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('The Role "empty" is invalid: rules[0].verbs: Required value: verbs must contain at least one value');
    });

    test('create rolebinding and clusterrolebinding; get prints NAME ROLE AGE and the subjects with -o wide', () => {
      ok(k, ['-n', ns, 'create', 'rolebinding', 'readers', '--role=pod-reader', '--user=alice', '--group=devs', `--serviceaccount=${ns}:default`]);
      const rb = JSON.parse(ok(k, ['-n', ns, 'get', 'rolebinding', 'readers', '-o', 'json']));
      expect(rb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' });
      expect(rb.subjects).toEqual([
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'default', namespace: ns },
      ]);
      const [header, row] = rows(ok(k, ['-n', ns, 'get', 'rolebinding', 'readers']));
      expect(header).toEqual(['NAME', 'ROLE', 'AGE']);
      expect(row?.slice(0, 2)).toEqual(['readers', 'Role/pod-reader']);
      const [wideHeader, wideRow] = rows(ok(k, ['-n', ns, 'get', 'rolebinding', 'readers', '-o', 'wide']));
      expect(wideHeader).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
      expect([wideRow?.[0], wideRow?.[1], ...(wideRow?.slice(3) ?? [])]).toEqual(['readers', 'Role/pod-reader', 'alice', 'devs', `${ns}/default`]);

      const crb = `viewers-${suffix}`;
      ok(k, ['create', 'clusterrolebinding', crb, '--clusterrole=view', `--serviceaccount=${ns}:default`]);
      const [cHeader, cRow] = rows(ok(k, ['get', 'clusterrolebinding', crb, '-o', 'wide']));
      expect(cHeader).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
      expect([cRow?.[0], cRow?.[1], cRow?.[3]]).toEqual([crb, 'ClusterRole/view', `${ns}/default`]);
    });

    test('changing a binding\'s roleRef is refused with kube\'s message; subjects may change', () => {
      ok(k, ['-n', ns, 'create', 'rolebinding', 'fixed', '--clusterrole=view', '--user=bob']);
      const res = k.run(['-n', ns, 'patch', 'rolebinding', 'fixed', '--type=merge', '-p', '{"roleRef":{"name":"edit"}}']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain(
        'The RoleBinding "fixed" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
      );
      expect(ok(k, ['-n', ns, 'get', 'rolebinding', 'fixed', '-o', 'jsonpath={.roleRef.name}'])).toBe('view');
      ok(k, ['-n', ns, 'patch', 'rolebinding', 'fixed', '--type=merge', '-p', '{"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"carol"}]}']);
      expect(ok(k, ['-n', ns, 'get', 'rolebinding', 'fixed', '-o', 'jsonpath={.subjects[0].name}'])).toBe('carol');
    });

    test('create ingress with rules; get prints NAME CLASS HOSTS ADDRESS PORTS AGE', () => {
      expect(ok(k, ['-n', ns, 'create', 'ingress', 'web', '--class=nginx', '--rule=foo.com/bar=svc1:8080,tls=my-cert', '--rule=bar.com/*=svc2:http'])).toContain('ingress.networking.k8s.io/web created');
      const ing = JSON.parse(ok(k, ['-n', ns, 'get', 'ingress', 'web', '-o', 'json']));
      expect(ing.spec).toEqual({
        ingressClassName: 'nginx',
        rules: [
          { host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Exact', backend: { service: { name: 'svc1', port: { number: 8080 } } } }] } },
          { host: 'bar.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc2', port: { name: 'http' } } } }] } },
        ],
        tls: [{ hosts: ['foo.com'], secretName: 'my-cert' }],
      });
      expect(ing.status).toEqual({ loadBalancer: {} });
      const [header, row] = rows(ok(k, ['-n', ns, 'get', 'ingress']));
      expect(header).toEqual(['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE']);
      // ADDRESS is empty until a controller writes status, so the split skips it.
      expect(row?.slice(0, 4)).toEqual(['web', 'nginx', 'foo.com,bar.com', '80, 443']);
      expect(ok(k, ['-n', ns, 'get', 'ing', 'web', '-o', 'name']).trim()).toBe('ingress.networking.k8s.io/web');
    });

    test('an ingress path with an unknown pathType is refused with kube\'s cause', () => {
      const manifest = JSON.stringify({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'bad', namespace: ns },
        spec: { rules: [{ http: { paths: [{ path: '/', pathType: 'Regex', backend: { service: { name: 's', port: { number: 80 } } } }] } }] },
      });
      const res = k.run(['create', '-f', '-'], { input: manifest });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"');
    });

    test('explain role.rules', () => {
      const out = ok(k, ['explain', 'role.rules']);
      expect(out).toMatch(/KIND:\s+Role/);
      expect(out).toMatch(/GROUP:\s+rbac\.authorization\.k8s\.io|VERSION:\s+rbac\.authorization\.k8s\.io\/v1/);
      expect(out).toMatch(/FIELD:\s+rules\s+<\[\]PolicyRule>/);
      expect(out).toContain('verbs');
      expect(out).toContain('nonResourceURLs');
    });
  });
}
