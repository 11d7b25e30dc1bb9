// KUBERNETES_EXEC_INFO as client-go writes it, and as a hostile or broken
// environment might: the parse answers kubectl's apiVersion and interactivity, or
// one line that never quotes the input.
import { describe, expect, test } from 'vitest';
import { ExecInfoError, MAX_EXEC_INFO_BYTES, execCredential, parseExecInfo, rfc3339, type ExecInfo } from '../../src/cli/exec-info.js';

const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';
const info = (obj: unknown) => JSON.stringify(obj);
const caPem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('parseExecInfo accepts what client-go sends', () => {
  const cases: { name: string; input: string | undefined; tty?: boolean; want: ExecInfo }[] = [
    { name: 'absent, stdin not a terminal: v1, not interactive', input: undefined, want: { apiVersion: V1, interactive: false } },
    { name: 'absent, stdin a terminal: v1, interactive', input: undefined, tty: true, want: { apiVersion: V1, interactive: true } },
    { name: 'empty string counts as absent', input: '', want: { apiVersion: V1, interactive: false } },
    { name: 'v1 not interactive (interactiveMode Never)', input: info({ kind: 'ExecCredential', apiVersion: V1, spec: { interactive: false } }), tty: true, want: { apiVersion: V1, interactive: false } },
    { name: 'v1beta1 interactive', input: info({ kind: 'ExecCredential', apiVersion: V1BETA1, spec: { interactive: true } }), want: { apiVersion: V1BETA1, interactive: true } },
    { name: 'no spec: not interactive', input: info({ kind: 'ExecCredential', apiVersion: V1 }), want: { apiVersion: V1, interactive: false } },
    {
      name: 'provideClusterInfo: the cluster, CA decoded',
      input: info({
        kind: 'ExecCredential',
        apiVersion: V1,
        spec: { interactive: false, cluster: { server: 'https://127.0.0.1:6443', 'tls-server-name': 'kapi', 'certificate-authority-data': Buffer.from(caPem).toString('base64'), config: { audience: 'x' } } },
      }),
      want: { apiVersion: V1, interactive: false, cluster: { server: 'https://127.0.0.1:6443', tlsServerName: 'kapi', insecureSkipTlsVerify: false, caPem } },
    },
    {
      name: '__proto__ in spec is an ordinary key: interactive stays false',
      input: '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"__proto__":{"interactive":true}}}',
      tty: true,
      want: { apiVersion: V1, interactive: false },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(parseExecInfo(c.input, c.tty ?? false)).toEqual(c.want);
    });
  }
});

describe('parseExecInfo refuses what kubectl never sends, in one line', () => {
  const SECRET = 'hunter2-do-not-print';
  // 120,000 bytes: under the size bound, so the parse itself meets the nesting.
  const deep = '['.repeat(60_000) + ']'.repeat(60_000);
  const cases: { name: string; input: string; want: RegExp }[] = [
    { name: 'malformed JSON', input: `{"kind":"ExecCredential",${SECRET}`, want: /^KUBERNETES_EXEC_INFO is not valid JSON$/ },
    { name: 'an array', input: '[]', want: /must be a JSON object/ },
    { name: 'null', input: 'null', want: /must be a JSON object/ },
    { name: 'a number', input: '42', want: /must be a JSON object/ },
    { name: 'deeply nested arrays', input: deep, want: /^KUBERNETES_EXEC_INFO (is not valid JSON|must be a JSON object)$/ },
    { name: 'wrong kind', input: info({ kind: 'Pod', apiVersion: V1 }), want: /kind must be ExecCredential/ },
    { name: 'unknown apiVersion (v1alpha1 is gone from client-go)', input: info({ kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1alpha1' }), want: /unsupported apiVersion "client.authentication.k8s.io\/v1alpha1"/ },
    { name: 'apiVersion of another group', input: info({ kind: 'ExecCredential', apiVersion: 'v1' }), want: /unsupported apiVersion "v1"/ },
    { name: 'apiVersion not a string', input: info({ kind: 'ExecCredential', apiVersion: 1 }), want: /unsupported apiVersion missing or not a string/ },
    { name: 'a huge apiVersion is not echoed', input: info({ kind: 'ExecCredential', apiVersion: SECRET.repeat(20) }), want: /unsupported apiVersion missing or not a string/ },
    {
      name: '__proto__ carrying kind and apiVersion does not count',
      input: `{"__proto__":{"kind":"ExecCredential","apiVersion":"${V1}"}}`,
      want: /kind must be ExecCredential/,
    },
    { name: 'interactive not a boolean', input: info({ kind: 'ExecCredential', apiVersion: V1, spec: { interactive: 'true' } }), want: /spec.interactive must be a boolean/ },
    { name: 'spec not an object', input: info({ kind: 'ExecCredential', apiVersion: V1, spec: [] }), want: /spec must be an object/ },
    { name: 'cluster not an object', input: info({ kind: 'ExecCredential', apiVersion: V1, spec: { cluster: 'x' } }), want: /spec.cluster must be an object/ },
    { name: 'cluster server not a string', input: info({ kind: 'ExecCredential', apiVersion: V1, spec: { cluster: { server: 1 } } }), want: /spec.cluster.server must be a string/ },
    { name: 'CA data not base64', input: info({ kind: 'ExecCredential', apiVersion: V1, spec: { cluster: { server: 's', 'certificate-authority-data': `${SECRET}!` } } }), want: /not base64/ },
    { name: 'insecure flag not a boolean', input: info({ kind: 'ExecCredential', apiVersion: V1, spec: { cluster: { server: 's', 'insecure-skip-tls-verify': 'yes' } } }), want: /must be a boolean/ },
    { name: 'larger than an environment string can be', input: info({ kind: 'ExecCredential', apiVersion: V1, pad: 'x'.repeat(MAX_EXEC_INFO_BYTES) }), want: /larger than 131072 bytes/ },
  ];
  for (const c of cases) {
    test(c.name, () => {
      let caught: unknown;
      try {
        parseExecInfo(c.input, true);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ExecInfoError);
      const message = (caught as Error).message;
      expect(message).toMatch(c.want);
      expect(message).not.toContain('\n');
      expect(message).not.toContain(SECRET);
    });
  }
});

describe('execCredential prints client-go wire JSON', () => {
  test('a token in v1beta1, no expiry', () => {
    expect(JSON.parse(execCredential(V1BETA1, { token: 'abc' }))).toEqual({ apiVersion: V1BETA1, kind: 'ExecCredential', status: { token: 'abc' } });
  });
  test('a certificate and key in v1 with metav1.Time expiry (whole seconds, Z)', () => {
    const at = new Date('2030-01-02T03:04:05.678Z');
    expect(JSON.parse(execCredential(V1, { clientCertificateData: 'C', clientKeyData: 'K', expirationTimestamp: at }))).toEqual({
      apiVersion: V1,
      kind: 'ExecCredential',
      status: { expirationTimestamp: '2030-01-02T03:04:05Z', clientCertificateData: 'C', clientKeyData: 'K' },
    });
    expect(rfc3339(at)).toBe('2030-01-02T03:04:05Z');
  });
});
