// Reading bootstrap token Secrets (controllers/bootstrap-tokens.ts): the detached
// JWS against cluster-bootstrap's own test vectors (token/jws/jws_test.go), Go's
// time.RFC3339 parsing, and which Secrets may sign — hostile ones included.
import { compactVerify } from 'jose';
import { describe, expect, test } from 'vitest';
import { detachedSignature, signingToken, tokenExpiration } from '../../src/controllers/bootstrap-tokens.js';
import { parseRfc3339 } from '../../src/schema/go-time.js';
import type { KubeObject } from '../../src/schema/object.js';

const NOW = new Date('2026-06-01T00:00:00Z');

describe('detachedSignature matches cluster-bootstrap byte for byte', () => {
  const content = 'Hello from the other side. I must have called a thousand times.';
  const cases: { name: string; content: string; secret: string; want: string }[] = [
    { name: 'content and secret', content, secret: 'my voice is my passcode', want: 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8' },
    { name: 'empty content', content: '', secret: 'my voice is my passcode', want: 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk' },
    { name: 'empty secret (a key of 32 zero bytes)', content, secret: '', want: 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect(await detachedSignature(c.content, 'joshua', c.secret)).toBe(c.want);
    });
  }

  test('verifies as an ordinary JWS once the payload is put back', async () => {
    const sig = await detachedSignature('apiVersion: v1\n', 'abcdef', '0123456789abcdef');
    const [header, , signature] = sig.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', kid: 'abcdef' });
    const key = new Uint8Array(32);
    key.set(Buffer.from('0123456789abcdef'));
    const { payload } = await compactVerify(`${header}.${Buffer.from('apiVersion: v1\n').toString('base64url')}.${signature}`, key);
    expect(Buffer.from(payload).toString()).toBe('apiVersion: v1\n');
  });
});

describe('parseRfc3339 accepts what time.Parse(time.RFC3339) accepts', () => {
  const cases: { name: string; input: string; want: string | undefined }[] = [
    { name: 'UTC', input: '2026-01-02T03:04:05Z', want: '2026-01-02T03:04:05.000Z' },
    { name: 'offset', input: '2026-01-02T03:04:05+02:00', want: '2026-01-02T01:04:05.000Z' },
    { name: 'negative offset', input: '2026-01-02T03:04:05-01:30', want: '2026-01-02T04:34:05.000Z' },
    { name: 'fractional seconds', input: '2026-01-02T03:04:05.123456789Z', want: '2026-01-02T03:04:05.123Z' },
    { name: 'leap day', input: '2024-02-29T00:00:00Z', want: '2024-02-29T00:00:00.000Z' },
    { name: 'date only', input: '2026-01-02', want: undefined },
    { name: 'no zone', input: '2026-01-02T03:04:05', want: undefined },
    { name: 'space for T', input: '2026-01-02 03:04:05Z', want: undefined },
    { name: 'February 30', input: '2026-02-30T00:00:00Z', want: undefined },
    { name: 'hour 24', input: '2026-01-02T24:00:00Z', want: undefined },
    { name: 'second 60', input: '2026-01-02T03:04:60Z', want: undefined },
    { name: 'month 13', input: '2026-13-01T00:00:00Z', want: undefined },
    { name: 'JavaScript date text', input: 'Tue Jan 02 2026', want: undefined },
    { name: 'empty', input: '', want: undefined },
    { name: 'huge', input: `2026-01-02T03:04:05.${'1'.repeat(100_000)}x`, want: undefined },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const ms = parseRfc3339(c.input);
      expect(ms === undefined ? undefined : new Date(ms).toISOString()).toBe(c.want);
    });
  }
});

const b64 = (s: string) => Buffer.from(s).toString('base64');

function tokenSecret(opts: { name?: string; type?: string; data?: Record<string, string>; raw?: unknown; deleting?: boolean } = {}): KubeObject {
  const data = opts.raw ?? Object.fromEntries(Object.entries({ 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-signing': 'true', ...opts.data }).map(([k, v]) => [k, b64(v)]));
  return {
    metadata: { name: opts.name ?? 'bootstrap-token-abcdef', namespace: 'kube-system', ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['x'] } : {}) },
    type: opts.type ?? 'bootstrap.kubernetes.io/token',
    data,
  };
}

describe('signingToken: which Secrets may sign', () => {
  const cases: { name: string; secret: KubeObject; want: string | undefined }[] = [
    { name: 'valid, no expiration', secret: tokenSecret(), want: 'abcdef' },
    { name: 'valid until later', secret: tokenSecret({ data: { expiration: '2026-06-02T00:00:00Z' } }), want: 'abcdef' },
    { name: 'expired', secret: tokenSecret({ data: { expiration: '2026-05-31T00:00:00Z' } }), want: undefined },
    { name: 'expiring this instant', secret: tokenSecret({ data: { expiration: '2026-06-01T00:00:00Z' } }), want: undefined },
    { name: 'malformed expiration counts as expired', secret: tokenSecret({ data: { expiration: 'tomorrow' } }), want: undefined },
    { name: 'signing usage absent', secret: tokenSecret({ data: { 'usage-bootstrap-signing': '' } }), want: undefined },
    { name: 'signing usage "True"', secret: tokenSecret({ data: { 'usage-bootstrap-signing': 'True' } }), want: undefined },
    { name: 'wrong type', secret: tokenSecret({ type: 'Opaque' }), want: undefined },
    { name: 'name without the prefix', secret: tokenSecret({ name: 'abcdef' }), want: undefined },
    { name: 'token-id differs from the name', secret: tokenSecret({ data: { 'token-id': 'abcdeg' } }), want: undefined },
    { name: 'token-id with bad characters', secret: tokenSecret({ name: 'bootstrap-token-abc.ef', data: { 'token-id': 'abc.ef' } }), want: undefined },
    { name: 'token-secret with capitals', secret: tokenSecret({ data: { 'token-secret': '0123456789ABCDEF' } }), want: undefined },
    { name: 'token-secret too short', secret: tokenSecret({ data: { 'token-secret': '0123' } }), want: undefined },
    { name: 'token-secret huge', secret: tokenSecret({ data: { 'token-secret': 'a'.repeat(500_000) } }), want: undefined },
    { name: 'being deleted', secret: tokenSecret({ deleting: true }), want: undefined },
    { name: 'data not an object', secret: tokenSecret({ raw: 'abc' }), want: undefined },
    { name: 'data an array', secret: tokenSecret({ raw: ['token-id'] }), want: undefined },
    { name: 'values not strings', secret: tokenSecret({ raw: { 'token-id': 1, 'token-secret': {}, 'usage-bootstrap-signing': true } }), want: undefined },
    {
      name: 'token fields only on the prototype are not read',
      secret: tokenSecret({ raw: JSON.parse(`{"__proto__": {"token-id": "${b64('abcdef')}", "token-secret": "${b64('0123456789abcdef')}", "usage-bootstrap-signing": "${b64('true')}"}}`) }),
      want: undefined,
    },
    {
      name: 'own __proto__ and constructor keys beside valid data',
      secret: tokenSecret({ raw: JSON.parse(`{"__proto__": "eA==", "constructor": "eQ==", "token-id": "${b64('abcdef')}", "token-secret": "${b64('0123456789abcdef')}", "usage-bootstrap-signing": "${b64('true')}"}`) }),
      want: 'abcdef',
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(signingToken(c.secret, NOW)?.id).toBe(c.want);
    });
  }
});

test('tokenExpiration: none, later, passed, unparseable', () => {
  expect(tokenExpiration(tokenSecret(), NOW)).toEqual({ expired: false, at: undefined });
  expect(tokenExpiration(tokenSecret({ data: { expiration: '2026-06-01T01:00:00Z' } }), NOW)).toEqual({ expired: false, at: new Date('2026-06-01T01:00:00Z') });
  expect(tokenExpiration(tokenSecret({ data: { expiration: '2026-05-01T01:00:00Z' } }), NOW)).toEqual({ expired: true });
  expect(tokenExpiration(tokenSecret({ data: { expiration: '2026-13-01T01:00:00Z' } }), NOW)).toEqual({ expired: true });
});
