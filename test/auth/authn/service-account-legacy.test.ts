// Legacy (Secret-held) service-account tokens and --service-account-lookup, as
// kube's legacy validator judges them (pkg/serviceaccount/legacy.go): the Secret
// must hold the token, the account must exist with its uid, the last-used label is
// written at most once a day, an invalid-since label refuses the token; every
// refusal carries kube's message and a refused token writes nothing (except the
// invalid-since case, where kube records the use). Also: what kube's bound-token
// validator says for objects that went, and the verification cache.
import { generateKeyPairSync } from 'node:crypto';
import { beforeEach, describe, expect, test } from 'vitest';
import { SignJWT, decodeJwt, decodeProtectedHeader, importPKCS8 } from 'jose';
import { createTokenKeys, LEGACY_ISSUER, type TokenKeys } from '../../../src/auth/serviceaccount/tokens.js';
import {
  AUTO_GENERATED_TOKEN_WARNING,
  LEGACY_TOKEN_INVALID_SINCE_LABEL,
  LEGACY_TOKEN_LAST_USED_LABEL,
  createServiceAccountAuthenticator,
  type ServiceAccountAuthenticatorOptions,
} from '../../../src/auth/authn/service-account.js';
import { AuthenticationError, type Authenticator } from '../../../src/auth/authn/authenticator.js';
import type { KubeObject } from '../../../src/schema/object.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const keys = createTokenKeys({ issuer: ISSUER, signingKeyPem: pem });
const LEGACY = { namespace: 'team', serviceAccountName: 'bot', serviceAccountUid: 'sa-uid', secretName: 'bot-token' };
const USER = { username: 'system:serviceaccount:team:bot', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:team'] };

const b64 = (s: string) => Buffer.from(s).toString('base64');
const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });

interface World {
  objects: Map<string, KubeObject>;
  lookups: string[];
  writes: Array<{ secret: string; key: string; value: string }>;
  now: Date;
  verifies: number;
  authn: Authenticator;
}

/** Counts signature checks, so the cache's effect can be asserted. */
function counting(k: TokenKeys, world: { verifies: number }): TokenKeys {
  return {
    ...k,
    verify: (t, n) => (world.verifies++, k.verify(t, n)),
    verifyLegacy: (t) => (world.verifies++, k.verifyLegacy(t)),
  };
}

function makeWorld(opts: Partial<ServiceAccountAuthenticatorOptions> = {}): World {
  const world = { objects: new Map<string, KubeObject>(), lookups: [] as string[], writes: [] as World['writes'], now: new Date('2026-11-22T10:00:00Z'), verifies: 0 } as World;
  world.authn = createServiceAccountAuthenticator({
    keys: counting(keys, world),
    lookup: async (kind, ns, name) => {
      world.lookups.push(`${kind}/${ns}/${name}`);
      return world.objects.get(`${kind}/${ns}/${name}`);
    },
    markLegacyTokenUsed: async (secret, label) => {
      world.writes.push({ secret: `${secret.metadata.namespace}/${secret.metadata.name}`, ...label });
    },
    clock: () => world.now,
    ...opts,
  });
  return world;
}

function tokenSecret(token: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    metadata: { name: 'bot-token', namespace: 'team', uid: 'secret-uid', annotations: { 'kubernetes.io/service-account.name': 'bot' }, ...extra },
    type: 'kubernetes.io/service-account-token',
    data: { token: b64(token), namespace: b64('team') },
  } as KubeObject;
}

function seed(world: World, token: string): void {
  world.objects.set('secrets/team/bot-token', tokenSecret(token));
  world.objects.set('serviceaccounts/team/bot', { metadata: { name: 'bot', namespace: 'team', uid: 'sa-uid' } });
}

/** A token signed by the server's key with any payload (for claim checks). */
async function signed(payload: Record<string, unknown>, header: Record<string, unknown> = { alg: 'ES256' }): Promise<string> {
  return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(await importPKCS8(pem, 'ES256'));
}

describe('legacy tokens: what the controller signs', () => {
  test("kube's LegacyClaims: issuer kubernetes/serviceaccount, the four flat claims and sub, sorted; no aud, exp or jti", async () => {
    const token = await keys.issueLegacy(LEGACY);
    expect(Object.keys(decodeProtectedHeader(token))).toEqual(['alg', 'kid']);
    const payload = decodeJwt(token);
    expect(Object.keys(payload)).toEqual([...Object.keys(payload)].sort());
    expect(payload).toEqual({
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'team',
      'kubernetes.io/serviceaccount/secret.name': 'bot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'bot',
      'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid',
      sub: 'system:serviceaccount:team:bot',
    });
    // Not a bound token: the bound verifier leaves it to the legacy one.
    expect(await keys.verify(token, new Date())).toBeUndefined();
  });
});

describe('legacy tokens with --service-account-lookup (the default)', () => {
  let world: World;
  let token: string;
  beforeEach(async () => {
    world = makeWorld();
    token = await keys.issueLegacy(LEGACY);
    seed(world, token);
  });

  test('a token its Secret holds is the account; the Secret is labelled with the UTC date once a day', async () => {
    expect(await world.authn(bearer(token))).toEqual({ user: USER, audiences: [ISSUER] });
    expect(world.lookups).toEqual(['secrets/team/bot-token', 'serviceaccounts/team/bot']);
    expect(world.writes).toEqual([{ secret: 'team/bot-token', key: LEGACY_TOKEN_LAST_USED_LABEL, value: '2026-11-22' }]);
    let rv = 10;
    const labelled = (value: string) => world.objects.set('secrets/team/bot-token', tokenSecret(token, { resourceVersion: String(++rv), labels: { [LEGACY_TOKEN_LAST_USED_LABEL]: value } }));
    for (const [label, writes] of [['2026-11-22', 1], ['2026-11-23', 1], ['2026-11-21', 2], ['garbage', 3]] as const) {
      labelled(label);
      await world.authn(bearer(token));
      expect(world.writes, `label ${label}`).toHaveLength(writes);
    }
  });

  test('requests racing on a new day write the label once', async () => {
    await Promise.all(Array.from({ length: 8 }, () => world.authn(bearer(token))));
    expect(world.writes).toHaveLength(1);
  });

  test('a failed label write is reported and the request still authenticates', async () => {
    const failures: string[] = [];
    const w = makeWorld({ markLegacyTokenUsed: async () => Promise.reject(new Error('etcd down')), onLabelError: (err, s) => failures.push(`${s.namespace}/${s.name}: ${(err as Error).message}`) });
    seed(w, token);
    expect(await w.authn(bearer(token))).toEqual({ user: USER, audiences: [ISSUER] });
    expect(failures).toEqual(['team/bot-token: etcd down']);
  });

  test('a Secret listed in its account\'s secrets is an auto-generated token: kube\'s Warning', async () => {
    world.objects.set('serviceaccounts/team/bot', { metadata: { name: 'bot', namespace: 'team', uid: 'sa-uid' }, secrets: [{ name: 'bot-token' }] } as KubeObject);
    expect(await world.authn(bearer(token))).toEqual({ user: USER, audiences: [ISSUER], warnings: [AUTO_GENERATED_TOKEN_WARNING] });
  });

  const refusals: Array<{ name: string; change: (w: World, token: string) => void; want: string }> = [
    { name: 'the Secret is gone', change: (w) => w.objects.delete('secrets/team/bot-token'), want: 'Token has been invalidated' },
    { name: 'the Secret is being deleted', change: (w, t) => w.objects.set('secrets/team/bot-token', tokenSecret(t, { deletionTimestamp: '2026-11-22T09:59:59Z' })), want: 'Token has been invalidated' },
    { name: 'the Secret holds another token', change: (w) => w.objects.set('secrets/team/bot-token', tokenSecret('another')), want: "Token does not match server's copy" },
    {
      name: 'the Secret has no token data',
      change: (w, t) => w.objects.set('secrets/team/bot-token', { ...tokenSecret(t), data: { ['__proto__']: b64(t) } } as KubeObject),
      want: "Token does not match server's copy",
    },
    { name: 'the account is gone', change: (w) => w.objects.delete('serviceaccounts/team/bot'), want: 'serviceaccounts "bot" not found' },
    {
      name: 'the account is being deleted',
      change: (w) => w.objects.set('serviceaccounts/team/bot', { metadata: { name: 'bot', uid: 'sa-uid', deletionTimestamp: '2026-11-22T09:59:59Z' } }),
      want: 'ServiceAccount team/bot has been deleted',
    },
    { name: 'the account was recreated', change: (w) => w.objects.set('serviceaccounts/team/bot', { metadata: { name: 'bot', uid: 'new-uid' } }), want: 'ServiceAccount UID (new-uid) does not match claim (sa-uid)' },
  ];
  for (const r of refusals) {
    test(`refused when ${r.name}, with kube's reason and no label written`, async () => {
      r.change(world, token);
      await expect(world.authn(bearer(token))).rejects.toThrow(new AuthenticationError(r.want));
      expect(world.writes).toEqual([]);
    });
  }

  test('a Secret marked invalid-since refuses its token, and the use is recorded as kube records it', async () => {
    world.objects.set('secrets/team/bot-token', tokenSecret(token, { labels: { [LEGACY_TOKEN_INVALID_SINCE_LABEL]: '2026-01-01' } }));
    await expect(world.authn(bearer(token))).rejects.toThrow(
      new AuthenticationError(
        "the token in secret team/bot-token for service account team/bot has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'kubernetes.io/legacy-token-invalid-since' label from the secret to temporarily allow use of this token",
      ),
    );
    expect(world.writes).toEqual([{ secret: 'team/bot-token', key: LEGACY_TOKEN_LAST_USED_LABEL, value: '2026-11-22' }]);
  });
});

describe('legacy tokens with --service-account-lookup=false', () => {
  test('accepted without looking anything up or writing (kube skips the lookup entirely)', async () => {
    const world = makeWorld({ legacyLookup: false });
    const token = await keys.issueLegacy(LEGACY);
    expect(await world.authn(bearer(token))).toEqual({ user: USER, audiences: [ISSUER] });
    expect(world.lookups).toEqual([]);
    expect(world.writes).toEqual([]);
  });

  test('bound tokens are still checked against their account (kube always looks them up)', async () => {
    const world = makeWorld({ legacyLookup: false });
    const token = await keys.issue({ claims: { namespace: 'team', serviceaccount: { name: 'bot', uid: 'sa-uid' } }, audiences: [ISSUER], now: world.now, expirationSeconds: 3600, jti: 'j' });
    await expect(world.authn(bearer(token))).rejects.toThrow(new AuthenticationError('serviceaccounts "bot" not found'));
  });
});

describe('legacy token claims and hostile tokens', () => {
  const full = {
    iss: LEGACY_ISSUER,
    'kubernetes.io/serviceaccount/namespace': 'team',
    'kubernetes.io/serviceaccount/secret.name': 'bot-token',
    'kubernetes.io/serviceaccount/service-account.name': 'bot',
    'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid',
    sub: 'system:serviceaccount:team:bot',
  };
  const without = (key: string) => Object.fromEntries(Object.entries(full).filter(([k]) => k !== key));
  const claimCases: Array<{ name: string; payload: Record<string, unknown>; want: string }> = [
    { name: 'no sub', payload: without('sub'), want: 'sub claim is missing' },
    { name: 'no namespace', payload: without('kubernetes.io/serviceaccount/namespace'), want: 'namespace claim is missing' },
    { name: 'no secret name', payload: without('kubernetes.io/serviceaccount/secret.name'), want: 'secretName claim is missing' },
    { name: 'no account name', payload: without('kubernetes.io/serviceaccount/service-account.name'), want: 'serviceAccountName claim is missing' },
    { name: 'no account uid', payload: without('kubernetes.io/serviceaccount/service-account.uid'), want: 'serviceAccountUID claim is missing' },
    { name: 'a number for a claim', payload: { ...full, 'kubernetes.io/serviceaccount/namespace': 7 }, want: 'namespace claim is missing' },
    { name: 'claims only under __proto__', payload: JSON.parse(`{"iss":"${LEGACY_ISSUER}","__proto__":{"sub":"system:serviceaccount:team:bot"}}`), want: 'sub claim is missing' },
    { name: 'a sub of another account', payload: { ...full, sub: 'system:serviceaccount:team:other' }, want: 'sub claim is invalid' },
    { name: 'a sub that is no account', payload: { ...full, sub: 'admin' }, want: 'sub claim is invalid' },
    { name: 'a sub with a bad namespace', payload: { ...full, 'kubernetes.io/serviceaccount/namespace': 'Team!', sub: 'system:serviceaccount:Team!:bot' }, want: 'sub claim is invalid' },
    { name: 'an audience the API is not', payload: { ...full, aud: ['vault'] }, want: `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]` },
  ];
  for (const c of claimCases) {
    test(`signed by our key but ${c.name}: refused, nothing looked up`, async () => {
      const world = makeWorld();
      await expect(world.authn(bearer(await signed(c.payload)))).rejects.toThrow(new AuthenticationError(c.want));
      expect(world.lookups).toEqual([]);
    });
  }

  test('tampered, unsigned (alg none), foreign-key and unknown-kid tokens: refused, nothing looked up or written', async () => {
    const world = makeWorld();
    const token = await keys.issueLegacy(LEGACY);
    seed(world, token);
    const [h, p, s] = token.split('.') as [string, string, string];
    const otherPayload = Buffer.from(JSON.stringify({ ...decodeJwt(token), 'kubernetes.io/serviceaccount/service-account.name': 'admin' })).toString('base64url');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    const strangerPem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const foreign = await createTokenKeys({ issuer: ISSUER, signingKeyPem: strangerPem }).issueLegacy(LEGACY);
    // Signed by another key and naming none: every key of ours is tried, none verifies.
    const foreignNoKid = await new SignJWT(decodeJwt(token)).setProtectedHeader({ alg: 'ES256' }).sign(await importPKCS8(strangerPem, 'ES256'));
    const unknownKid = await signed(decodeJwt(token), { alg: 'ES256', kid: 'nope' });
    for (const bad of [`${h}.${otherPayload}.${s}`, `${h}.${p}.${s.slice(0, -4)}AAAA`, none, foreignNoKid]) {
      await expect(world.authn(bearer(bad))).rejects.toThrow(new AuthenticationError('go-jose/go-jose: error in cryptographic primitive'));
    }
    // A key id this server does not have: kube's key getter finds no key at all.
    for (const bad of [foreign, unknownKid]) await expect(world.authn(bearer(bad))).rejects.toThrow(new AuthenticationError('invalid signature, no keys found'));
    expect(world.lookups).toEqual([]);
    expect(world.writes).toEqual([]);
  });

  test('garbage, oversized and non-JWT bearer tokens are no answer of this authenticator', async () => {
    const world = makeWorld();
    const huge = `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: 'x', pad: 'y'.repeat(200_000) })).toString('base64url')}.sig`;
    const deep = `e30.${Buffer.from('['.repeat(100_000)).toString('base64url')}.x`;
    for (const t of ['abc', 'a.b.c', '...', huge, deep, `e30.${Buffer.from('{"iss":"kubernetes/serviceaccount"').toString('base64url')}.x`]) {
      expect(await world.authn(bearer(t)), t.slice(0, 20)).toBeUndefined();
    }
    expect(world.lookups).toEqual([]);
  });
});

describe('bound tokens: kube\'s validator', () => {
  const bound = (extra: Record<string, unknown>, now: Date) =>
    keys.issue({ claims: { namespace: 'team', serviceaccount: { name: 'bot', uid: 'sa-uid' }, ...extra }, audiences: [ISSUER], now, expirationSeconds: 3600, jti: 'j1' });
  const cases: Array<{ name: string; claims: Record<string, unknown>; objects: Record<string, KubeObject>; want: string | 'ok'; lookups?: string[] }> = [
    { name: 'an account deleted within the leeway still backs its token', claims: {}, objects: { 'serviceaccounts/team/bot': { metadata: { name: 'bot', uid: 'sa-uid', deletionTimestamp: '2026-11-22T09:59:30Z' } } }, want: 'ok' },
    { name: 'an account deleted longer ago', claims: {}, objects: { 'serviceaccounts/team/bot': { metadata: { name: 'bot', uid: 'sa-uid', deletionTimestamp: '2026-11-22T09:58:00Z' } } }, want: 'service account team/bot has been deleted' },
    { name: 'a recreated account', claims: {}, objects: { 'serviceaccounts/team/bot': { metadata: { name: 'bot', uid: 'other' } } }, want: 'service account UID (other) does not match claim (sa-uid)' },
    { name: 'a bound Secret that went', claims: { secret: { name: 's', uid: 's-uid' } }, objects: {}, want: 'service account token has been invalidated' },
    { name: 'a bound Secret recreated', claims: { secret: { name: 's', uid: 's-uid' } }, objects: { 'secrets/team/s': { metadata: { name: 's', uid: 'x' } } }, want: 'secret UID (x) does not match service account secret ref claim (s-uid)' },
    { name: 'a bound Pod recreated', claims: { pod: { name: 'p', uid: 'p-uid' } }, objects: { 'pods/team/p': { metadata: { name: 'p', uid: 'x' } } }, want: 'pod UID (x) does not match service account pod ref claim (p-uid)' },
    { name: 'a bound Node recreated', claims: { node: { name: 'n', uid: 'n-uid' } }, objects: { 'nodes//n': { metadata: { name: 'n', uid: 'x' } } }, want: 'node UID (x) does not match service account node ref claim (n-uid)' },
    {
      name: "a pod-bound token's node is information, not looked up",
      claims: { pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: 'n-uid' } },
      objects: { 'pods/team/p': { metadata: { name: 'p', uid: 'p-uid' } } },
      want: 'ok',
      lookups: ['serviceaccounts/team/bot', 'pods/team/p'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const world = makeWorld();
      world.objects.set('serviceaccounts/team/bot', { metadata: { name: 'bot', uid: 'sa-uid' } });
      for (const [k, v] of Object.entries(c.objects)) world.objects.set(k, v);
      const token = await bound(c.claims, world.now);
      if (c.want === 'ok') expect((await world.authn(bearer(token)))?.user.username).toBe('system:serviceaccount:team:bot');
      else await expect(world.authn(bearer(token))).rejects.toThrow(new AuthenticationError(c.want));
      if (c.lookups !== undefined) expect(world.lookups).toEqual(c.lookups);
    });
  }

  test('a pod-bound token with a node names both in extra, as kube does', async () => {
    const world = makeWorld();
    world.objects.set('serviceaccounts/team/bot', { metadata: { name: 'bot', uid: 'sa-uid' } });
    world.objects.set('pods/team/p', { metadata: { name: 'p', uid: 'p-uid' } });
    const result = await world.authn(bearer(await bound({ pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: 'n-uid' } }, world.now)));
    expect(result?.user.extra).toEqual({
      'authentication.kubernetes.io/pod-name': ['p'],
      'authentication.kubernetes.io/pod-uid': ['p-uid'],
      'authentication.kubernetes.io/credential-id': ['JTI=j1'],
      'authentication.kubernetes.io/node-name': ['n'],
      'authentication.kubernetes.io/node-uid': ['n-uid'],
    });
  });
});

describe('the verification cache', () => {
  test('the signature is checked once per token; the lookups run every time, so a deletion refuses at once', async () => {
    const world = makeWorld();
    const token = await keys.issueLegacy(LEGACY);
    seed(world, token);
    for (let i = 0; i < 5; i++) await world.authn(bearer(token));
    expect(world.verifies).toBe(2); // bound verifier said "not mine", legacy verified: once
    expect(world.lookups).toHaveLength(10);
    world.objects.delete('serviceaccounts/team/bot');
    await expect(world.authn(bearer(token))).rejects.toThrow('serviceaccounts "bot" not found');
  });

  test('a cached bound token still expires at its exp', async () => {
    const world = makeWorld();
    world.objects.set('serviceaccounts/team/bot', { metadata: { name: 'bot', uid: 'sa-uid' } });
    const token = await keys.issue({ claims: { namespace: 'team', serviceaccount: { name: 'bot', uid: 'sa-uid' } }, audiences: [ISSUER], now: world.now, expirationSeconds: 600, jti: 'j' });
    await world.authn(bearer(token));
    await world.authn(bearer(token));
    expect(world.verifies).toBe(1);
    // Past exp and go-jose's one-minute leeway.
    world.now = new Date(world.now.getTime() + 660_001);
    await expect(world.authn(bearer(token))).rejects.toThrow(new AuthenticationError('service account token has expired'));
  });

  test('failures are not cached: a refused token is checked again each time', async () => {
    const world = makeWorld();
    const token = await keys.issueLegacy(LEGACY);
    const tampered = `${token.slice(0, -4)}AAAA`;
    await expect(world.authn(bearer(tampered))).rejects.toThrow(AuthenticationError);
    await expect(world.authn(bearer(tampered))).rejects.toThrow(AuthenticationError);
    expect(world.verifies).toBe(4);
  });

  test('the cache is bounded: the oldest token is verified again', async () => {
    const world = makeWorld({ cacheSize: 2 });
    world.objects.set('serviceaccounts/team/bot', { metadata: { name: 'bot', uid: 'sa-uid' } });
    const tokens = await Promise.all(['a', 'b', 'c'].map((jti) => keys.issue({ claims: { namespace: 'team', serviceaccount: { name: 'bot', uid: 'sa-uid' } }, audiences: [ISSUER], now: world.now, expirationSeconds: 3600, jti })));
    for (const t of tokens) await world.authn(bearer(t));
    expect(world.verifies).toBe(3);
    await world.authn(bearer(tokens[2]!));
    expect(world.verifies).toBe(3);
    await world.authn(bearer(tokens[0]!));
    expect(world.verifies).toBe(4);
  });
});
