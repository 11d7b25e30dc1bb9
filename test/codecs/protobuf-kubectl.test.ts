// Real kubectl as the oracle for the protobuf codec: kubectl 1.33 sends protobuf
// request bodies, kubectl 1.31 sends the same requests as JSON. A throwaway HTTPS
// server records both; the protobuf bodies must decode to what 1.31 sent as JSON,
// and must match the golden captures in test/testdata (UPDATE_GOLDEN=1 rewrites them).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROTOBUF_MEDIA_TYPE, protobufCodec } from '../../src/codecs/protobuf.js';
import { wireDifferences } from './protobuf-wire-diff.js';

interface Captured {
  readonly method: string;
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** Where the versioned kubectl binaries live: beside kubectl's resolved target (DESIGN.md). */
function kubectlDir(): string | undefined {
  try {
    const which = execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim();
    return which === '' ? undefined : dirname(realpathSync(which));
  } catch {
    return undefined; // no kubectl on this machine: the first test below fails and says so
  }
}

const DISCOVERY: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:443' }] },
  '/apis': {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: ['apps', 'authentication.k8s.io', 'authorization.k8s.io', 'rbac.authorization.k8s.io', 'scheduling.k8s.io'].map((name) => ({
      name,
      versions: [{ groupVersion: `${name}/v1`, version: 'v1' }],
      preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' },
    })),
  },
  '/api/v1': resourceList('v1', [
    ['configmaps', 'ConfigMap', true],
    ['secrets', 'Secret', true],
    ['namespaces', 'Namespace', false],
    ['serviceaccounts', 'ServiceAccount', true],
    ['serviceaccounts/token', 'TokenRequest', true],
    ['pods', 'Pod', true],
  ]),
  '/apis/apps/v1': resourceList('apps/v1', [['deployments', 'Deployment', true]]),
  '/apis/authentication.k8s.io/v1': resourceList('authentication.k8s.io/v1', [['selfsubjectreviews', 'SelfSubjectReview', false]]),
  '/apis/authorization.k8s.io/v1': resourceList('authorization.k8s.io/v1', [
    ['selfsubjectaccessreviews', 'SelfSubjectAccessReview', false],
    ['selfsubjectrulesreviews', 'SelfSubjectRulesReview', false],
  ]),
  '/apis/rbac.authorization.k8s.io/v1': resourceList('rbac.authorization.k8s.io/v1', [['roles', 'Role', true]]),
  '/apis/scheduling.k8s.io/v1': resourceList('scheduling.k8s.io/v1', [['priorityclasses', 'PriorityClass', false]]),
};

function resourceList(groupVersion: string, resources: [string, string, boolean][]): unknown {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion,
    resources: resources.map(([name, kind, namespaced]) => ({ name, singularName: '', namespaced, kind, verbs: ['create', 'get', 'list'] })),
  };
}

/** The reply a real server would give: the object back (plus a status for reviews). */
function replyFor(path: string, received: Record<string, unknown>): unknown {
  if (path.endsWith('/selfsubjectreviews')) {
    return { ...received, status: { userInfo: { username: 'alice', groups: ['system:authenticated'] } } };
  }
  if (path.endsWith('/selfsubjectaccessreviews')) return { ...received, status: { allowed: true } };
  if (path.endsWith('/selfsubjectrulesreviews')) {
    return { ...received, status: { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [], incomplete: false } };
  }
  if (path.endsWith('/token')) {
    return { ...received, status: { token: 'header.payload.signature', expirationTimestamp: '2030-01-01T00:00:00Z' } };
  }
  return received;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function handler(captured: Captured[]) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const contentType = req.headers['content-type'] ?? '';
    const send = (code: number, obj: unknown): void => {
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(obj));
    };
    if (req.method === 'GET' && path in DISCOVERY) return send(200, DISCOVERY[path]);
    if (req.method === 'POST') {
      captured.push({ method: req.method, path, contentType, body });
      let received: Record<string, unknown>;
      try {
        received = (contentType.startsWith(PROTOBUF_MEDIA_TYPE) ? protobufCodec.decode(body) : JSON.parse(body.toString())) as Record<string, unknown>;
      } catch {
        return send(400, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'BadRequest', code: 400 });
      }
      return send(201, replyFor(path, received));
    }
    send(404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 });
  };
}

function openssl(args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('openssl', args, { cwd }, (err, _out, stderr) => (err === null ? resolve() : reject(new Error(`openssl ${args[0]}: ${stderr}`))));
  });
}

async function makeCertificates(dir: string): Promise<void> {
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key'], dir);
  await openssl(['req', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=capture-ca', '-days', '1', '-out', 'ca.crt'], dir);
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'server.key'], dir);
  await openssl(['req', '-new', '-key', 'server.key', '-subj', '/CN=127.0.0.1', '-out', 'server.csr'], dir);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  await openssl(
    ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'san.ext', '-out', 'server.crt'],
    dir,
  );
}

function kubeconfig(opts: { dir: string; port: number }): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: capture`,
    `  cluster: {server: "https://127.0.0.1:${opts.port}", certificate-authority: "${join(opts.dir, 'ca.crt')}"}`,
    'users:',
    '- name: alice',
    '  user: {token: capture-token}',
    'contexts:',
    '- name: capture',
    '  context: {cluster: capture, user: alice, namespace: default}',
    'current-context: capture',
    '',
  ].join('\n');
}

interface Scenario {
  readonly name: string;
  readonly args: readonly string[];
  readonly path: string;
  /** Golden file stem in test/testdata: <group>.<version>.<Kind>. */
  readonly golden: string;
  readonly want: (obj: Record<string, any>) => void;
}

const scenarios: readonly Scenario[] = [
  {
    name: 'create configmap',
    args: ['create', 'configmap', 'x', '--from-literal=a=b', '-n', 'default'],
    path: '/api/v1/namespaces/default/configmaps',
    golden: 'core.v1.ConfigMap.kubectl',
    want: (o) => expect(o).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x' }, data: { a: 'b' } }),
  },
  {
    name: 'create secret generic',
    args: ['create', 'secret', 'generic', 's', '--from-literal=k=v'],
    path: '/api/v1/namespaces/default/secrets',
    golden: 'core.v1.Secret.kubectl',
    want: (o) => expect(o).toMatchObject({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 's' }, data: { k: 'dg==' } }),
  },
  {
    name: 'create namespace',
    args: ['create', 'namespace', 'n'],
    path: '/api/v1/namespaces',
    golden: 'core.v1.Namespace.kubectl',
    want: (o) => expect(o).toEqual({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'n' }, spec: {}, status: {} }),
  },
  {
    name: 'create deployment',
    args: ['create', 'deployment', 'd', '--image=nginx', '--replicas=0', '--port=80'],
    path: '/apis/apps/v1/namespaces/default/deployments',
    golden: 'apps.v1.Deployment.kubectl',
    want: (o) => expect(o).toMatchObject({ kind: 'Deployment', apiVersion: 'apps/v1', spec: { replicas: 0 } }),
  },
  {
    name: 'auth whoami',
    args: ['auth', 'whoami'],
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    golden: 'authentication.k8s.io.v1.SelfSubjectReview.kubectl',
    want: (o) => expect(o).toMatchObject({ kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' }),
  },
  {
    name: 'auth can-i',
    args: ['auth', 'can-i', 'create', 'pods'],
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    golden: 'authorization.k8s.io.v1.SelfSubjectAccessReview.kubectl',
    want: (o) =>
      expect(o).toMatchObject({
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } },
      }),
  },
  {
    name: 'auth can-i --list',
    args: ['auth', 'can-i', '--list', '-n', 'default'],
    path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    golden: 'authorization.k8s.io.v1.SelfSubjectRulesReview.kubectl',
    want: (o) => expect(o).toMatchObject({ kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } }),
  },
  {
    name: 'create serviceaccount',
    args: ['create', 'serviceaccount', 'builder'],
    path: '/api/v1/namespaces/default/serviceaccounts',
    golden: 'core.v1.ServiceAccount.kubectl',
    want: (o) => expect(o).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'builder' } }),
  },
  {
    name: 'create role',
    args: ['create', 'role', 'reader', '--verb=get,list', '--resource=pods,configmaps'],
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
    golden: 'rbac.authorization.k8s.io.v1.Role.kubectl',
    want: (o) => expect(o).toMatchObject({ kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1', rules: [{ verbs: ['get', 'list'] }] }),
  },
  {
    name: 'create priorityclass with value 0',
    args: ['create', 'priorityclass', 'low', '--value=0', '--preemption-policy=Never'],
    path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    golden: 'scheduling.k8s.io.v1.PriorityClass.kubectl',
    want: (o) => expect(o).toMatchObject({ kind: 'PriorityClass', value: 0, preemptionPolicy: 'Never' }),
  },
  {
    name: 'create token',
    args: ['create', 'token', 'default', '--duration=10m', '--audience=api'],
    path: '/api/v1/namespaces/default/serviceaccounts/default/token',
    golden: 'authentication.k8s.io.v1.TokenRequest.kubectl',
    want: (o) =>
      expect(o).toMatchObject({
        kind: 'TokenRequest',
        apiVersion: 'authentication.k8s.io/v1',
        spec: { audiences: ['api'], expirationSeconds: 600 },
      }),
  },
];

const TESTDATA = join(import.meta.dirname, '..', 'testdata');
const update = process.env.UPDATE_GOLDEN === '1';
const binDir = kubectlDir();

describe('protobuf bodies from real kubectl', () => {
  let dir = '';
  let server: Server | undefined;
  let port = 0;
  const captured: Captured[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kapi-pb-capture-'));
    await makeCertificates(dir);
    server = createServer({ key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.crt')) }, handler(captured));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    writeFileSync(join(dir, 'kubeconfig'), kubeconfig({ dir, port }));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs one kubectl version and returns the body it POSTed to `path`. */
  async function capture(version: string, scenario: Scenario): Promise<Captured> {
    const bin = join(binDir!, `kubectl.${version}`);
    const before = captured.length;
    const args = [...scenario.args, `--kubeconfig=${join(dir, 'kubeconfig')}`, `--cache-dir=${join(dir, `cache-${version}`)}`, '--request-timeout=10s'];
    await new Promise<void>((resolve, reject) => {
      execFile(bin, args, { env: { ...process.env, HOME: dir } }, (err, stdout, stderr) => {
        // `auth can-i` exits 1 for "no"; everything here answers yes.
        if (err !== null) reject(new Error(`kubectl.${version} ${scenario.args.join(' ')}: ${stderr}${stdout}`));
        else resolve();
      });
    });
    const posted = captured.slice(before).filter((c) => c.path === scenario.path);
    expect(posted, `kubectl.${version} POSTed to ${scenario.path}`).toHaveLength(1);
    return posted[0]!;
  }

  test('kubectl 1.33 and 1.31 are installed beside kubectl', () => {
    expect(binDir).toBeDefined();
    expect(existsSync(join(binDir!, 'kubectl.1.33')) && existsSync(join(binDir!, 'kubectl.1.31'))).toBe(true);
  });

  for (const scenario of scenarios) {
    test(scenario.name, async () => {
      const pb = await capture('1.33', scenario);
      expect(pb.contentType).toBe(PROTOBUF_MEDIA_TYPE);
      const decoded = protobufCodec.decode(pb.body) as Record<string, any>;
      scenario.want(decoded);

      // The oracle: kubectl 1.31 sends the same object as JSON (Go's zero Time as null).
      const json = await capture('1.31', scenario);
      expect(json.contentType).toBe('application/json');
      expect(decoded).toEqual(withoutNulls(JSON.parse(json.body.toString())));

      // Our encoding differs from Go's only in the zero values Go always writes.
      expect(wireDifferences(protobufCodec.encode(decoded), pb.body)).toEqual([]);

      const goldenPb = join(TESTDATA, `${scenario.golden}.pb`);
      const goldenJson = join(TESTDATA, `${scenario.golden}.json`);
      if (update) {
        writeFileSync(goldenPb, pb.body);
        writeFileSync(goldenJson, `${JSON.stringify(decoded, null, 2)}\n`);
      }
      expect(pb.body.equals(readFileSync(goldenPb)), `${goldenPb} is what kubectl 1.33 sends`).toBe(true);
    });
  }
});

/** Drops `null` members: Go's JSON writes a zero metav1.Time as null, protobuf leaves it out. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}
