// RBAC by default, through real kubectl (the one on PATH, 1.27 and 1.33): a
// certificate user is forbidden with kube's message until a Role and RoleBinding
// grant something, then allowed exactly that; `auth can-i` (with --as, --list,
// --subresource, -n) answers from the same rules; escalation attempts are refused
// every time; `auth reconcile` writes a policy file; an aggregated ClusterRole
// follows a new labelled role; a service-account token reaches nothing it was not
// granted; and the bindings decide the same after a restart on the same data.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { spawnKapi, type SpawnedKapi } from './support/server.js';
import { userCredentials, type UserCredentials } from './support/users.js';
import { rawHttp1 } from './support/raw-tls.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
const dataDir = mkdtempSync(join(tmpdir(), 'kapi-rbac-'));
let server: SpawnedKapi;
let admin: Kubectl;
let jane: UserCredentials;
const kubeconfig = join(dataDir, 'admin.kubeconfig');

async function start(): Promise<void> {
  // The same port after a restart: the kubeconfigs name it.
  server = await spawnKapi({ dataDir, ...(server === undefined ? {} : { port: server.port }) });
  await server.ready();
}

beforeAll(async () => {
  await start();
  admin = kubectl(binaries[0]!, kubeconfig);
  jane = await userCredentials({ dataDir, kubeconfig }, 'jane', ['dev']);
  ok(admin, ['create', 'namespace', 'team']);
  ok(admin, ['create', 'namespace', 'other']);
  ok(admin, ['-n', 'team', 'create', 'secret', 'generic', 'db', '--from-literal=password=s3cret']);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const FORBIDDEN_PODS_TEAM = 'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "team"';

describe('a certificate user without bindings', () => {
  for (const binary of binaries) {
    test(`${binary.name}: forbidden with kube's message`, () => {
      const res = kubectl(binary, jane.kubeconfig).run(['-n', 'team', 'get', 'pods']);
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(FORBIDDEN_PODS_TEAM);
    });
  }
  test('may still ask who they are and what they may do (system:basic-user)', () => {
    const k = kubectl(binaries[0]!, jane.kubeconfig);
    expect(ok(k, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).toBe('jane');
    expect(k.run(['auth', 'can-i', 'list', 'pods', '-n', 'team']).stdout.trim()).toBe('no');
  });
});

describe('a Role and RoleBinding grant exactly what they say', () => {
  beforeAll(() => {
    ok(admin, ['-n', 'team', 'create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods']);
    ok(admin, ['-n', 'team', 'create', 'rolebinding', 'jane-reads-pods', '--role=pod-reader', '--user=jane']);
  });

  for (const binary of binaries) {
    test(`${binary.name}: get pods in team works, not elsewhere, not secrets`, () => {
      const k = kubectl(binary, jane.kubeconfig);
      const listed = k.run(['-n', 'team', 'get', 'pods']);
      expect(listed.code).toBe(0);
      expect(listed.stderr.trim()).toBe('No resources found in team namespace.');
      const other = k.run(['-n', 'other', 'get', 'pods']);
      expect(other.code).toBe(1);
      expect(other.stderr.trim()).toBe('Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "other"');
      const secrets = k.run(['-n', 'team', 'get', 'secret', 'db']);
      expect(secrets.stderr.trim()).toBe('Error from server (Forbidden): secrets "db" is forbidden: User "jane" cannot get resource "secrets" in API group "" in the namespace "team"');
      const all = k.run(['get', 'pods', '-A']);
      expect(all.stderr.trim()).toBe('Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" at the cluster scope');
    });
  }

  const canI = [
    { args: ['list', 'pods', '-n', 'team'], want: 'yes' },
    { args: ['watch', 'pods', '-n', 'team'], want: 'yes' },
    { args: ['delete', 'pods', '-n', 'team'], want: 'no' },
    { args: ['get', 'pods', '-n', 'other'], want: 'no' },
    { args: ['get', 'pods', '--subresource=log', '-n', 'team'], want: 'no' },
    { args: ['get', 'secrets', '-n', 'team'], want: 'no' },
    { args: ['create', 'selfsubjectaccessreviews.authorization.k8s.io'], want: 'yes' },
    { args: ['get', '/healthz'], want: 'yes' },
    { args: ['get', '/metrics'], want: 'no' },
  ];
  for (const binary of binaries) {
    for (const c of canI) {
      test(`${binary.name} auth can-i ${c.args.join(' ')}: ${c.want}`, () => {
        const res = kubectl(binary, jane.kubeconfig).run(['auth', 'can-i', ...c.args]);
        expect(res.stdout.trim()).toBe(c.want);
        expect(res.code).toBe(c.want === 'yes' ? 0 : 1);
        // The admin asks the same question as jane.
        expect(kubectl(binary, kubeconfig).run(['auth', 'can-i', ...c.args, '--as=jane']).stdout.trim()).toBe(c.want);
      });
    }
    test(`${binary.name} auth can-i --list -n team lists the role's rule`, () => {
      const out = ok(kubectl(binary, jane.kubeconfig), ['auth', 'can-i', '--list', '-n', 'team']);
      expect(out).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
      expect(out).toMatch(/^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
      expect(out).not.toMatch(/^secrets/m);
    });
  }
});

describe('escalation is refused every time', () => {
  beforeAll(() => {
    // jane may manage roles and bindings in team, but holds only pod reading there.
    ok(admin, ['-n', 'team', 'create', 'role', 'rbac-manager', '--verb=get,list,create,update,patch,delete', '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io']);
    ok(admin, ['-n', 'team', 'create', 'rolebinding', 'jane-manages-rbac', '--role=rbac-manager', '--user=jane']);
  });
  const k = () => kubectl(binaries[0]!, jane.kubeconfig);

  test('binding herself cluster-admin', () => {
    const res = k().run(['-n', 'team', 'create', 'rolebinding', 'jane-admin', '--clusterrole=cluster-admin', '--user=jane']);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      'error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "jane-admin" is forbidden: user "jane" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
    );
    expect(kubectl(binaries[0]!, kubeconfig).run(['-n', 'team', 'get', 'rolebinding', 'jane-admin']).code).toBe(1);
  });

  test('a cluster role binding needs cluster-wide rights she has not', () => {
    const res = k().run(['create', 'clusterrolebinding', 'jane-admin', '--clusterrole=cluster-admin', '--user=jane']);
    expect(res.stderr.trim()).toBe('error: failed to create clusterrolebinding: clusterrolebindings.rbac.authorization.k8s.io is forbidden: User "jane" cannot create resource "clusterrolebindings" in API group "rbac.authorization.k8s.io" at the cluster scope');
  });

  test('a role granting secrets, and an edit of her role to grant them', () => {
    const created = k().run(['-n', 'team', 'create', 'role', 'secret-reader', '--verb=get', '--resource=secrets']);
    expect(created.stderr).toContain('roles.rbac.authorization.k8s.io "secret-reader" is forbidden: user "jane" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}');
    const edited = k().run(['-n', 'team', 'patch', 'role', 'pod-reader', '--type=json', '-p', '[{"op":"add","path":"/rules/-","value":{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}}]']);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('is attempting to grant RBAC permissions not currently held');
    expect(k().run(['-n', 'team', 'get', 'secret', 'db']).code).toBe(1);
  });

  test('a role within what she holds, and a binding of it, are fine', () => {
    ok(k(), ['-n', 'team', 'create', 'role', 'pod-lister', '--verb=list', '--resource=pods']);
    ok(k(), ['-n', 'team', 'create', 'rolebinding', 'bob-lists-pods', '--role=pod-lister', '--user=bob']);
  });

  test('impersonating system:masters or a node without impersonate', async () => {
    // kubectl's discovery reads the 403 with Raw(), which keeps no Status text: it prints "unknown", as against kube-apiserver.
    const masters = k().run(['-n', 'team', 'get', 'secrets', '--as=jane', '--as-group=system:masters']);
    expect(masters.code).toBe(1);
    expect(masters.stderr.trim().split('\n').at(-1)).toBe('Error from server (Forbidden): unknown');
    const ca = readFileSync(join(dataDir, 'pki/ca.crt'));
    const creds = { ca, cert: Buffer.from(jane.cert), key: Buffer.from(jane.key) };
    const asMasters = await rawHttp1({ port: server.port, creds, chunks: ['GET /api/v1/namespaces/team/secrets HTTP/1.1\r\nHost: x\r\nImpersonate-User: jane\r\nImpersonate-Group: system:masters\r\n\r\n'] });
    expect(asMasters.status).toBe(403);
    expect(JSON.parse(asMasters.body.toString()).message).toBe('users "jane" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    const node = k().run(['get', 'nodes', '--as=system:node:n1']);
    expect(node.code).toBe(1);
    const asNode = await rawHttp1({ port: server.port, creds, chunks: ['GET /api/v1/nodes HTTP/1.1\r\nHost: x\r\nImpersonate-User: system:node:n1\r\nImpersonate-Group: system:nodes\r\n\r\n'] });
    expect(asNode.status).toBe(403);
    expect(JSON.parse(asNode.body.toString()).message).toBe('users "system:node:n1" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  const paths = ['/api/v1/namespaces/team/pods/..%2F..%2Fsecrets', '/api/v1/namespaces/team/pods/%2E%2E/secrets/db', '/api/v1/namespaces/team/secrets/../../team/secrets/db', '/api/v1/namespaces/other/../team/secrets/db'];
  for (const p of paths) {
    test(`an encoded or dotted path never reaches a secret: ${p}`, async () => {
      const ca = readFileSync(join(dataDir, 'pki/ca.crt'));
      const res = await rawHttp1({ port: server.port, creds: { ca, cert: Buffer.from(jane.cert), key: Buffer.from(jane.key) }, chunks: [`GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`] });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body.toString()).not.toContain('s3cret');
    });
  }
});

describe('aggregation and service accounts', () => {
  test('an aggregated ClusterRole follows a new labelled ClusterRole', async () => {
    ok(admin, ['create', 'clusterrole', 'widget-viewer', '--verb=get,list', '--resource=configmaps']);
    ok(admin, ['label', 'clusterrole', 'widget-viewer', 'rbac.authorization.k8s.io/aggregate-to-view=true']);
    ok(admin, ['-n', 'other', 'create', 'rolebinding', 'jane-views', '--clusterrole=view', '--user=jane']);
    const k = kubectl(binaries[0]!, jane.kubeconfig);
    const deadline = Date.now() + 10_000;
    let answer = '';
    while (Date.now() < deadline && (answer = k.run(['auth', 'can-i', 'list', 'configmaps', '-n', 'other']).stdout.trim()) !== 'yes') await new Promise((r) => setTimeout(r, 100));
    expect(answer).toBe('yes');
  });

  test('a `kubectl create token` token reads no secrets and lists no pods cluster-wide', () => {
    ok(admin, ['-n', 'team', 'create', 'serviceaccount', 'builder']);
    const token = ok(admin, ['-n', 'team', 'create', 'token', 'builder']).trim();
    const tokenKubeconfig = join(dataDir, 'builder.kubeconfig');
    const adminConfig = readFileSync(kubeconfig, 'utf8');
    writeFileSync(tokenKubeconfig, adminConfig.replace(/client-certificate-data: .*\n\s*client-key-data: .*/, `token: ${token}`));
    expect(readFileSync(tokenKubeconfig, 'utf8')).not.toContain('client-key-data');
    const asToken = (args: string[]) => kubectl(binaries[0]!, tokenKubeconfig).run(args);
    const secrets = asToken(['-n', 'team', 'get', 'secrets']);
    expect(secrets.stderr.trim()).toBe('Error from server (Forbidden): secrets is forbidden: User "system:serviceaccount:team:builder" cannot list resource "secrets" in API group "" in the namespace "team"');
    const pods = asToken(['get', 'pods', '-A']);
    expect(pods.stderr.trim()).toBe('Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:team:builder" cannot list resource "pods" in API group "" at the cluster scope');
    const otherNs = asToken(['-n', 'other', 'get', 'configmaps']);
    expect(otherNs.code).toBe(1);
  });

  test('kubectl auth reconcile -f writes roles and bindings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-reconcile-'));
    try {
      const file = join(dir, 'policy.yaml');
      writeFileSync(
        file,
        [
          'apiVersion: rbac.authorization.k8s.io/v1', 'kind: Role', 'metadata: {name: cm-reader, namespace: team}', 'rules:', '- {apiGroups: [""], resources: [configmaps], verbs: [get, list]}', '---',
          'apiVersion: rbac.authorization.k8s.io/v1', 'kind: RoleBinding', 'metadata: {name: jane-cm, namespace: team}', 'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cm-reader}', 'subjects:', '- {kind: User, name: jane, apiGroup: rbac.authorization.k8s.io}', '',
        ].join('\n'),
      );
      const out = ok(admin, ['auth', 'reconcile', '-f', file]);
      expect(out).toContain('role.rbac.authorization.k8s.io/cm-reader reconciled');
      expect(kubectl(binaries[0]!, jane.kubeconfig).run(['auth', 'can-i', 'list', 'configmaps', '-n', 'team']).stdout.trim()).toBe('yes');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('after a restart on the same data', () => {
  test('the bindings decide the same way', async () => {
    await server.stop();
    await start();
    const k = kubectl(binaries[0]!, jane.kubeconfig);
    const pods = k.run(['-n', 'team', 'get', 'pods']);
    expect(pods.stderr.trim()).toBe('No resources found in team namespace.');
    expect(pods.code).toBe(0);
    expect(k.run(['-n', 'team', 'get', 'secrets']).stderr.trim()).toBe('Error from server (Forbidden): secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "team"');
    expect(k.run(['auth', 'can-i', 'list', 'configmaps', '-n', 'other']).stdout.trim()).toBe('yes');
  }, 60_000);
});
