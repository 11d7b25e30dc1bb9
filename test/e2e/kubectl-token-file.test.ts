// --token-auth-file with real kubectl (issue #13 part 1): a listed token
// authenticates as its user (with system:authenticated added), an unknown token
// is 401, and a malformed file stops the start with one line naming it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const binaries = kubectlBinaries(['1.27', '1.33']);
const dir = mkdtempSync(join(tmpdir(), 'kapi-token-file-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(tokenFile, 'tok-alice-0123456789,alice,u-alice,"dev,ops"\ntok-bob-0123456789,bob,u-bob\n');

describe('a server with --token-auth-file', () => {
  let server: RunningKapi;
  beforeAll(async () => {
    server = await startKapi({ args: [`--token-auth-file=${tokenFile}`] });
  }, 60_000);
  afterAll(async () => server?.stop());

  for (const binary of binaries) {
    test(`${binary.name}: a kubeconfig with the token is the file's user`, () => {
      const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { users: { user: Record<string, string> }[] };
      cfg.users[0]!.user = { token: 'tok-alice-0123456789' };
      const path = join(dir, `kubeconfig-token-${binary.name}`);
      writeFileSync(path, yaml.dump(cfg), { mode: 0o600 });
      const k = kubectl(binary, path);
      const alice = JSON.parse(ok(k, ['auth', 'whoami', '-o', 'json']));
      expect(alice.status.userInfo).toEqual({ username: 'alice', uid: 'u-alice', groups: ['dev', 'ops', 'system:authenticated'] });
      const bad = kubectl(binary, path).run(['get', 'configmaps', '--token=not-in-the-file']);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/Unauthorized|the server has asked for the client to provide credentials/);
    });
  }

  test('a bearer token from the file is its user, with system:authenticated', async () => {
    const res = await fetchWithToken(server, 'tok-alice-0123456789');
    expect(res.status).toBe(201);
    expect(res.json.status.userInfo).toEqual({ username: 'alice', uid: 'u-alice', groups: ['dev', 'ops', 'system:authenticated'] });
    const bob = await fetchWithToken(server, 'tok-bob-0123456789');
    expect(bob.json.status.userInfo).toEqual({ username: 'bob', uid: 'u-bob', groups: ['system:authenticated'] });
  });

  test('an unknown token is 401 with a Status', async () => {
    const res = await fetchWithToken(server, 'not-in-the-file');
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });
});

/** POSTs a SelfSubjectReview with only a bearer token (no client certificate). */
async function fetchWithToken(server: RunningKapi, token: string): Promise<{ status: number; json: any }> {
  const { request } = await import('node:https');
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1', port: server.port, method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        rejectUnauthorized: false, agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', fail);
    req.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
  });
}

describe('a malformed token file stops the start with one line naming it', () => {
  const cases = [
    { name: 'too few columns', text: 'tok,alice\n', want: /^kapi: --token-auth-file: token file '.*tokens-bad-0\.csv' must have at least 3 columns \(token, user name, user uid\), found 2$/ },
    { name: 'an unterminated quote', text: 'tok,alice,u,"dev\n', want: /^kapi: --token-auth-file: token file '.*tokens-bad-1\.csv': / },
    { name: 'a missing file', text: undefined, want: /^kapi: --token-auth-file ".*tokens-bad-2\.csv": no such file or directory$/ },
  ];
  cases.forEach((c, i) => {
    test(`${c.name}: exit 1`, () => {
      const path = join(dir, `tokens-bad-${i}.csv`);
      if (c.text !== undefined) writeFileSync(path, c.text);
      const res = spawnSync(process.execPath, [join(ROOT, 'bin/kapi.js'), `--token-auth-file=${path}`, `--data-dir=${join(dir, `data-${i}`)}`], { encoding: 'utf8', timeout: 20_000 });
      expect(res.status).toBe(1);
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(c.want);
    });
  });
});
