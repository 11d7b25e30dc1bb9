// Service-account tokens: what kapi signs verifies; anything else it says why,
// or, for another issuer's token, leaves it to other authenticators.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createTokenKeys, ensureSigningKeyPem, TokenError, tokenAudiences } from '../../../src/auth/serviceaccount/tokens.js';
import { createServiceAccountAuthenticator } from '../../../src/auth/authn/service-account.js';
import { AuthenticationError } from '../../../src/auth/authn/authenticator.js';
import type { KubeObject } from '../../../src/schema/object.js';

const ecKey = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const rsaKey = () => generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const ISSUER = 'https://kapi.test';
const now = new Date('2026-11-22T10:00:00Z');
const claims = { namespace: 'team', serviceaccount: { name: 'bot', uid: 'sa-uid' } };

describe('tokens', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-sa-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the generated signing key is kept in the cert dir, private, and reused', () => {
    const first = ensureSigningKeyPem({ certDir: dir });
    expect(statSync(join(dir, 'sa.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'sa.pub'), 'utf8')).toContain('BEGIN PUBLIC KEY');
    expect(ensureSigningKeyPem({ certDir: dir })).toBe(first);
  });

  test('a token carries kube claims and verifies', async () => {
    const keys = createTokenKeys({ issuer: ISSUER, signingKeyPem: ecKey().privateKey });
    const token = await keys.issue({ claims, audiences: [ISSUER], now, expirationSeconds: 3600, jti: 'j1' });
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256' });
    expect(decodeJwt(token)).toEqual({
      iss: ISSUER,
      sub: 'system:serviceaccount:team:bot',
      aud: [ISSUER],
      iat: now.getTime() / 1000,
      nbf: now.getTime() / 1000,
      exp: now.getTime() / 1000 + 3600,
      jti: 'j1',
      'kubernetes.io': claims,
    });
    const verified = await keys.verify(token, new Date(now.getTime() + 1000));
    expect(verified).toEqual({ claims, jti: 'j1', expiresAt: new Date(now.getTime() + 3600_000), audiences: [ISSUER] });
    const { keys: jwks } = await keys.jwks();
    expect(jwks).toHaveLength(1);
    expect(jwks[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: decodeProtectedHeader(token).kid });
  });

  test('expired, wrong audience and tampered tokens are refused with a reason', async () => {
    const keys = createTokenKeys({ issuer: ISSUER, signingKeyPem: ecKey().privateKey });
    const token = await keys.issue({ claims, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'j' });
    // go-jose's one-minute leeway, as kube's validator allows.
    expect(await keys.verify(token, new Date(now.getTime() + 659_000))).toBeDefined();
    await expect(keys.verify(token, new Date(now.getTime() + 661_000))).rejects.toThrow(new TokenError('service account token has expired'));
    await expect(keys.verify(token, new Date(now.getTime() - 61_000))).rejects.toThrow(new TokenError('service account token is not valid yet'));
    // The audience is judged per request (tokenAudiences), after the cached signature check.
    const other = await keys.issue({ claims, audiences: ['vault', 'extra'], now, expirationSeconds: 600, jti: 'j' });
    expect((await keys.verify(other, now))?.audiences).toEqual(['vault', 'extra']);
    expect(() => tokenAudiences(['vault', 'extra'], [ISSUER], [ISSUER])).toThrow(
      new TokenError(`token audiences ["vault" "extra"] is invalid for the target audiences ["${ISSUER}"]`),
    );
    expect(tokenAudiences(['extra', 'vault'], ['vault', 'x'], [ISSUER])).toEqual(['vault']);
    // A token naming no audience (legacy) counts as naming the API audiences.
    expect(tokenAudiences([], [ISSUER], [ISSUER])).toEqual([ISSUER]);
    expect(() => tokenAudiences([], ['vault'], [ISSUER])).toThrow(TokenError);
    const [h, p, sig] = token.split('.');
    await expect(keys.verify(`${h}.${p}.${sig!.slice(0, -4)}AAAA`, now)).rejects.toThrow(new TokenError('invalid bearer token'));
    // Another server's key, same issuer name: not ours to accept.
    const stranger = createTokenKeys({ issuer: ISSUER, signingKeyPem: ecKey().privateKey });
    await expect(keys.verify(await stranger.issue({ claims, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'j' }), now)).rejects.toThrow(TokenError);
  });

  test('another issuer or no JWT at all is no answer', async () => {
    const keys = createTokenKeys({ issuer: ISSUER, signingKeyPem: ecKey().privateKey });
    const foreign = createTokenKeys({ issuer: 'https://elsewhere', signingKeyPem: ecKey().privateKey });
    expect(await keys.verify(await foreign.issue({ claims, audiences: ['x'], now, expirationSeconds: 600, jti: 'j' }), now)).toBeUndefined();
    expect(await keys.verify('not-a-jwt', now)).toBeUndefined();
  });

  test('RSA keys sign RS256; an old key in --service-account-key-file still verifies', async () => {
    const old = rsaKey();
    const before = createTokenKeys({ issuer: ISSUER, signingKeyPem: old.privateKey });
    const token = await before.issue({ claims, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'j' });
    expect(decodeProtectedHeader(token).alg).toBe('RS256');
    const rotated = createTokenKeys({ issuer: ISSUER, signingKeyPem: ecKey().privateKey, extraVerificationPem: old.publicKey });
    expect((await rotated.verify(token, now))?.claims).toEqual(claims);
    expect((await rotated.jwks()).keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
  });
});

describe('service-account authenticator', () => {
  const keys = createTokenKeys({ issuer: ISSUER, signingKeyPem: ecKey().privateKey });
  const objects = new Map<string, KubeObject>([
    ['serviceaccounts/team/bot', { metadata: { name: 'bot', uid: 'sa-uid' } }],
    ['pods/team/web', { metadata: { name: 'web', uid: 'pod-uid' } }],
  ]);
  const authn = createServiceAccountAuthenticator({ keys, lookup: async (kind, ns, name) => objects.get(`${kind}/${ns}/${name}`), clock: () => now });
  const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });

  test('a valid token is the service account user', async () => {
    const token = await keys.issue({ claims, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'j9' });
    expect(await authn(bearer(token))).toEqual({
      user: {
        username: 'system:serviceaccount:team:bot',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team'],
        extra: { 'authentication.kubernetes.io/credential-id': ['JTI=j9'] },
      },
      audiences: [ISSUER],
    });
    expect(await authn({ headers: {} })).toBeUndefined();
  });

  test('audiences: a request asking for some is answered with those the token names; none in common is refused', async () => {
    const vault = await keys.issue({ claims, audiences: ['vault', 'other'], now, expirationSeconds: 600, jti: 'jv' });
    // The filter chain asks for the API audiences.
    await expect(authn(bearer(vault))).rejects.toThrow(new AuthenticationError(`token audiences ["vault" "other"] is invalid for the target audiences ["${ISSUER}"]`));
    // A TokenReview asking for vault's audience gets it (the signature check is cached; the audience is not).
    expect((await authn({ ...bearer(vault), audiences: ['x', 'vault'] }))?.audiences).toEqual(['vault']);
    await expect(authn(bearer(vault))).rejects.toThrow(AuthenticationError);
    const api = await keys.issue({ claims, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'ja' });
    expect((await authn(bearer(api)))?.audiences).toEqual([ISSUER]);
    await expect(authn({ ...bearer(api), audiences: ['vault'] })).rejects.toThrow(/is invalid for the target audiences \["vault"\]/);
  });

  // go-jose's jwt.Audience, which kube reads `aud` with: "" is the list [""] (no API
  // audience), absent and [] name none (the API audiences are implied), null or a
  // non-string member fail the claims.
  const audienceShapes: { name: string; aud: unknown; want: 'authenticated' | RegExp }[] = [
    { name: 'absent', aud: undefined, want: 'authenticated' },
    { name: 'empty list', aud: [], want: 'authenticated' },
    { name: 'the issuer as a string', aud: ISSUER, want: 'authenticated' },
    { name: 'empty string', aud: '', want: /^token audiences \[""\] is invalid for the target audiences \["https:\/\/kapi.test"\]$/ },
    { name: 'a list holding the empty string', aud: [''], want: /^token audiences \[""\] is invalid/ },
    { name: 'null', aud: null, want: /^go-jose\/go-jose\/jwt: expected string or array value to unmarshal to Audience$/ },
    { name: 'a number in the list', aud: [ISSUER, 1], want: /^go-jose\/go-jose\/jwt: expected string or array value/ },
    { name: 'an object with a prototype-named member', aud: JSON.parse('{"__proto__":"https://kapi.test"}') as unknown, want: /^go-jose\/go-jose\/jwt: expected string or array value/ },
  ];
  for (const c of audienceShapes) {
    test(`aud ${c.name}: ${c.want === 'authenticated' ? 'authenticates' : 'is refused'}`, async () => {
      const { SignJWT } = await import('jose');
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const own = createTokenKeys({ issuer: ISSUER, signingKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
      const kid = decodeProtectedHeader(await own.issue({ claims, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'k' })).kid!;
      const t = now.getTime() / 1000;
      const payload: Record<string, unknown> = { iss: ISSUER, sub: 'system:serviceaccount:team:bot', 'kubernetes.io': claims, iat: t, exp: t + 600 };
      if (c.aud !== undefined) payload.aud = c.aud;
      const token = await new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey);
      const ownAuthn = createServiceAccountAuthenticator({ keys: own, lookup: async (kind, ns, name) => objects.get(`${kind}/${ns}/${name}`), clock: () => now });
      if (c.want === 'authenticated') {
        expect((await ownAuthn(bearer(token)))?.user.username).toBe('system:serviceaccount:team:bot');
        return;
      }
      const err = await ownAuthn(bearer(token)).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(AuthenticationError);
      expect((err as Error).message).toMatch(c.want);
    });
  }

  test('a token without exp, or issued more than a minute ahead, is refused', async () => {
    const { SignJWT } = await import('jose');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const own = createTokenKeys({ issuer: ISSUER, signingKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    const kid = decodeProtectedHeader(await own.issue({ claims, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'k' })).kid!;
    const sign = (payload: Record<string, unknown>) =>
      new SignJWT({ iss: ISSUER, sub: 'system:serviceaccount:team:bot', aud: [ISSUER], 'kubernetes.io': claims, ...payload }).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey);
    const t = now.getTime() / 1000;
    await expect(own.verify(await sign({ iat: t }), now)).rejects.toThrow(new TokenError('service account token has expired'));
    await expect(own.verify(await sign({ iat: t + 120, exp: t + 600 }), now)).rejects.toThrow(new TokenError('service account token is issued in the future'));
    expect(await own.verify(await sign({ iat: t + 30, exp: t + 600 }), now)).toBeDefined();
  });

  test('a deleted or recreated account, or a bound pod that went, refuses the token', async () => {
    const recreated = await keys.issue({ claims: { ...claims, serviceaccount: { name: 'bot', uid: 'older' } }, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'j' });
    await expect(authn(bearer(recreated))).rejects.toThrow(AuthenticationError);
    const gone = await keys.issue({ claims: { ...claims, serviceaccount: { name: 'ghost', uid: 'x' } }, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'j' });
    await expect(authn(bearer(gone))).rejects.toThrow('serviceaccounts "ghost" not found');
    const bound = await keys.issue({ claims: { ...claims, pod: { name: 'web', uid: 'pod-uid' } }, audiences: [ISSUER], now, expirationSeconds: 600, jti: 'j' });
    expect((await authn(bearer(bound)))?.user.extra).toMatchObject({ 'authentication.kubernetes.io/pod-name': ['web'], 'authentication.kubernetes.io/pod-uid': ['pod-uid'] });
    objects.delete('pods/team/web');
    await expect(authn(bearer(bound))).rejects.toThrow('service account token has been invalidated');
  });
});
