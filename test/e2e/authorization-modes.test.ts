// The authorization modes besides RBAC through the real server: Node (a kubelet
// reads only what its pods use), ABAC (a policy file, and its bad line stopping the
// start), and an --authorization-config file with a Webhook answered by a small
// SubjectAccessReview server on 127.0.0.1 — edited while the server runs: a valid
// edit changes decisions at once, a broken one keeps the last good chain and moves
// kube's reload metric.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, call, writeOk, type Credentials } from './support/http.js';
import { spawnKapi, startKapi, type RunningKapi } from './support/server.js';
import { userCredentials } from './support/users.js';
import { allow, startSarServer, type SarServer } from '../auth/authz/webhook/sar-server.js';

async function as(server: RunningKapi, name: string, groups: string[] = []): Promise<Credentials> {
  const u = await userCredentials(server, name, groups);
  return { ca: adminCredentials(server.kubeconfig).ca, cert: u.cert, key: u.key };
}

async function eventually(what: string, check: () => Promise<boolean>, boundMs = 10_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${boundMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Node mode (the default Node,RBAC)', () => {
  let server: RunningKapi;
  beforeAll(async () => {
    server = await startKapi();
  }, 30_000);
  afterAll(async () => server?.stop());

  test("a kubelet reads its pods' secrets and nothing else; the graph follows the pods", async () => {
    const admin = adminCredentials(server.kubeconfig);
    for (const name of ['used', 'unused']) await writeOk(server, admin, 'POST', '/api/v1/namespaces/default/secrets', { metadata: { name }, stringData: { k: name } });
    await writeOk(server, admin, 'POST', '/api/v1/namespaces/default/pods', {
      metadata: { name: 'web' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx', envFrom: [{ secretRef: { name: 'used' } }] }] },
    });
    const n1 = await as(server, 'system:node:n1', ['system:nodes']);
    const n2 = await as(server, 'system:node:n2', ['system:nodes']);
    const get = (creds: Credentials, name: string) => call(server, creds, { path: `/api/v1/namespaces/default/secrets/${name}` });
    await eventually('n1 reads the secret its pod uses', async () => (await get(n1, 'used')).status === 200);
    const unused = await get(n1, 'unused');
    expect(unused.status).toBe(403);
    expect(unused.json().message).toBe(
      'secrets "unused" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'n1\' and this object',
    );
    expect((await get(n2, 'used')).status).toBe(403);
    // NodeRestriction: a node may not label another node's pods, nor create a pod bound elsewhere.
    const mirror = await call(server, n1, {
      method: 'POST',
      path: '/api/v1/namespaces/default/pods',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'static', annotations: { 'kubernetes.io/config.mirror': 'x' } }, spec: { nodeName: 'n2', containers: [{ name: 'c', image: 'i' }] } }),
    });
    expect(mirror.status).toBe(403);
    expect(mirror.json().message).toContain('node "n1" can only create pods with spec.nodeName set to itself');
    await writeOk(server, admin, 'DELETE', '/api/v1/namespaces/default/pods/web', { gracePeriodSeconds: 0 });
    await eventually('the graph drops the deleted pod', async () => (await get(n1, 'used')).status === 403);
  });
});

describe('ABAC', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kapi-abac-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a policy file decides beside RBAC', async () => {
    const file = join(dir, 'policy.jsonl');
    writeFileSync(file, ['# jane reads pods in team', '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"jane","namespace":"team","resource":"pods","apiGroup":"*","readonly":true}}', ''].join('\n'));
    const server = await startKapi({ args: ['--authorization-mode=ABAC,RBAC', `--authorization-policy-file=${file}`] });
    try {
      const jane = await as(server, 'jane');
      expect((await call(server, jane, { path: '/api/v1/namespaces/team/pods' })).status).toBe(200);
      const del = await call(server, jane, { method: 'DELETE', path: '/api/v1/namespaces/team/pods/x' });
      expect(del.status).toBe(403);
      expect(del.json().message).toBe('pods "x" is forbidden: User "jane" cannot delete resource "pods" in API group "" in the namespace "team": No policy matched.');
      expect((await call(server, jane, { path: '/api/v1/namespaces/other/pods' })).status).toBe(403);
    } finally {
      await server.stop();
    }
  }, 30_000);

  test('a bad line stops the start with its number', async () => {
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a"}}\n{not json\n');
    const spawned = await spawnKapi({ args: ['--authorization-mode=ABAC,RBAC', `--authorization-policy-file=${file}`] });
    const exit = await spawned.exited;
    expect(exit.code).toBe(1);
    expect(spawned.logs()).toMatch(new RegExp(`kapi: --authorization-policy-file: error reading policy file ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, line 2: `));
    await spawned.stop();
  }, 30_000);
});

describe('--authorization-config with a Webhook, reloaded while running', () => {
  let dir: string;
  let sar: SarServer;
  let server: RunningKapi;
  let configFile: string;
  const config = (withWebhook: boolean, kubeconfig: string): string =>
    [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AuthorizationConfiguration',
      'authorizers:',
      '- {type: Node, name: node}',
      '- {type: RBAC, name: rbac}',
      ...(withWebhook
        ? [
            '- type: Webhook',
            '  name: corp',
            '  webhook:',
            '    timeout: 3s',
            '    subjectAccessReviewVersion: v1',
            '    matchConditionSubjectAccessReviewVersion: v1',
            '    failurePolicy: Deny',
            '    cacheAuthorizedRequests: false',
            '    cacheUnauthorizedRequests: false',
            '    connectionInfo: {type: KubeConfigFile, kubeConfigFile: ' + JSON.stringify(kubeconfig) + '}',
            '    matchConditions:',
            "    - expression: \"request.user == 'jane'\"",
          ]
        : []),
      '',
    ].join('\n');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kapi-authz-config-'));
    sar = await startSarServer();
    sar.fallback = allow('corp says yes');
    configFile = join(dir, 'authz.yaml');
    writeFileSync(configFile, config(true, sar.kubeconfig()));
    server = await startKapi({ args: [`--authorization-config=${configFile}`] });
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    await sar?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const reloads = async (status: string): Promise<number> => {
    const metrics = (await call(server, adminCredentials(server.kubeconfig), { path: '/metrics' })).body.toString();
    const line = metrics.split('\n').find((l) => l.startsWith('apiserver_authorization_config_controller_automatic_reloads_total{') && l.includes(`status="${status}"`));
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  };

  test('the webhook decides what RBAC does not, for the users its condition matches', async () => {
    const jane = await as(server, 'jane');
    const bob = await as(server, 'bob');
    expect((await call(server, jane, { path: '/api/v1/namespaces/default/secrets?labelSelector=app%3Dweb' })).status).toBe(200);
    const asked = sar.requests.at(-1)!;
    // The selectors reach the webhook as requirements (AuthorizeWithSelectors).
    expect(JSON.parse(asked.body)).toMatchObject({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'jane', resourceAttributes: { verb: 'list', resource: 'secrets', namespace: 'default', version: 'v1', labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['web'] }] } } },
    });
    const count = sar.requests.length;
    expect((await call(server, bob, { path: '/api/v1/namespaces/default/secrets' })).status).toBe(403);
    expect(sar.requests.length).toBe(count);
    // Each terminal decision is counted by the authorizer that made it.
    const metrics = (await call(server, adminCredentials(server.kubeconfig), { path: '/metrics' })).body.toString();
    const decided = (labels: string) => Number(metrics.split('\n').find((l) => l.startsWith(`apiserver_authorization_decisions_total{${labels}}`))?.split(' ').at(-1) ?? 0);
    expect(decided('type="Webhook",name="corp",decision="allowed"')).toBeGreaterThanOrEqual(1);
    // Nothing was allowed by RBAC here (the admin is allowed before any mode, uncounted).
    expect(decided('type="RBAC",name="rbac",decision="allowed"')).toBe(0);
  });

  test('an edit without the webhook applies without a restart; a broken edit keeps it and counts a failure', async () => {
    const jane = await as(server, 'jane');
    const failuresBefore = await reloads('failure');
    writeFileSync(configFile, config(false, ''));
    await eventually('jane is refused once the webhook is gone', async () => (await call(server, jane, { path: '/api/v1/namespaces/default/secrets' })).status === 403);
    expect(await reloads('success')).toBeGreaterThanOrEqual(1);
    writeFileSync(configFile, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- {type: Magic, name: x}\n');
    await eventually('the broken file is counted', async () => (await reloads('failure')) > failuresBefore);
    expect((await call(server, jane, { path: '/api/v1/namespaces/default/secrets' })).status).toBe(403);
    expect((await call(server, adminCredentials(server.kubeconfig), { path: '/api/v1/namespaces/default/secrets' })).status).toBe(200);
  }, 30_000);

  test('with --authorization-mode the start stops with one line', async () => {
    const spawned = await spawnKapi({ args: [`--authorization-config=${configFile}`, '--authorization-mode=RBAC'] });
    expect((await spawned.exited).code).toBe(1);
    expect(spawned.logs()).toContain('kapi: --authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
    await spawned.stop();
  }, 30_000);
});
