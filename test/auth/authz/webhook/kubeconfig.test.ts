// The webhook's kubeconfig (auth/authz/webhook/kubeconfig.ts) as client-go reads
// it, and kube's retry schedule (backoff.ts): DefaultRetryBackoff's waits with
// and without jitter, how many calls, and which errors stop it early.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { backoffDelay, DEFAULT_RETRY_BACKOFF, withExponentialBackoff } from '../../../../src/auth/authz/webhook/backoff.js';
import { parseWebhookKubeconfig, readWebhookKubeconfig, type WebhookKubeconfig } from '../../../../src/auth/authz/webhook/kubeconfig.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-webhook-kubeconfig-'));
writeFileSync(join(dir, 'ca.pem'), 'CA FROM FILE');
writeFileSync(join(dir, 'token'), 'token-from-file\n');
const b64 = (s: string) => Buffer.from(s).toString('base64');

function kubeconfig(cluster: Record<string, unknown>, user: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    clusters: [{ name: 'other', cluster: { server: 'https://wrong.example' } }, { name: 'authz', cluster }],
    users: [{ name: 'apiserver', user }],
    contexts: [{ name: 'webhook', context: { cluster: 'authz', user: 'apiserver' } }],
    'current-context': 'webhook',
    ...extra,
  });
}

describe('reading the kubeconfig', () => {
  const cases: { name: string; text: string; want: WebhookKubeconfig | Error }[] = [
    {
      name: 'the current context\'s cluster and user, inline data decoded',
      text: kubeconfig({ server: 'https://authz.example:8443/authorize', 'certificate-authority-data': b64('CA'), 'tls-server-name': 'authz' }, { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') }),
      want: { server: 'https://authz.example:8443/authorize', caPem: 'CA', tlsServerName: 'authz', insecureSkipTlsVerify: false, certPem: 'CERT', keyPem: 'KEY' },
    },
    {
      name: 'files relative to the kubeconfig\'s folder; a token file trimmed',
      text: kubeconfig({ server: 'https://authz.example', 'certificate-authority': 'ca.pem' }, { tokenFile: 'token' }),
      want: { server: 'https://authz.example', caPem: 'CA FROM FILE', insecureSkipTlsVerify: false, token: 'token-from-file' },
    },
    {
      name: 'insecure-skip-tls-verify; basic auth',
      text: kubeconfig({ server: 'https://authz.example', 'insecure-skip-tls-verify': true }, { username: 'u', password: 'p' }),
      want: { server: 'https://authz.example', insecureSkipTlsVerify: true, username: 'u', password: 'p' },
    },
    {
      name: 'CA data and a CA file at once (clientcmd refuses)',
      text: kubeconfig({ server: 'https://a', 'certificate-authority': 'ca.pem', 'certificate-authority-data': b64('INLINE') }),
      want: new Error('invalid configuration: certificate-authority-data and certificate-authority are both specified for authz. certificate-authority-data will override.'),
    },
    { name: 'a CA with insecure-skip-tls-verify (transport refuses)', text: kubeconfig({ server: 'https://a', 'certificate-authority-data': b64('CA'), 'insecure-skip-tls-verify': true }), want: new Error('specifying a root certificates file with the insecure flag is not allowed') },
    { name: 'YAML reads the same', text: 'current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\nclusters:\n- name: k\n  cluster: {server: "http://127.0.0.1:8080/"}\n', want: { server: 'http://127.0.0.1:8080/', insecureSkipTlsVerify: false } },
    { name: 'no current context: client-go\'s empty-config error', text: JSON.stringify({ clusters: [{ name: 'k', cluster: { server: 'https://a' } }] }), want: new Error('invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable') },
    { name: 'a current context that does not exist', text: kubeconfig({ server: 'https://a' }, {}, { 'current-context': 'nope' }), want: new Error('invalid configuration: context was not found for specified context: nope') },
    { name: 'a cluster without a server', text: kubeconfig({}), want: new Error('invalid configuration: no server found for cluster "authz"') },
    { name: 'an exec user is refused', text: kubeconfig({ server: 'https://a' }, { exec: { command: 'x' } }), want: new Error('user "apiserver": exec and auth-provider credentials are not supported for webhooks') },
    { name: 'a certificate without its key', text: kubeconfig({ server: 'https://a' }, { 'client-certificate-data': b64('CERT') }), want: new Error('invalid configuration: client-key-data or client-key must be specified for apiserver to use the clientCert authentication method.') },
    { name: 'a file that is missing', text: kubeconfig({ server: 'https://a', 'certificate-authority': 'missing.pem' }), want: new Error(`open ${join(dir, 'missing.pem')}: no such file or directory`) },
    { name: 'a server that is not http(s)', text: kubeconfig({ server: 'ftp://a' }), want: new Error('invalid configuration: server "ftp://a" must be an http or https URL') },
    { name: 'a field of the wrong type', text: kubeconfig({ server: 42 }), want: new Error('cluster.server must be a string') },
  ];
  for (const c of cases) {
    test(c.name, () => {
      if (c.want instanceof Error) expect(() => parseWebhookKubeconfig(c.text, dir)).toThrow(c.want.message);
      else expect(parseWebhookKubeconfig(c.text, dir)).toEqual(c.want);
    });
  }

  test('a missing kubeconfig file names the file', () => {
    expect(() => readWebhookKubeconfig(join(dir, 'nope.yaml'))).toThrow(`open ${join(dir, 'nope.yaml')}: no such file or directory`);
  });
});

describe('the retry schedule', () => {
  const cases: { name: string; random: number; want: number[] }[] = [
    { name: 'no jitter drawn: 500ms growing by 1.5', random: 0, want: [500, 750, 1125, 1687.5] },
    { name: 'the most jitter: each wait 20% longer', random: 0.999999, want: [599.9999, 899.99985, 1349.999775, 2024.9996625] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = [0, 1, 2, 3].map((attempt) => backoffDelay(DEFAULT_RETRY_BACKOFF, attempt, () => c.random));
      got.forEach((ms, i) => expect(ms).toBeCloseTo(c.want[i]!, 6));
    });
  }

  const retryCases: { name: string; failures: number; retryable: boolean; steps?: number; want: { calls: number; waits: number; result: string } }[] = [
    { name: 'success at once: one call', failures: 0, retryable: true, want: { calls: 1, waits: 0, result: 'ok' } },
    { name: 'retryable failures up to the fifth call', failures: 4, retryable: true, want: { calls: 5, waits: 4, result: 'ok' } },
    { name: 'five retryable failures: the last error', failures: 5, retryable: true, want: { calls: 5, waits: 4, result: 'fail 5' } },
    { name: 'a failure that is not retryable: at once', failures: 1, retryable: false, want: { calls: 1, waits: 0, result: 'fail 1' } },
    { name: 'no steps: kube\'s timed-out error without a call', failures: 0, retryable: true, steps: 0, want: { calls: 0, waits: 0, result: 'webhook call failed: timed out waiting for the condition' } },
  ];
  for (const c of retryCases) {
    test(c.name, async () => {
      let calls = 0;
      let waits = 0;
      const fn = async () => {
        calls++;
        if (calls <= c.failures) throw new Error(`fail ${calls}`);
        return 'ok';
      };
      const result = await withExponentialBackoff(fn, {
        backoff: { ...DEFAULT_RETRY_BACKOFF, steps: c.steps ?? DEFAULT_RETRY_BACKOFF.steps },
        shouldRetry: () => c.retryable,
        sleep: async () => void waits++,
        random: () => 0,
      }).catch((err: Error) => err.message);
      expect({ calls, waits, result }).toEqual(c.want);
    });
  }
});
