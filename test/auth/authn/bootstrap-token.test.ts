// Bootstrap tokens (auth/authn/bootstrap-token.ts): which Secrets let a token in.
import { describe, expect, test } from 'vitest';
import { createBootstrapTokenAuthenticator } from '../../../src/auth/authn/bootstrap-token.js';
import type { KubeObject } from '../../../src/schema/object.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const b64 = (s: string) => Buffer.from(s).toString('base64');

function secret(data: Record<string, string>, opts: { type?: string; deleting?: boolean } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system', ...(opts.deleting === true ? { deletionTimestamp: '2026-05-31T00:00:00Z' } : {}) },
    type: opts.type ?? 'bootstrap.kubernetes.io/token',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

const good = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };
const TOKEN = 'abcdef.0123456789abcdef';

function authenticator(stored: KubeObject | undefined) {
  const asked: string[] = [];
  const authenticate = createBootstrapTokenAuthenticator({ lookup: async (name) => (asked.push(name), stored), clock: () => NOW });
  return { asked, run: (token: string) => authenticate({ headers: { authorization: `Bearer ${token}` } }) };
}

describe('accepted', () => {
  test('a matching token is system:bootstrap:<id> in system:bootstrappers plus its extra groups', async () => {
    const a = authenticator(secret({ ...good, 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token,system:bootstrappers:x', expiration: '2026-06-02T00:00:00Z' }));
    expect(await a.run(TOKEN)).toEqual({
      user: { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:bootstrappers:x'] },
    });
    expect(a.asked).toEqual(['bootstrap-token-abcdef']);
  });

  test('the groups are sorted and without repeats, as kube lists them', async () => {
    const a = authenticator(secret({ ...good, 'auth-extra-groups': 'system:bootstrappers:z,system:bootstrappers:a,system:bootstrappers:z' }));
    expect((await a.run(TOKEN))?.user.groups).toEqual(['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:z']);
  });
});

describe('not accepted', () => {
  const cases: { name: string; stored: KubeObject | undefined; token?: string }[] = [
    { name: 'no such Secret', stored: undefined },
    { name: 'another Secret type', stored: secret(good, { type: 'Opaque' }) },
    { name: 'a wrong secret part', stored: secret(good), token: 'abcdef.0123456789abcdex' },
    { name: 'a token-id that differs from the name', stored: secret({ ...good, 'token-id': 'zzzzzz' }) },
    { name: 'authentication not allowed', stored: secret({ ...good, 'usage-bootstrap-authentication': 'false' }) },
    { name: 'expired', stored: secret({ ...good, expiration: '2026-05-31T23:59:59Z' }) },
    { name: 'an unreadable expiration', stored: secret({ ...good, expiration: 'tomorrow' }) },
    { name: 'an extra group outside system:bootstrappers:', stored: secret({ ...good, 'auth-extra-groups': 'system:masters' }) },
    // kube validates each entry as written: a space after the comma is part of the name.
    { name: 'an extra group with a space after the comma', stored: secret({ ...good, 'auth-extra-groups': 'system:bootstrappers:a, system:bootstrappers:b' }) },
    { name: 'an empty extra group between commas', stored: secret({ ...good, 'auth-extra-groups': 'system:bootstrappers:a,,system:bootstrappers:b' }) },
    { name: 'being deleted', stored: secret(good, { deleting: true }) },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect(await authenticator(c.stored).run(c.token ?? TOKEN)).toBeUndefined();
    });
  }

  test('tokens of another shape are not looked up', async () => {
    const a = authenticator(secret(good));
    for (const token of ['abcdef.0123456789ABCDEF', 'abcde.0123456789abcdef', 'abcdef0123456789abcdef', 'eyJhbGciOi.x.y', '__proto__.0123456789abcdef']) {
      expect(await a.run(token)).toBeUndefined();
    }
    expect(a.asked).toEqual([]);
  });
});
