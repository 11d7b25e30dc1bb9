// Service-account tokens with real kubectl: `kubectl create token` (a protobuf
// TokenRequest from 1.32 on), the token as the only credential of a kubeconfig
// (`auth whoami`, `get`), and kube's refusals: too short a duration, a missing
// account, a foreign audience, a deleted account, a bound pod that went, a
// forged token. The issuer's discovery documents are checked too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let server: RunningKapi;
let dir: string;

beforeAll(async () => {
  server = await startKapi();
  dir = mkdtempSync(join(tmpdir(), 'kapi-tokens-'));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** kubectl's words for a 401: from a request, or from discovery before it. */
const UNAUTHORIZED = /Unauthorized|the server has asked for the client to provide credentials/;

function refused(k: Kubectl): void {
  const res = k.run(['get', 'ns']);
  expect(res.code).not.toBe(0);
  expect(res.stderr).toMatch(UNAUTHORIZED);
}

let files = 0;
/** A kubeconfig whose only credential is `token`. */
function tokenKubeconfig(token: string): string {
  const admin = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
  const cluster = admin.clusters[0]!.cluster;
  const file = join(dir, `token-${++files}.kubeconfig`);
  writeFileSync(
    file,
    yaml.dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kapi', cluster: { server: cluster['server'], 'certificate-authority-data': cluster['certificate-authority-data'] } }],
      users: [{ name: 'sa', user: { token } }],
      contexts: [{ name: 'sa', context: { cluster: 'kapi', user: 'sa' } }],
      'current-context': 'sa',
    }),
  );
  return file;
}

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

for (const binary of binaries) {
  describe(`tokens with ${binary.name}`, () => {
    let admin: Kubectl;
    const ns = `tok-${binary.name.replace(/\W/g, '')}`;
    const as = (token: string): Kubectl => kubectl(binary, tokenKubeconfig(token));
    beforeAll(() => {
      admin = kubectl(binary, server.kubeconfig);
      ok(admin, ['create', 'ns', ns]);
      ok(admin, ['-n', ns, 'create', 'serviceaccount', 'bot']);
    });

    test('create token answers a JWT that authenticates as the account', () => {
      const token = ok(admin, ['-n', ns, 'create', 'token', 'bot']).trim();
      expect(token.split('.')).toHaveLength(3);
      const whoami = ok(as(token), ['auth', 'whoami', '-o', 'json']);
      const uid = ok(admin, ['-n', ns, 'get', 'sa', 'bot', '-o', 'jsonpath={.metadata.uid}']);
      expect(JSON.parse(whoami).status.userInfo).toMatchObject({
        username: `system:serviceaccount:${ns}:bot`,
        uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
      });
      // Authenticated is not authorized (RBAC): a view binding lets the account read itself.
      expect(as(token).run(['-n', ns, 'get', 'sa', 'bot', '-o', 'name']).code).toBe(1);
      ok(admin, ['-n', ns, 'create', 'rolebinding', 'bot-view', '--clusterrole=view', `--serviceaccount=${ns}:bot`]);
      expect(ok(as(token), ['-n', ns, 'get', 'sa', 'bot', '-o', 'name'])).toBe('serviceaccount/bot\n');
    });

    test('a duration under ten minutes and a missing account are refused as kube does', () => {
      const short = admin.run(['-n', ns, 'create', 'token', 'bot', '--duration=5m']);
      expect(short.code).not.toBe(0);
      expect(short.stderr).toContain('TokenRequest.authentication.k8s.io "bot" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes');
      const missing = admin.run(['-n', ns, 'create', 'token', 'nobody']);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('serviceaccounts "nobody" not found');
    });

    test('a token for another audience, or forged, is Unauthorized', () => {
      const foreign = ok(admin, ['-n', ns, 'create', 'token', 'bot', '--audience=vault']).trim();
      refused(as(foreign));
      const good = ok(admin, ['-n', ns, 'create', 'token', 'bot']).trim();
      const [h, p] = good.split('.');
      refused(as(`${h}.${p}.${'A'.repeat(86)}`));
    });

    test('a token bound to a pod stops working when the pod goes; all stop when the account goes', () => {
      // kube binds a token only to a pod that runs as the same account.
      ok(admin, ['-n', ns, 'run', 'web', '--image=nginx', '--overrides={"apiVersion":"v1","spec":{"serviceAccountName":"bot"}}']);
      const bound = ok(admin, ['-n', ns, 'create', 'token', 'bot', '--bound-object-kind=Pod', '--bound-object-name=web']).trim();
      const whoami = JSON.parse(ok(as(bound), ['auth', 'whoami', '-o', 'json']));
      expect(whoami.status.userInfo.extra['authentication.kubernetes.io/pod-name']).toEqual(['web']);
      ok(admin, ['-n', ns, 'delete', 'pod', 'web', '--wait=false']);
      refused(as(bound));

      const plain = ok(admin, ['-n', ns, 'create', 'token', 'bot']).trim();
      ok(admin, ['-n', ns, 'delete', 'sa', 'bot']);
      refused(as(plain));
      ok(admin, ['-n', ns, 'create', 'serviceaccount', 'bot']);
      // The same name again is another account: the old token stays refused.
      refused(as(plain));
    });
  });
}

test('the issuer publishes its discovery document and the keys that verify its tokens', () => {
  const admin = kubectl(binaries[0]!, server.kubeconfig);
  const config = JSON.parse(ok(admin, ['get', '--raw', '/.well-known/openid-configuration']));
  expect(config).toEqual({
    issuer: 'https://kubernetes.default.svc.cluster.local',
    jwks_uri: `${server.url}/openid/v1/jwks`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
  });
  const token = ok(admin, ['-n', 'default', 'create', 'token', 'default']).trim();
  const kid = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;
  const jwks = JSON.parse(ok(admin, ['get', '--raw', '/openid/v1/jwks']));
  expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([kid]);
});
