// OpenID Connect with real kubectl (issue #13 part 4): the --oidc-* flags against a
// test issuer on 127.0.0.1; an ID token in the kubeconfig authenticates as its
// email with prefixed groups, a token for another client is 401, and bad flags
// stop the start with one line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectlBinaries, kubectlAsync } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer.js';

const ROOT = resolve(import.meta.dirname, '../..');
const binaries = kubectlBinaries(['1.27', '1.33']);
const dir = mkdtempSync(join(tmpdir(), 'kapi-oidc-'));
let issuer: TestIssuer;
let server: RunningKapi;

const now = () => Math.floor(Date.now() / 1000);

/**
 * kubectl without blocking this process: the issuer runs in it, and kapi asks it
 * for keys while kubectl waits (support/kubectl.ts's spawnSync would deadlock).
 */

function kubeconfigWithToken(token: string, name: string): string {
  const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { users: { user: Record<string, string> }[] };
  cfg.users[0]!.user = { token };
  const path = join(dir, `kubeconfig-${name}`);
  writeFileSync(path, yaml.dump(cfg), { mode: 0o600 });
  return path;
}

describe('a server trusting an OIDC issuer', () => {
  beforeAll(async () => {
    issuer = await startTestIssuer();
    await issuer.addKey('RS256');
    const caFile = join(dir, 'issuer-ca.crt');
    writeFileSync(caFile, issuer.caPem);
    server = await startKapi({
      args: [
        `--oidc-issuer-url=${issuer.url}`,
        '--oidc-client-id=kapi',
        '--oidc-username-claim=email',
        '--oidc-groups-claim=groups',
        '--oidc-groups-prefix=oidc:',
        `--oidc-ca-file=${caFile}`,
        '--oidc-required-claim=hd=example.com',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
  });

  for (const binary of binaries) {
    test(`${binary.name}: an ID token authenticates as its email, groups prefixed`, async () => {
      const token = await issuer.sign({ iss: issuer.url, aud: 'kapi', sub: 'u-1', email: 'alice@example.com', email_verified: true, hd: 'example.com', groups: ['dev'], iat: now(), exp: now() + 600 });
      const res = await kubectlAsync(binary, kubeconfigWithToken(token, `ok-${binary.name}`), ['auth', 'whoami', '-o', 'json']);
      expect(res.stderr).toBe('');
      expect(JSON.parse(res.stdout).status.userInfo).toEqual({ username: 'alice@example.com', groups: ['oidc:dev', 'system:authenticated'] });
    });

    test(`${binary.name}: a token for another client or without the required claim is 401`, async () => {
      const cases: [string, Record<string, unknown>][] = [['aud', { aud: 'other' }], ['hd', { hd: 'evil.example' }]];
      for (const [name, extra] of cases) {
        const base: Record<string, unknown> = { iss: issuer.url, sub: 'u-1', email: 'alice@example.com', iat: now(), exp: now() + 600, aud: 'kapi', hd: 'example.com' };
        const token = await issuer.sign({ ...base, ...extra });
        const res = await kubectlAsync(binary, kubeconfigWithToken(token, `${name}-${binary.name}`), ['auth', 'whoami', '-o', 'json']);
        expect(res.code, name).not.toBe(0);
        expect(res.stderr, name).toMatch(/Unauthorized|provide credentials/);
      }
    });
  }
});

describe('bad --oidc-* flags stop the start with one line', () => {
  const cases = [
    { name: 'http issuer', args: ['--oidc-issuer-url=http://127.0.0.1:1', '--oidc-client-id=k'], want: /only the https scheme is accepted/ },
    { name: 'no client id', args: ['--oidc-issuer-url=https://127.0.0.1:1'], want: /--oidc-client-id must be set/ },
    { name: 'client id alone', args: ['--oidc-client-id=k'], want: /--oidc-client-id requires --oidc-issuer-url/ },
    { name: 'unknown algorithm', args: ['--oidc-issuer-url=https://127.0.0.1:1', '--oidc-client-id=k', '--oidc-signing-algs=HS256'], want: /unsupported signing algorithm "HS256"/ },
    { name: 'a required claim without a value', args: ['--oidc-issuer-url=https://127.0.0.1:1', '--oidc-client-id=k', '--oidc-required-claim=hd'], want: /must be key=value/ },
  ];
  cases.forEach((c, i) => {
    test(`${c.name}: exit 1`, () => {
      const res = spawnSync(process.execPath, [join(ROOT, 'bin/kapi.js'), ...c.args, `--data-dir=${join(dir, `bad-${i}`)}`], { encoding: 'utf8', timeout: 20_000 });
      expect(res.status).toBe(1);
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(c.want);
    });
  });
});
