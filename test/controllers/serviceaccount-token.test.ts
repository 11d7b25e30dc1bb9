// The serviceaccount-token-controller over a real registry (memory storage), run
// by startControllers as main.ts runs it: a kubernetes.io/service-account-token
// Secret gets kube's legacy token, ca.crt and namespace and the account's uid; it
// is deleted when its account goes, is missing, or is another account now; a
// Secret that goes leaves its account's `secrets`. Hostile annotations and data
// keys are data, never a crash. Also the authenticator's label write
// (setSecretLabel) through the same registry.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { builtinResources } from '../../src/apis/index.js';
import { setSecretLabel } from '../../src/apis/core/v1/service-account-token.js';
import { createTokenKeys } from '../../src/auth/serviceaccount/tokens.js';
import { isStatusError } from '../../src/errors/status-error.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import { startControllers, type RunningControllers } from '../../src/server/controllers.js';
import type { KubeObject } from '../../src/schema/object.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import type { Storage } from '../../src/storage/storage.js';

const gvr = (resource: string) => ({ group: '', version: 'v1', resource });
const silent = { info: () => undefined, warn: () => undefined };
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const keys = createTokenKeys({
  issuer: 'https://kubernetes.default.svc.cluster.local',
  signingKeyPem: generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
});
const text = (b64: unknown) => Buffer.from(String(b64), 'base64').toString('utf8');

/** Polls a condition until it holds or the bound passes (no fixed sleeps). */
async function until(what: string, check: () => Promise<boolean>, boundMs = 5000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

let storage: Storage;
let registry: Registry;
let controllers: RunningControllers;

async function get(resource: string, name: string, namespace = 'team'): Promise<KubeObject | undefined> {
  try {
    return await registry.store(gvr(resource)).get({ namespace, name });
  } catch (err) {
    if (isStatusError(err) && err.reason === 'NotFound') return undefined;
    throw err;
  }
}

function start(rootCaPem = CA): void {
  controllers = startControllers({
    registry,
    logger: silent,
    retry: { initialMs: 5, maxMs: 20 },
    rootCaPem,
    controllers: ['serviceaccount-token-controller'],
    legacyTokenSigner: (claims) => keys.issueLegacy(claims),
  });
}

async function createAccount(name: string): Promise<KubeObject> {
  return (await registry.store(gvr('serviceaccounts')).create({ metadata: { name } }, { namespace: 'team' })).object;
}

async function createTokenSecret(name: string, annotations: Record<string, string>, extra: Partial<KubeObject> = {}): Promise<KubeObject> {
  return (await registry.store(gvr('secrets')).create({ metadata: { name, annotations }, type: 'kubernetes.io/service-account-token', ...extra } as KubeObject, { namespace: 'team' })).object;
}

const filled = async (name: string) => {
  const s = await get('secrets', name);
  return s !== undefined && typeof (s.data as Record<string, string> | undefined)?.['token'] === 'string';
};

beforeEach(async () => {
  storage = createObjectStore({ kv: openMemoryKv() });
  registry = createRegistry({ storage, resources: builtinResources, admission: createAdmissionChain(), clock: () => new Date() });
  await registry.store(gvr('namespaces')).create({ metadata: { name: 'team' } });
  start();
});
afterEach(async () => {
  controllers.stop();
  await storage.close();
});

describe('serviceaccount-token-controller', () => {
  test('fills a token Secret: a legacy token for the account and Secret, ca.crt, namespace, the uid annotation', async () => {
    const sa = await createAccount('bot');
    await createTokenSecret('bot-token', { 'kubernetes.io/service-account.name': 'bot' });
    await until('the token', () => filled('bot-token'));
    const secret = (await get('secrets', 'bot-token'))!;
    const data = secret.data as Record<string, string>;
    expect(Object.keys(data).sort()).toEqual(['ca.crt', 'namespace', 'token']);
    expect(text(data['ca.crt'])).toBe(CA);
    expect(text(data['namespace'])).toBe('team');
    expect(secret.metadata.annotations).toEqual({ 'kubernetes.io/service-account.name': 'bot', 'kubernetes.io/service-account.uid': sa.metadata.uid });
    expect(await keys.verifyLegacy(text(data['token']))).toEqual({ subject: 'system:serviceaccount:team:bot', namespace: 'team', secretName: 'bot-token', serviceAccountName: 'bot', serviceAccountUid: sa.metadata.uid });
  });

  test('a token already there is kept; a changed CA is put in on the next start', async () => {
    await createAccount('bot');
    await createTokenSecret('bot-token', { 'kubernetes.io/service-account.name': 'bot' });
    await until('the token', () => filled('bot-token'));
    const before = (await get('secrets', 'bot-token'))!.data as Record<string, string>;
    controllers.stop();
    const rotated = `${CA}${CA}`;
    start(rotated);
    await until('the new CA', async () => text(((await get('secrets', 'bot-token'))!.data as Record<string, string>)['ca.crt']) === rotated);
    expect(((await get('secrets', 'bot-token'))!.data as Record<string, string>)['token']).toBe(before['token']);
  });

  test('deleting the account deletes its token Secrets, not other Secrets', async () => {
    await createAccount('bot');
    await createTokenSecret('bot-token', { 'kubernetes.io/service-account.name': 'bot' });
    await registry.store(gvr('secrets')).create({ metadata: { name: 'plain', annotations: { 'kubernetes.io/service-account.name': 'bot' } }, type: 'Opaque' } as KubeObject, { namespace: 'team' });
    await until('the token', () => filled('bot-token'));
    await registry.store(gvr('serviceaccounts')).delete({ namespace: 'team', name: 'bot' });
    await until('the token Secret to go', async () => (await get('secrets', 'bot-token')) === undefined);
    expect(await get('secrets', 'plain')).toBeDefined();
  });

  test('a Secret for an account that does not exist, or is another account by that name now, is deleted', async () => {
    await createTokenSecret('orphan', { 'kubernetes.io/service-account.name': 'nobody' });
    await until('the orphan to go', async () => (await get('secrets', 'orphan')) === undefined);
    await createAccount('bot');
    await createTokenSecret('stale', { 'kubernetes.io/service-account.name': 'bot', 'kubernetes.io/service-account.uid': 'an-older-uid' });
    await until('the stale one to go', async () => (await get('secrets', 'stale')) === undefined);
  });

  test('a token Secret that goes is dropped from its account\'s secrets', async () => {
    const sas = registry.store(gvr('serviceaccounts'));
    const sa = await createAccount('bot');
    await sas.update({ ...sa, secrets: [{ name: 'bot-token' }, { name: 'other' }] } as KubeObject, { namespace: 'team', name: 'bot' });
    await createTokenSecret('bot-token', { 'kubernetes.io/service-account.name': 'bot' });
    await until('the token', () => filled('bot-token'));
    await registry.store(gvr('secrets')).delete({ namespace: 'team', name: 'bot-token' });
    await until('the reference to go', async () => JSON.stringify((await get('serviceaccounts', 'bot'))?.['secrets']) === JSON.stringify([{ name: 'other' }]));
  });

  test('hostile annotations are data: huge, garbage or __proto__ account names delete the Secret, nothing crashes', async () => {
    for (const [name, account] of [['huge', 'a'.repeat(100_000)], ['garbage', '../../x\u0000'], ['proto', '__proto__'], ['ctor', 'constructor']] as const) {
      await createTokenSecret(name, { 'kubernetes.io/service-account.name': account });
    }
    for (const name of ['huge', 'garbage', 'proto', 'ctor']) await until(`${name} to go`, async () => (await get('secrets', name)) === undefined);
    // The controller still works afterwards.
    await createAccount('bot');
    await createTokenSecret('bot-token', { 'kubernetes.io/service-account.name': 'bot' });
    await until('the token', () => filled('bot-token'));
  });

  test('a data key named __proto__ survives the fill-in as an ordinary key', async () => {
    await createAccount('bot');
    const data = JSON.parse('{"__proto__":"eA=="}') as Record<string, string>;
    await createTokenSecret('bot-token', { 'kubernetes.io/service-account.name': 'bot' }, { data } as Partial<KubeObject>);
    await until('the token', () => filled('bot-token'));
    const stored = (await get('secrets', 'bot-token'))!.data as Record<string, string>;
    expect(Object.hasOwn(stored, '__proto__')).toBe(true);
    expect(Object.keys(stored).sort()).toEqual(['__proto__', 'ca.crt', 'namespace', 'token']);
  });
});

describe('setSecretLabel (the legacy-token authenticator\'s write)', () => {
  test('sets the label on the Secret read; a recreated or deleted Secret is refused, never relabelled', async () => {
    controllers.stop();
    const store = registry.store(gvr('secrets'));
    const read = (await store.create({ metadata: { name: 's', labels: { keep: 'me' } } } as KubeObject, { namespace: 'team' })).object;
    await setSecretLabel(store, read, { key: 'kubernetes.io/legacy-token-last-used', value: '2026-11-22' });
    expect((await get('secrets', 's'))!.metadata.labels).toEqual({ keep: 'me', 'kubernetes.io/legacy-token-last-used': '2026-11-22' });
    await store.delete({ namespace: 'team', name: 's' });
    await expect(setSecretLabel(store, read, { key: 'k', value: 'v' })).rejects.toMatchObject({ reason: 'NotFound' });
    await store.create({ metadata: { name: 's' } } as KubeObject, { namespace: 'team' });
    await expect(setSecretLabel(store, read, { key: 'k', value: 'v' })).rejects.toMatchObject({ reason: 'Conflict' });
    expect((await get('secrets', 's'))!.metadata.labels).toBeUndefined();
  });
});
