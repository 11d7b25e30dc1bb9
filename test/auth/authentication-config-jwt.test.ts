// JWT authenticators from an AuthenticationConfiguration (auth/authn/jwt.ts,
// jwt-cel.ts) against two real issuers on 127.0.0.1: claim and CEL mappings of
// username, groups, uid and extra, claim and user validation rules, run-time
// errors (refused, never another identity), several issuers at once, and the
// bad tokens every JWT authenticator must refuse.
import { SignJWT, base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkAuthenticationConfig, createAuthenticationConfigAuthenticator, type LoadedAuthenticationConfig } from '../../src/auth/authn/authentication-config-file.js';
import { createAuthenticator } from '../../src/auth/authn/create.js';
import { isAuthenticationError, type Authenticator } from '../../src/auth/authn/authenticator.js';
import { ALT_DISCOVERY_PATH, startTestIssuer, type TestIssuer } from '../support/oidc-issuer.js';
import { createCertificateAuthority } from '../../src/auth/pki/issue.js';

let a: TestIssuer;
let b: TestIssuer;
let clientCaPem: string;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestIssuer(), startTestIssuer()]);
  await Promise.all([a.addKey('RS256'), b.addKey('ES256')]);
  clientCaPem = (await createCertificateAuthority({ commonName: 'client-ca', validityDays: 1, clock: () => new Date() })).certPem;
});
afterAll(async () => Promise.all([a.close(), b.close()]));

const now = () => Math.floor(Date.now() / 1000);

function load(jwt: Record<string, unknown>[]): LoadedAuthenticationConfig {
  return checkAuthenticationConfig(Buffer.from(JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthenticationConfiguration', jwt })), { disallowedIssuers: [] });
}

function issuerOf(i: TestIssuer, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { url: i.url, certificateAuthority: i.caPem, audiences: ['kapi'], ...over };
}

/** The whole request authenticator, as the server builds it (union, authenticated group). */
function server(jwt: Record<string, unknown>[]): Authenticator {
  return createAuthenticator({ clientCaPem, oidc: createAuthenticationConfigAuthenticator(load(jwt), { refreshIntervalMs: 0 }).authenticate });
}

function claims(i: TestIssuer, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { iss: i.url, aud: 'kapi', sub: 'u-1', email: 'alice@example.com', email_verified: true, groups: ['dev', 'ops'], iat: now(), exp: now() + 600, ...over };
}

async function run(auth: Authenticator, token: string) {
  return auth({ headers: { authorization: `Bearer ${token}` } });
}

async function refused(auth: Authenticator, token: string): Promise<string> {
  try {
    const got = await run(auth, token);
    return `accepted as ${JSON.stringify(got?.user)}`;
  } catch (err) {
    if (isAuthenticationError(err)) return err.message;
    throw err;
  }
}

const MAPPED = [
  {
    issuer: issuerOf({} as TestIssuer),
    claimMappings: {
      username: { expression: "'user:' + claims.email" },
      groups: { expression: "claims.groups.map(g, 'grp:' + g)" },
      uid: { expression: 'claims.sub' },
      extra: [
        { key: 'example.com/tenant', valueExpression: 'claims.?tenant.orValue("")' },
        { key: 'example.com/roles', valueExpression: "['a', '', 'b']" },
      ],
    },
    claimValidationRules: [{ expression: 'claims.email_verified == true', message: 'email must be verified' }],
    userValidationRules: [{ expression: "!user.username.startsWith('system:')", message: 'no system: names' }],
  },
];

function mapped(i: TestIssuer): Record<string, unknown>[] {
  return [{ ...MAPPED[0], issuer: issuerOf(i) }];
}

describe('CEL claim mappings', () => {
  test('username, groups, uid and extra from expressions; empty extra values dropped; jti as the credential id', async () => {
    const got = await run(server(mapped(a)), await a.sign(claims(a, { tenant: 't1', jti: 'abc' })));
    expect(got?.user).toEqual({
      username: 'user:alice@example.com',
      uid: 'u-1',
      groups: ['grp:dev', 'grp:ops', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': ['JTI=abc'], 'example.com/tenant': ['t1'], 'example.com/roles': ['a', 'b'] },
    });
  });

  test('an extra expression answering "" leaves the key out', async () => {
    const got = await run(server(mapped(a)), await a.sign(claims(a)));
    expect(got?.user.extra).toEqual({ 'example.com/roles': ['a', 'b'] });
  });

  test('claims with prefixes, uid claim, a single string group', async () => {
    const auth = server([{ issuer: issuerOf(a), claimMappings: { username: { claim: 'sub', prefix: 'oidc:' }, groups: { claim: 'groups', prefix: '' }, uid: { claim: 'sub' } } }]);
    expect((await run(auth, await a.sign(claims(a, { groups: 'solo' }))))?.user).toEqual({ username: 'oidc:u-1', uid: 'u-1', groups: ['solo', 'system:authenticated'] });
  });

  test('a __proto__ claim is data: readable by key, never a prototype', async () => {
    const auth = server([{ issuer: issuerOf(a), claimMappings: { username: { expression: "claims.sub + ':' + string(claims['__proto__'].x)" } } }]);
    const token = await a.sign(claims(a, { ['__proto__']: { x: 'p' } }));
    expect((await run(auth, token))?.user.username).toBe('u-1:p');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test('claim names CEL cannot spell are reached escaped (__dot__, __dash__, __slash__), at any depth', async () => {
    const auth = server([
      {
        issuer: issuerOf(a),
        claimMappings: {
          username: { expression: "claims.sub + ':' + claims.org__dot__name + ':' + claims.nested.team__dash__id + ':' + claims.roles[0].k8s__slash__role" },
          extra: [{ key: 'example.com/count', valueExpression: 'string(size(claims.nested))' }],
        },
      },
    ]);
    const token = await a.sign(claims(a, { 'org.name': 'acme', nested: { 'team-id': 't7', other: 1 }, roles: [{ 'k8s/role': 'admin' }] }));
    const user = (await run(auth, token))?.user;
    expect(user?.username).toBe('u-1:acme:t7:admin');
    expect(user?.extra).toEqual({ 'example.com/count': ['2'] });
  });

  test('two audiences with MatchAny: either is accepted', async () => {
    const auth = server([{ issuer: issuerOf(a, { audiences: ['x', 'kapi'], audienceMatchPolicy: 'MatchAny' }), claimMappings: { username: { claim: 'sub', prefix: '' } } }]);
    expect((await run(auth, await a.sign(claims(a, { aud: ['other', 'x'] }))))?.user.username).toBe('u-1');
    expect(await refused(auth, await a.sign(claims(a, { aud: 'other' })))).toBe('oidc: verify token: oidc: expected audience in ["kapi" "x"] got ["other"]');
  });

  test('discoveryURL is where the discovery document is fetched', async () => {
    const before = a.altDiscoveryFetches();
    const auth = server([{ issuer: issuerOf(a, { discoveryURL: `${a.url}${ALT_DISCOVERY_PATH}` }), claimMappings: { username: { claim: 'sub', prefix: '' } } }]);
    expect((await run(auth, await a.sign(claims(a))))?.user.username).toBe('u-1');
    expect(a.altDiscoveryFetches()).toBe(before + 1);
  });
});

describe('refused with kube reasons (401, never another identity)', () => {
  const cases: { name: string; jwt?: (i: TestIssuer) => Record<string, unknown>[]; token: (i: TestIssuer) => Promise<string>; want: string | RegExp }[] = [
    { name: 'a failing claim validation rule', token: (i) => i.sign(claims(i, { email_verified: false })), want: "oidc: error evaluating claim validation expression: validation expression 'claims.email_verified == true' failed: email must be verified" },
    {
      name: 'a failing user validation rule',
      token: (i) => i.sign(claims(i, { email: 'x' })),
      jwt: (i) => [{ ...mapped(i)[0], claimMappings: { ...MAPPED[0]!.claimMappings, username: { expression: "'system:' + claims.email" } } }],
      want: "oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('system:')' failed: no system: names",
    },
    { name: 'an expression reading an absent claim', token: (i) => i.sign(claims(i, { email: undefined })), want: "oidc: error evaluating username claim expression: expression ''user:' + claims.email' resulted in error: No such key: email" },
    {
      name: 'a username expression that is not a string',
      jwt: (i) => [{ issuer: issuerOf(i), claimMappings: { username: { expression: 'claims.exp' } } }],
      token: (i) => i.sign(claims(i)),
      want: 'oidc: error evaluating username claim expression: username claim expression must return a string',
    },
    {
      name: 'an empty username from an expression',
      jwt: (i) => [{ issuer: issuerOf(i), claimMappings: { username: { expression: "''" } } }],
      token: (i) => i.sign(claims(i)),
      want: 'oidc: empty username via CEL expression is not allowed',
    },
    {
      name: 'groups that are not strings',
      jwt: (i) => [{ issuer: issuerOf(i), claimMappings: { username: { claim: 'sub', prefix: '' }, groups: { expression: 'claims.groups' } } }],
      token: (i) => i.sign(claims(i, { groups: [1, 2] })),
      want: 'oidc: error evaluating group claim expression: expression must return a string or a list of strings',
    },
    {
      name: 'an extra value of the wrong type',
      jwt: (i) => [{ issuer: issuerOf(i), claimMappings: { username: { claim: 'sub', prefix: '' }, extra: [{ key: 'example.com/n', valueExpression: 'claims.exp' }] } }],
      token: (i) => i.sign(claims(i)),
      want: 'oidc: error evaluating extra claim expression: claims.exp: expression must return a string or a list of strings',
    },
    {
      name: 'an expression past the per-call cost limit',
      jwt: (i) => [{ issuer: issuerOf(i), claimMappings: { username: { claim: 'sub', prefix: '' } }, claimValidationRules: [{ expression: 'claims.big.all(x, claims.big.all(y, claims.big.all(z, x + y + z >= 0.0)))' }] }],
      token: (i) => i.sign(claims(i, { big: Array.from({ length: 100 }, (_, k) => k) })),
      want: 'oidc: error evaluating claim validation expression: expression \'claims.big.all(x, claims.big.all(y, claims.big.all(z, x + y + z >= 0.0)))\' resulted in error: operation cancelled: actual cost limit exceeded',
    },
    {
      name: 'an extra expression failing at run time (kube: no "oidc:" prefix)',
      jwt: (i) => [{ issuer: issuerOf(i), claimMappings: { username: { claim: 'sub', prefix: '' }, extra: [{ key: 'example.com/t', valueExpression: 'claims.tenant' }] } }],
      token: (i) => i.sign(claims(i)),
      want: "expression 'claims.tenant' resulted in error: No such key: tenant",
    },
    {
      name: 'a required claim with another value',
      jwt: (i) => [{ issuer: issuerOf(i), claimMappings: { username: { claim: 'sub', prefix: '' } }, claimValidationRules: [{ claim: 'hd', requiredValue: 'example.com' }] }],
      token: (i) => i.sign(claims(i, { hd: 'evil.example' })),
      want: 'oidc: required claim hd value does not match. Got = evil.example, want = example.com',
    },
    {
      name: 'a uid claim that is absent',
      jwt: (i) => [{ issuer: issuerOf(i), claimMappings: { username: { claim: 'sub', prefix: '' }, uid: { claim: 'oid' } } }],
      token: (i) => i.sign(claims(i)),
      want: 'oidc: parse uid claim "oid": claim not present',
    },
    { name: 'expired', token: (i) => i.sign(claims(i, { exp: now() - 3600, iat: now() - 7200 })), want: /^oidc: verify token: "exp" claim timestamp check failed/ },
    { name: 'no exp at all', token: (i) => i.sign(claims(i, { exp: undefined })), want: /^oidc: verify token: missing required "exp" claim/ },
    { name: 'another audience', token: (i) => i.sign(claims(i, { aud: 'other' })), want: 'oidc: verify token: oidc: expected audience "kapi" got ["other"]' },
    { name: 'signed by a key the issuer does not serve', token: (i) => i.sign(claims(i), { unpublished: true }), want: /^oidc: verify token: / },
    {
      name: 'a tampered payload',
      token: async (i) => {
        const [h, , s] = (await i.sign(claims(i))).split('.');
        return `${h}.${base64url.encode(JSON.stringify(claims(i, { sub: 'admin' })))}.${s}`;
      },
      want: /^oidc: verify token: signature verification failed/,
    },
    {
      name: 'alg none',
      token: async (i) => `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url.encode(JSON.stringify(claims(i)))}.`,
      want: /^oidc: verify token: /,
    },
    {
      name: 'HS256 with a guessable secret',
      token: (i) => new SignJWT(claims(i)).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32)),
      want: /^oidc: verify token: /,
    },
    { name: 'a token of another issuer nobody trusts', token: (i) => i.sign(claims(i, { iss: 'https://elsewhere.example' })), want: 'invalid bearer token' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const got = await refused(server((c.jwt ?? mapped)(a)), await c.token(a));
      if (typeof c.want === 'string') expect(got).toBe(c.want);
      else expect(got).toMatch(c.want);
    });
  }
});

test('an egress selector cannot be honoured (no --egress-selector-config-file), as in kube without one', () => {
  const loaded = load([{ issuer: issuerOf(a, { egressSelectorType: 'cluster' }), claimMappings: { username: { claim: 'sub', prefix: '' } } }]);
  expect(() => createAuthenticationConfigAuthenticator(loaded)).toThrow('oidc: egress lookup required with egress selector type "cluster"');
});

describe('two issuers at once', () => {
  const both = () =>
    server([
      { issuer: issuerOf(a), claimMappings: { username: { claim: 'sub', prefix: 'a:' } } },
      { issuer: issuerOf(b), claimMappings: { username: { expression: "'b:' + claims.sub" }, groups: { claim: 'groups', prefix: 'b:' } } },
    ]);

  test('each token is mapped by its own issuer', async () => {
    const auth = both();
    expect((await run(auth, await a.sign(claims(a))))?.user).toEqual({ username: 'a:u-1', groups: ['system:authenticated'] });
    expect((await run(auth, await b.sign(claims(b))))?.user).toEqual({ username: 'b:u-1', groups: ['b:dev', 'b:ops', 'system:authenticated'] });
  });

  test("a token naming one issuer but signed with the other's key is refused", async () => {
    expect(await refused(both(), await b.sign(claims(a)))).toMatch(/^oidc: verify token: /);
  });
});
