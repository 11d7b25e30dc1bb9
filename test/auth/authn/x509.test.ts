import type { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { AuthenticationError, CREDENTIAL_ID_KEY } from '../../../src/auth/authn/authenticator.js';
import { createAuthenticator } from '../../../src/auth/authn/create.js';
import { createX509Authenticator } from '../../../src/auth/authn/x509.js';
import { issueCertificate } from '../../../src/auth/pki/issue.js';
import { cert, makeFixtures, NOW, type Fixtures } from './fixtures.js';

const DAY = 24 * 60 * 60 * 1000;
let f: Fixtures;
beforeAll(async () => {
  f = await makeFixtures();
});

describe('x509 authenticator (with the authenticated-group adder)', () => {
  const cases: Array<{
    name: string;
    chain: (f: Fixtures) => X509Certificate[];
    now?: Date;
    want: { username: string; groups: string[] } | 'none' | RegExp;
  }> = [
    { name: 'admin certificate', chain: (f) => [cert(f.admin)], want: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } },
    { name: 'each O is a group, verbatim', chain: (f) => [cert(f.multiGroup)], want: { username: 'jane', groups: ['dev', 'ops, "quoted"+plus', 'a\nCN=evil', 'system:authenticated'] } },
    { name: 'no O', chain: (f) => [cert(f.noGroups)], want: { username: 'bob', groups: ['system:authenticated'] } },
    { name: 'through a presented intermediate', chain: (f) => [cert(f.viaIntermediate), cert(f.intermediate)], want: { username: 'carol', groups: ['team', 'system:authenticated'] } },
    { name: 'no certificate', chain: () => [], want: 'none' },
    { name: 'no CN is not a user', chain: (f) => [cert(f.emptyCn)], want: 'none' },
    { name: 'another CA with the same name', chain: (f) => [cert(f.fromOtherCa)], want: /signed by unknown authority/ },
    { name: 'intermediate missing', chain: (f) => [cert(f.viaIntermediate)], want: /signed by unknown authority/ },
    { name: 'expired', chain: (f) => [cert(f.admin)], now: new Date(NOW.getTime() + 366 * DAY), want: /expired or is not yet valid: current time .* is after/ },
    { name: 'not yet valid', chain: (f) => [cert(f.admin)], now: new Date(NOW.getTime() - DAY), want: /expired or is not yet valid: current time .* is before/ },
    { name: 'intermediate expired', chain: (f) => [cert(f.viaIntermediate), cert(f.intermediate)], now: new Date(NOW.getTime() + 60 * DAY), want: /signed by unknown authority/ },
    { name: 'serving certificate used as a client', chain: (f) => [cert(f.serverOnly)], want: /incompatible key usage/ },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const authenticate = createAuthenticator({ clientCaPem: f.ca.certPem, clock: () => c.now ?? NOW });
      const run = authenticate({ headers: {}, peerCertificateChain: c.chain(f) });
      if (c.want instanceof RegExp) {
        await expect(run).rejects.toThrow(AuthenticationError);
        await expect(run).rejects.toThrow(c.want);
      } else if (c.want === 'none') {
        expect(await run).toBeUndefined();
      } else {
        const result = await run;
        expect({ username: result?.user.username, groups: result?.user.groups }).toEqual(c.want);
      }
    });
  }

  test('a leaf presented as intermediate does not extend the chain', async () => {
    const authenticate = createX509Authenticator({ roots: [cert(f.ca)], clock: () => NOW });
    // The intermediate issued carol; presenting some other leaf in its place must fail.
    await expect(authenticate({ headers: {}, peerCertificateChain: [cert(f.viaIntermediate), cert(f.admin)] })).rejects.toThrow(
      /unknown authority/,
    );
  });

  test('the credential id is the SHA-256 of the certificate', async () => {
    const leaf = cert(f.admin);
    const result = await createX509Authenticator({ roots: [cert(f.ca)], clock: () => NOW })({ headers: {}, peerCertificateChain: [leaf] });
    expect(result?.user.extra?.[CREDENTIAL_ID_KEY]).toEqual([`X509SHA256=${leaf.fingerprint256.replaceAll(':', '').toLowerCase()}`]);
  });

  test('a uid subject attribute (1.3.6.1.4.1.57683.2) is the uid; two, or an empty one, refuse the certificate as kube does', async () => {
    const authenticate = createX509Authenticator({ roots: [cert(f.ca)], clock: () => NOW });
    const issue = (uids: string[]) => issueCertificate({ ca: f.ca, commonName: 'jane', organizations: ['dev'], uids, usage: 'client', validityDays: 365, clock: () => NOW });
    const one = await authenticate({ headers: {}, peerCertificateChain: [cert(await issue(['u-jane']))] });
    expect({ ...one?.user, extra: undefined }).toEqual({ username: 'jane', uid: 'u-jane', groups: ['dev'], extra: undefined });
    expect(Object.hasOwn((await authenticate({ headers: {}, peerCertificateChain: [cert(await issue([]))] }))!.user, 'uid')).toBe(false);
    await expect(authenticate({ headers: {}, peerCertificateChain: [cert(await issue(['a', 'b']))] })).rejects.toThrow(new AuthenticationError('expected 1 UID, but found multiple: [a b]'));
    await expect(authenticate({ headers: {}, peerCertificateChain: [cert(await issue(['']))] })).rejects.toThrow(new AuthenticationError('UID cannot be an empty string'));
  });

  test('a bundle of several roots trusts each', async () => {
    const authenticate = createAuthenticator({ clientCaPem: f.otherCa.certPem + f.ca.certPem, clock: () => NOW });
    for (const pair of [f.admin, f.fromOtherCa]) {
      expect((await authenticate({ headers: {}, peerCertificateChain: [cert(pair)] }))?.user.username).toBe('kubernetes-admin');
    }
  });

  test('a cached verification still honours the clock', async () => {
    let now = NOW;
    const authenticate = createX509Authenticator({ roots: [cert(f.ca)], clock: () => now });
    const leaf = cert(f.admin);
    expect((await authenticate({ headers: {}, peerCertificateChain: [leaf] }))?.user.username).toBe('kubernetes-admin');
    now = new Date(NOW.getTime() + 400 * DAY);
    await expect(authenticate({ headers: {}, peerCertificateChain: [leaf] })).rejects.toThrow(/expired/);
  });
});
