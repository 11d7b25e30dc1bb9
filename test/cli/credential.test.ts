// `kapi credential` without kubectl: its flags, each static source, the
// interactive prompt, and the failures (one line on stderr, exit 1, no secret).
// Through kubectl: test/e2e/kubectl-exec-credential.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { parseCredentialArgs, parseDuration, type CredentialArgs } from '../../src/cli/args.js';
import { CREDENTIAL_HELP, runCredential } from '../../src/cli/credential.js';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/auth/pki/issue.js';

const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';
const SECRET = 'abcdef.0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'kapi-credential-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

describe('parseCredentialArgs', () => {
  const ok: { name: string; argv: string[]; want: CredentialArgs }[] = [
    { name: 'no flags: the prompt', argv: [], want: { help: false, source: { kind: 'prompt' } } },
    { name: '--help', argv: ['--help'], want: { help: true, source: { kind: 'prompt' } } },
    { name: '-h beside other flags', argv: ['--token-file', 'x', '-h'], want: { help: true, source: { kind: 'prompt' } } },
    { name: 'token file, spaced', argv: ['--token-file', '/t'], want: { help: false, source: { kind: 'token-file', path: '/t' } } },
    { name: 'token file, with =', argv: ['--token-file=/t'], want: { help: false, source: { kind: 'token-file', path: '/t' } } },
    { name: 'certificate and key', argv: ['--client-certificate=/c', '--client-key=/k'], want: { help: false, source: { kind: 'client-certificate', certPath: '/c', keyPath: '/k' } } },
    { name: 'kubeconfig with context', argv: ['--kubeconfig=/kc', '--context=x'], want: { help: false, source: { kind: 'kubeconfig', path: '/kc', context: 'x' } } },
    {
      name: 'service account, defaults',
      argv: ['--kubeconfig=/kc', '--service-account=ns/bot'],
      want: { help: false, source: { kind: 'service-account', kubeconfig: '/kc', namespace: 'ns', name: 'bot', expirationSeconds: 3600, audiences: [] } },
    },
    {
      name: 'service account, expiration and two audiences',
      argv: ['--kubeconfig', '/kc', '--service-account', 'kube-system/a.b', '--expiration', '1h30m', '--audience=x', '--audience', 'y'],
      want: { help: false, source: { kind: 'service-account', kubeconfig: '/kc', namespace: 'kube-system', name: 'a.b', expirationSeconds: 5400, audiences: ['x', 'y'] } },
    },
  ];
  for (const c of ok) test(c.name, () => expect(parseCredentialArgs(c.argv)).toEqual(c.want));

  const bad: { name: string; argv: string[]; want: RegExp }[] = [
    { name: 'unknown flag', argv: ['--token=abc'], want: /unknown flag --token; see kapi credential --help/ },
    { name: 'stray argument', argv: ['token'], want: /unexpected argument "token"/ },
    { name: 'flag without value', argv: ['--token-file'], want: /flag needs an argument: --token-file/ },
    { name: 'empty value', argv: ['--token-file='], want: /--token-file must not be empty/ },
    { name: 'given twice', argv: ['--token-file=a', '--token-file=b'], want: /--token-file is given more than once/ },
    { name: 'two sources', argv: ['--token-file=a', '--kubeconfig=b'], want: /give one source/ },
    { name: 'certificate without key', argv: ['--client-certificate=c'], want: /go together/ },
    { name: 'key without certificate', argv: ['--client-key=k'], want: /go together/ },
    { name: 'context without kubeconfig', argv: ['--context=x'], want: /--context needs --kubeconfig/ },
    { name: 'service account without kubeconfig', argv: ['--service-account=a/b'], want: /--service-account needs --kubeconfig/ },
    { name: 'expiration without service account', argv: ['--kubeconfig=k', '--expiration=1h'], want: /need --service-account/ },
    { name: 'service account without namespace', argv: ['--kubeconfig=k', '--service-account=bot'], want: /NAMESPACE\/NAME/ },
    { name: 'service account with bad namespace', argv: ['--kubeconfig=k', '--service-account=Ns/bot'], want: /NAMESPACE\/NAME/ },
    { name: 'service account with a second slash', argv: ['--kubeconfig=k', '--service-account=ns/a/b'], want: /NAMESPACE\/NAME/ },
    { name: '__proto__ as a flag', argv: ['--__proto__=x'], want: /unknown flag --__proto__/ },
    { name: 'bad duration', argv: ['--kubeconfig=k', '--service-account=a/b', '--expiration=1d'], want: /not a duration/ },
    { name: 'zero duration', argv: ['--kubeconfig=k', '--service-account=a/b', '--expiration=0s'], want: /between 1s/ },
  ];
  for (const c of bad) test(`refused: ${c.name}`, () => expect(() => parseCredentialArgs(c.argv)).toThrow(c.want));

  test('durations as Go writes them', () => {
    expect([parseDuration('1h'), parseDuration('10m'), parseDuration('3600s'), parseDuration('2h3m4s')]).toEqual([3600, 600, 3600, 7384]);
  });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], opts: { execInfo?: unknown; stdin?: string; tty?: boolean } = {}): Promise<Run> {
  const stdin = Object.assign(new PassThrough(), { isTTY: opts.tty ?? false });
  if (opts.stdin !== undefined) stdin.end(opts.stdin);
  let stdout = '';
  let stderr = '';
  const env: Record<string, string> = opts.execInfo === undefined ? {} : { KUBERNETES_EXEC_INFO: typeof opts.execInfo === 'string' ? opts.execInfo : JSON.stringify(opts.execInfo) };
  const code = await runCredential(argv, { env, stdin, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

/** A failure: exit 1, nothing on stdout, exactly one line on stderr without the secret. */
function expectFailure(res: Run, want: RegExp): void {
  expect(res.code).toBe(1);
  expect(res.stdout).toBe('');
  // The prompt, when there was one, then the one line.
  expect(res.stderr).toMatch(/^(Token: \n)?kapi credential: [^\n]+\n$/);
  expect(res.stderr).toMatch(want);
  expect(res.stderr).not.toContain(SECRET);
}

const execInfo = (apiVersion: string, interactive: boolean) => ({ kind: 'ExecCredential', apiVersion, spec: { interactive } });

describe('runCredential', () => {
  let ca: CertificateAndKey;
  let client: CertificateAndKey;
  let expired: CertificateAndKey;
  beforeAll(async () => {
    const clock = () => new Date();
    ca = await createCertificateAuthority({ commonName: 'test-ca', validityDays: 30, clock });
    client = await issueCertificate({ ca, commonName: 'jane', organizations: ['dev'], usage: 'client', validityDays: 2, clock });
    expired = await issueCertificate({ ca, commonName: 'old', usage: 'client', validityDays: 1, clock: () => new Date(Date.now() - 10 * 86_400_000) });
  });

  test('--help prints the sources and a kubeconfig entry', async () => {
    const res = await run(['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(CREDENTIAL_HELP);
    for (const want of ['--token-file', '--client-certificate', '--service-account', 'interactiveMode', 'provideClusterInfo']) expect(res.stdout).toContain(want);
  });

  for (const apiVersion of [V1, V1BETA1]) {
    test(`a token file answers in ${apiVersion}, the version kubectl asked for`, async () => {
      const res = await run(['--token-file', file('token', `  ${SECRET}\n`)], { execInfo: execInfo(apiVersion, false) });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual({ apiVersion, kind: 'ExecCredential', status: { token: SECRET } });
    });
  }

  test('a certificate and key answer both, expiring with the certificate', async () => {
    const res = await run(['--client-certificate', file('c.crt', client.certPem), '--client-key', file('c.key', client.keyPem)], { execInfo: execInfo(V1, false) });
    expect(res.stderr).toBe('');
    const out = JSON.parse(res.stdout);
    expect(out.status.clientCertificateData).toBe(client.certPem);
    expect(out.status.clientKeyData).toBe(client.keyPem);
    const validTo = new (await import('node:crypto')).X509Certificate(client.certPem).validTo;
    expect(new Date(out.status.expirationTimestamp).getTime()).toBe(new Date(validTo).getTime());
  });

  test("a kubeconfig's user certificate (inline data) is the credential", async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const kc = file(
      'admin.kubeconfig',
      yaml.dump({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
        users: [{ name: 'u', user: { 'client-certificate-data': b64(client.certPem), 'client-key-data': b64(client.keyPem) } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const res = await run(['--kubeconfig', kc], { execInfo: execInfo(V1BETA1, false) });
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout).status).toMatchObject({ clientCertificateData: client.certPem, clientKeyData: client.keyPem });
  });

  test("a kubeconfig's token file (relative to the kubeconfig) beside a certificate: both are passed on", async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    file('kc-token', `${SECRET}\n`);
    const kc = file(
      'both.kubeconfig',
      yaml.dump({
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
        users: [{ name: 'u', user: { tokenFile: 'kc-token', 'client-certificate-data': b64(client.certPem), 'client-key-data': b64(client.keyPem) } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }, { name: 'y', context: { cluster: 'c', user: 'v' } }],
        'current-context': 'y',
      }),
    );
    const res = await run(['--kubeconfig', kc, '--context', 'x'], { execInfo: execInfo(V1, false) });
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout).status).toMatchObject({ token: SECRET, clientCertificateData: client.certPem, clientKeyData: client.keyPem });
    // The current context names a user the file does not have.
    expectFailure(await run(['--kubeconfig', kc], { execInfo: execInfo(V1, false) }), /no user named "v"/);
  });

  test('no source, kubectl allows interaction: the token typed on stdin', async () => {
    const res = await run([], { execInfo: execInfo(V1, true), stdin: `${SECRET}\n` });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).status).toEqual({ token: SECRET });
    expect(res.stderr).toBe('Token: \n');
  });

  test('no source and no KUBERNETES_EXEC_INFO: interactive only on a terminal', async () => {
    expectFailure(await run([], { stdin: `${SECRET}\n` }), /does not allow interaction/);
    const res = await run([], { stdin: `${SECRET}\n`, tty: true });
    expect(JSON.parse(res.stdout)).toEqual({ apiVersion: V1, kind: 'ExecCredential', status: { token: SECRET } });
  });

  const failures: { name: string; argv: () => string[]; execInfo?: unknown; stdin?: string; want: RegExp }[] = [
    { name: 'interactiveMode Never without a source', argv: () => [], execInfo: execInfo(V1, false), stdin: SECRET, want: /does not allow interaction \(interactiveMode Never/ },
    { name: 'interactive, but stdin ends without a token', argv: () => [], execInfo: execInfo(V1, true), stdin: '', want: /no token entered/ },
    { name: 'interactive, a token with a space', argv: () => [], execInfo: execInfo(V1, true), stdin: `${SECRET} x\n`, want: /whitespace/ },
    { name: 'malformed KUBERNETES_EXEC_INFO', argv: () => ['--token-file', file('t2', SECRET)], execInfo: `{"apiVersion": ${SECRET}`, want: /KUBERNETES_EXEC_INFO is not valid JSON/ },
    { name: 'unknown apiVersion', argv: () => ['--token-file', file('t3', SECRET)], execInfo: execInfo('client.authentication.k8s.io/v1alpha1', false), want: /unsupported apiVersion/ },
    { name: 'missing token file', argv: () => ['--token-file', join(dir, 'absent')], want: /--token-file ".*absent": ENOENT/ },
    { name: 'empty token file', argv: () => ['--token-file', file('empty', '\n')], want: /the token is empty/ },
    { name: 'two lines in a token file', argv: () => ['--token-file', file('two', `${SECRET}\n${SECRET}\n`)], want: /whitespace/ },
    { name: 'a key of another certificate', argv: () => ['--client-certificate', file('m.crt', client.certPem), '--client-key', file('m.key', ca.keyPem)], want: /the key does not belong to the certificate/ },
    { name: 'an expired certificate', argv: () => ['--client-certificate', file('e.crt', expired.certPem), '--client-key', file('e.key', expired.keyPem)], want: /the certificate expired at/ },
    { name: 'a certificate file that is no PEM', argv: () => ['--client-certificate', file('n.crt', SECRET), '--client-key', file('n.key', client.keyPem)], want: /not a PEM certificate/ },
    { name: 'a key file that is no PEM', argv: () => ['--client-certificate', file('k.crt', client.certPem), '--client-key', file('k.key', SECRET)], want: /not a PEM private key/ },
    {
      name: 'a kubeconfig whose user is itself an exec plugin',
      argv: () => [
        '--kubeconfig',
        file('exec.kubeconfig', yaml.dump({ clusters: [{ name: 'c', cluster: { server: 'https://x' } }], users: [{ name: 'u', user: { exec: { command: 'kapi' } } }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' })),
      ],
      want: /uses exec/,
    },
    { name: 'a kubeconfig that is not YAML', argv: () => ['--kubeconfig', file('bad.kubeconfig', `users: [${SECRET}`)], want: /is not valid YAML/ },
    { name: 'a kubeconfig without the context', argv: () => ['--kubeconfig', file('noctx.kubeconfig', 'apiVersion: v1\nkind: Config\n'), '--context', 'nope'], want: /no context named "nope"/ },
  ];
  for (const c of failures) {
    test(`fails in one line: ${c.name}`, async () => {
      expectFailure(await run(c.argv(), { ...(c.execInfo === undefined ? {} : { execInfo: c.execInfo }), ...(c.stdin === undefined ? {} : { stdin: c.stdin }) }), c.want);
    });
  }
});
