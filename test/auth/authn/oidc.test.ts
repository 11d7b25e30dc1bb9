// OpenID Connect ID tokens (auth/authn/oidc.ts) against a real issuer on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createOidcAuthenticator, type OidcOptions } from '../../../src/auth/authn/oidc.js';
import { isAuthenticationError, type Authenticator } from '../../../src/auth/authn/authenticator.js';
import { startTestIssuer, type TestIssuer } from '../../support/oidc-issuer.js';

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await startTestIssuer();
  await issuer.addKey('RS256');
});
afterAll(async () => issuer.close());

const now = () => Math.floor(Date.now() / 1000);

function authenticator(over: Partial<OidcOptions> = {}): Authenticator {
  return createOidcAuthenticator({
    issuerUrl: issuer.url,
    clientId: 'kapi',
    usernameClaim: 'email',
    usernamePrefix: undefined,
    groupsClaim: 'groups',
    groupsPrefix: 'oidc:',
    caPem: issuer.caPem,
    requiredClaims: new Map(),
    signingAlgs: ['RS256'],
    refreshIntervalMs: 0,
    ...over,
  });
}

function claims(over: Record<string, unknown> = {}) {
  return { iss: issuer.url, aud: 'kapi', sub: 'u-1', email: 'alice@example.com', email_verified: true, groups: ['dev', 'ops'], iat: now(), exp: now() + 600, ...over };
}

async function run(a: Authenticator, token: string) {
  return a({ headers: { authorization: `Bearer ${token}` } });
}

async function refused(a: Authenticator, token: string): Promise<string> {
  try {
    await run(a, token);
  } catch (err) {
    if (isAuthenticationError(err)) return err.message;
    throw err;
  }
  throw new Error('expected the token to be refused');
}

describe('accepted', () => {
  test('a token of the issuer for the client: the email claim unprefixed, groups prefixed', async () => {
    expect(await run(authenticator(), await issuer.sign(claims()))).toEqual({ user: { username: 'alice@example.com', groups: ['oidc:dev', 'oidc:ops'] } });
  });

  test('a claim other than email is prefixed with the issuer URL and #, unless a prefix or - is given', async () => {
    const token = await issuer.sign(claims());
    expect((await run(authenticator({ usernameClaim: 'sub' }), token))?.user.username).toBe(`${issuer.url}#u-1`);
    expect((await run(authenticator({ usernameClaim: 'sub', usernamePrefix: 'oidc:' }), token))?.user.username).toBe('oidc:u-1');
    expect((await run(authenticator({ usernameClaim: 'sub', usernamePrefix: '-' }), token))?.user.username).toBe('u-1');
  });

  test('a single group as a string; required claims present', async () => {
    const a = authenticator({ requiredClaims: new Map([['hd', 'example.com']]) });
    expect((await run(a, await issuer.sign(claims({ groups: 'dev', hd: 'example.com' }))))?.user.groups).toEqual(['oidc:dev']);
  });

  test('a key the issuer starts serving later is fetched when a token names it', async () => {
    const a = authenticator({ signingAlgs: ['RS256', 'ES256'] });
    expect((await run(a, await issuer.sign(claims())))?.user.username).toBe('alice@example.com');
    const before = issuer.jwksFetches();
    const kid = await issuer.addKey('ES256');
    expect((await run(a, await issuer.sign(claims(), { kid })))?.user.username).toBe('alice@example.com');
    expect(issuer.jwksFetches()).toBe(before + 1);
  });
});

function baseOptions(): OidcOptions {
  return { issuerUrl: issuer.url, clientId: 'kapi', usernameClaim: 'email', usernamePrefix: undefined, groupsClaim: 'groups', groupsPrefix: 'oidc:', caPem: issuer.caPem, requiredClaims: new Map(), signingAlgs: ['RS256'], refreshIntervalMs: 0 };
}

describe('refused (401, never another identity)', () => {
  const cases: { name: string; make: () => Promise<string>; options?: Partial<OidcOptions>; want: RegExp }[] = [
    { name: 'another audience', make: () => issuer.sign(claims({ aud: 'someone-else' })), want: /aud/ },
    { name: 'expired', make: () => issuer.sign(claims({ exp: now() - 3600, iat: now() - 7200 })), want: /exp/ },
    { name: 'not yet valid', make: () => issuer.sign(claims({ nbf: now() + 3600 })), want: /nbf/ },
    { name: 'issued in the future', make: () => issuer.sign(claims({ iat: now() + 3600 })), want: /future|iat/ },
    { name: 'signed with a key the issuer does not serve', make: () => issuer.sign(claims(), { unpublished: true }), want: /oidc/ },
    { name: 'a signing algorithm that is not allowed', make: async () => issuer.sign(claims(), { kid: await issuer.addKey('ES256') }), want: /oidc/ },
    { name: 'an email that is not verified', make: () => issuer.sign(claims({ email_verified: false })), want: /email not verified/ },
    { name: 'no username claim', make: () => issuer.sign(claims({ email: undefined })), want: /claim not present/ },
    { name: 'groups that are not strings', make: () => issuer.sign(claims({ groups: [1, 2] })), want: /groups claim/ },
    { name: 'a required claim missing', make: () => issuer.sign(claims()), options: { requiredClaims: new Map([['hd', 'example.com']]) }, want: /required claim hd/ },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect(await refused(authenticator(c.options), await c.make())).toMatch(c.want);
    });
  }

  test('an unreachable issuer: not initialized', async () => {
    const a = createOidcAuthenticator({ ...baseOptions(), issuerUrl: 'https://127.0.0.1:1' });
    const { SignJWT } = await import('jose');
    const token = await new SignJWT({ iss: 'https://127.0.0.1:1', aud: 'kapi' }).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
    expect(await refused(a, token)).toMatch(/not initialized/);
  });
});

describe('left to other authenticators', () => {
  test('another issuer, a token that is not a JWT, no header', async () => {
    const a = authenticator();
    expect(await run(a, await issuer.sign(claims({ iss: 'https://elsewhere.example' })))).toBeUndefined();
    expect(await run(a, 'abcdef.0123456789abcdef')).toBeUndefined();
    expect(await a({ headers: {} })).toBeUndefined();
  });
});
