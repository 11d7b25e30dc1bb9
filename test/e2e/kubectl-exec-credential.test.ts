// `kapi credential` as kubectl's exec credential plugin (issue #13 part 8): a
// kubeconfig whose user is `exec: {command: node, args: [bin/kapi.js, credential,
// …]}` for each source (the admin kubeconfig, certificate files, a
// --token-auth-file token, a TokenRequest service-account token), in
// client.authentication.k8s.io/v1 and v1beta1, through kubectl 1.27 and 1.33:
// `kubectl auth whoami` shows the source's identity. A plugin that fails gives
// kubectl's error, and no request reaches the server.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { adminCredentials, call } from './support/http.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const KAPI = join(ROOT, 'bin/kapi.js');
const binaries = kubectlBinaries(['1.27', '1.33']);
const VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;
const NS = 'exec-cred';
const TOKEN = 'tok-exec-alice-0123456789';
/** util-linux script(1), to run kubectl on a pseudo-terminal. */
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));

let server: RunningKapi;
let dir: string;

interface ExecEntry {
  readonly apiVersion: string;
  readonly args: readonly string[];
  readonly interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
  readonly provideClusterInfo?: boolean;
}

let files = 0;
/** A kubeconfig for the server whose only user is the exec entry. */
function execKubeconfig(entry: ExecEntry): string {
  const admin = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
  const path = join(dir, `exec-${++files}.kubeconfig`);
  writeFileSync(
    path,
    yaml.dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kapi', cluster: admin.clusters[0]!.cluster }],
      users: [
        {
          name: 'exec',
          user: {
            exec: {
              apiVersion: entry.apiVersion,
              command: process.execPath,
              args: [KAPI, 'credential', ...entry.args],
              interactiveMode: entry.interactiveMode ?? 'Never',
              ...(entry.provideClusterInfo === undefined ? {} : { provideClusterInfo: entry.provideClusterInfo }),
            },
          },
        },
      ],
      contexts: [{ name: 'exec', context: { cluster: 'kapi', user: 'exec' } }],
      'current-context': 'exec',
    }),
    { mode: 0o600 },
  );
  return path;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kapi-exec-cred-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, `${TOKEN},alice,u-alice,"dev,ops"\n`);
  server = await startKapi({ args: [`--token-auth-file=${tokens}`] });
  const creds = adminCredentials(server.kubeconfig);
  writeFileSync(join(dir, 'admin.crt'), creds.cert);
  writeFileSync(join(dir, 'admin.key'), creds.key, { mode: 0o600 });
  writeFileSync(join(dir, 'token'), `${TOKEN}\n`, { mode: 0o600 });
  const admin = kubectl(binaries[0]!, server.kubeconfig);
  ok(admin, ['create', 'namespace', NS]);
  ok(admin, ['-n', NS, 'create', 'serviceaccount', 'bot']);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const ADMIN = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };
const SOURCES: { name: string; args: () => string[]; provideClusterInfo?: boolean; want: Record<string, unknown> }[] = [
  { name: "the data dir's admin kubeconfig", args: () => ['--kubeconfig', server.kubeconfig], want: ADMIN },
  { name: 'admin certificate and key files', args: () => ['--client-certificate', join(dir, 'admin.crt'), '--client-key', join(dir, 'admin.key')], want: ADMIN },
  { name: 'a --token-auth-file token (with cluster info)', args: () => ['--token-file', join(dir, 'token')], provideClusterInfo: true, want: { username: 'alice', uid: 'u-alice', groups: ['dev', 'ops', 'system:authenticated'] } },
  {
    name: 'a TokenRequest service-account token',
    args: () => ['--kubeconfig', server.kubeconfig, '--service-account', `${NS}/bot`, '--expiration', '1h'],
    want: { username: `system:serviceaccount:${NS}:bot`, groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'] },
  },
];

test('kubectl binaries 1.27 and 1.33 are present', () => {
  expect(binaries.map((b) => b.name)).toEqual(expect.arrayContaining(['kubectl.1.27', 'kubectl.1.33']));
});

for (const binary of binaries) {
  describe(`${binary.name} runs kapi credential`, () => {
    for (const apiVersion of VERSIONS) {
      for (const source of SOURCES) {
        test(`${apiVersion.split('/')[1]}: ${source.name}`, () => {
          const k = kubectl(binary, execKubeconfig({ apiVersion, args: source.args(), ...(source.provideClusterInfo === undefined ? {} : { provideClusterInfo: source.provideClusterInfo }) }));
          const whoami = JSON.parse(ok(k, ['auth', 'whoami', '-o', 'json']));
          expect(whoami.status.userInfo).toMatchObject(source.want);
          expect(whoami.status.userInfo.groups).toEqual(source.want['groups']);
        });
      }
    }

    // script(1) gives kubectl a terminal as stdin, so IfAvailable hands it to the
    // plugin (spec.interactive) and the token is typed there.
    test.skipIf(SCRIPT === undefined)('interactiveMode IfAvailable on a terminal: the token typed at the prompt', () => {
      const kc = execKubeconfig({ apiVersion: VERSIONS[0], args: [], interactiveMode: 'IfAvailable' });
      const cache = mkdtempSync(join(dir, 'cache-'));
      const command = [binary.path, '--kubeconfig', kc, '--cache-dir', cache, 'auth', 'whoami', '-o', 'json'].map((a) => `'${a}'`).join(' ');
      const res = spawnSync(SCRIPT!, ['-qec', command, '/dev/null'], { input: `${TOKEN}\n`, encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOME: cache } });
      const out = res.stdout.replace(/\r/g, '');
      expect(res.status, out).toBe(0);
      expect(out).toContain('Token: ');
      const json = JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1));
      expect(json.status.userInfo).toMatchObject({ username: 'alice', uid: 'u-alice' });
    });

    test('a plugin that fails: kubectl says so, and no request reaches the server', async () => {
      const k = kubectl(binary, execKubeconfig({ apiVersion: VERSIONS[0], args: [], interactiveMode: 'Never' }));
      // Requests of our own bracket what kubectl could have sent (the log is written
      // asynchronously, so a length taken now could still miss earlier lines).
      const creds = adminCredentials(server.kubeconfig);
      const mark = async (name: string) => {
        const marker = `exec-cred-${name}-${binary.name}`;
        expect((await call(server, creds, { path: `/version?${marker}` })).status).toBe(200);
        await eventually(`the ${name} marker is logged`, () => server.logs().includes(marker));
        return server.logs().indexOf(marker);
      };
      const start = await mark('start');
      const res = k.run(['get', 'configmaps', '-n', NS]);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('kapi credential: no credential source given');
      expect(res.stderr).toMatch(/getting credentials: exec: executable .*node failed with exit code 1/);
      const end = await mark('end');
      const between = server.logs().slice(start, end).split('\n').slice(1);
      expect(between.filter((line) => line.includes('"msg":"request"'))).toEqual([]);
    });
  });
}

describe('the ExecCredential as printed', () => {
  function runPlugin(args: string[], apiVersion: string): { status: number | null; stdout: string; stderr: string } {
    const env = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify({ kind: 'ExecCredential', apiVersion, spec: { interactive: false } }) };
    return spawnSync(process.execPath, [KAPI, 'credential', ...args], { encoding: 'utf8', env, timeout: 30_000 });
  }

  test('a TokenRequest token expires when the server says', () => {
    const res = runPlugin(['--kubeconfig', server.kubeconfig, '--service-account', `${NS}/bot`, '--expiration', '2h'], VERSIONS[1]);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ apiVersion: VERSIONS[1], kind: 'ExecCredential' });
    expect(out.status.expirationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const inSeconds = (Date.parse(out.status.expirationTimestamp) - Date.now()) / 1000;
    expect(inSeconds).toBeGreaterThan(7200 - 120);
    expect(inSeconds).toBeLessThan(7200 + 5);
  });

  test("the server's refusal is one line naming it; the token is not printed", () => {
    const missing = runPlugin(['--kubeconfig', server.kubeconfig, '--service-account', `${NS}/nobody`], VERSIONS[0]);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^kapi credential: TokenRequest for exec-cred\/nobody: 404: serviceaccounts "nobody" not found\n$/);
    const short = runPlugin(['--kubeconfig', server.kubeconfig, '--service-account', `${NS}/bot`, '--expiration', '1m'], VERSIONS[0]);
    expect(short.status).toBe(1);
    expect(short.stderr).toMatch(/^kapi credential: TokenRequest for exec-cred\/bot: 422: .*10 minutes/);
  });

  test('kapi --help names the subcommand; server flags are untouched by it', () => {
    const res = spawnSync(process.execPath, [KAPI, '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('kapi credential [flags]');
    expect(res.stdout).toContain('--secure-port int');
  });
});
