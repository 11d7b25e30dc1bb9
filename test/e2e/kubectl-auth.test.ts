// `kubectl auth can-i` through SelfSubjectAccessReview (JSON bodies up to 1.31,
// protobuf from 1.32), answered by the server's own authorizer.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { issueClientCertificate } from '../../src/auth/pki/issue.js';
import { kubectl, kubectlBinaries } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

function caOf(kubeconfig: string): Buffer {
  const cfg = yaml.load(readFileSync(kubeconfig, 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
  return Buffer.from(cfg.clusters[0]!.cluster['certificate-authority-data'] ?? '', 'base64');
}

function post(server: RunningKapi, creds: { cert: string; key: string }, body: object): Promise<{ status: number; json: any }> {
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1', port: server.port, method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        ca: caOf(server.kubeconfig), cert: creds.cert, key: creds.key, agent: false, headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => ok({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', fail);
    req.end(JSON.stringify(body));
  });
}

async function userCert(server: RunningKapi, name: string) {
  const ca = { certPem: readFileSync(join(server.dataDir, 'pki/ca.crt'), 'utf8'), keyPem: readFileSync(join(server.dataDir, 'pki/ca.key'), 'utf8') };
  const pair = await issueClientCertificate({ ca, commonName: name, organizations: ['dev'], validityDays: 1 });
  return { cert: pair.certPem, key: pair.keyPem };
}

const review = (attrs: object) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: attrs });

describe('default authorization (AlwaysAllow)', () => {
  let server: RunningKapi;
  beforeAll(async () => {
    server = await startKapi();
  }, 60_000);
  afterAll(async () => server?.stop());

  for (const binary of kubectlBinaries(['1.27', '1.33'])) {
    test(`${binary.name} auth can-i says yes`, () => {
      const k = kubectl(binary, server.kubeconfig);
      const res = k.run(['auth', 'can-i', 'create', 'pods', '-n', 'default']);
      expect(res.stderr).toBe('');
      expect(res.stdout.trim()).toBe('yes');
      expect(res.code).toBe(0);
    });
  }

  test('a spec with neither attribute kind is 422 Invalid', async () => {
    const res = await post(server, await userCert(server, 'alice'), review({}));
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      reason: 'Invalid',
      message:
        'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    });
  });
});

describe('--authorization-mode=AlwaysDeny', () => {
  let server: RunningKapi;
  beforeAll(async () => {
    server = await startKapi({ args: ['--authorization-mode=AlwaysDeny'] });
  }, 60_000);
  afterAll(async () => server?.stop());

  test('the admin (system:masters) may; another user may not, and it is not an explicit deny', async () => {
    const k = kubectl(kubectlBinaries([])[0]!, server.kubeconfig);
    expect(k.run(['auth', 'can-i', 'delete', 'nodes']).stdout.trim()).toBe('yes');
    // Creating the review itself is authorized like any request: bob is refused at the door.
    const bob = await userCert(server, 'bob');
    const res = await post(server, bob, review({ resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } }));
    expect(res.status).toBe(403);
    expect(res.json.message).toMatch(/^selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "bob" cannot create resource "selfsubjectaccessreviews"/);
  });
});

describe('non-resource attributes', () => {
  let server: RunningKapi;
  beforeAll(async () => {
    server = await startKapi({ args: ['--authorization-mode=AlwaysAllow'] });
  }, 60_000);
  afterAll(async () => server?.stop());

  test('non-resource questions are answered too', async () => {
    const res = await post(server, await userCert(server, 'carol'), review({ nonResourceAttributes: { verb: 'get', path: '/healthz' } }));
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ kind: 'SelfSubjectAccessReview', status: { allowed: true } });
    expect(res.json.status.denied).toBeUndefined();
  });
});
