// The bootstrap signer (controllers/bootstrap-signer.ts) over the real registry:
// which tokens get a jws-kubeconfig-<id>, which signatures go, what it never
// touches; then the real starter (--controllers=bootstrapsigner) following token
// Secrets as they come, go and expire.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { configMaps, secrets } from '../../src/apis/core/v1/index.js';
import { createBootstrapSigner, type BootstrapSignerClient } from '../../src/controllers/bootstrap-signer.js';
import { detachedSignature } from '../../src/controllers/bootstrap-tokens.js';
import { isStatusError } from '../../src/errors/status-error.js';
import type { KubeObject } from '../../src/schema/object.js';
import { startControllers, type RunningControllers } from '../../src/server/controllers.js';
import { createStoreHarness, type StoreHarness } from '../support/store-harness.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const KUBECONFIG = 'apiVersion: v1\nkind: Config\n';
const silent = { info: () => undefined, warn: () => undefined };
const at = { namespace: 'kube-public', name: 'cluster-info' };

function token(id: string, data: Record<string, string> = {}, opts: { name?: string; type?: string } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: opts.name ?? `bootstrap-token-${id}`, namespace: 'kube-system' },
    type: opts.type ?? 'bootstrap.kubernetes.io/token',
    stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', 'usage-bootstrap-signing': 'true', ...data },
  };
}

function clusterInfo(data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-info', namespace: 'kube-public' }, data };
}

/** The client server/controllers.ts builds, over the harness's registry. */
function registryClient(h: StoreHarness): BootstrapSignerClient {
  const cms = h.registry.store(configMaps);
  return {
    getClusterInfo: () => h.get(configMaps, at),
    listTokenSecrets: async () => (await h.registry.store(secrets).list({ namespace: 'kube-system' })).items,
    updateClusterInfo: async (cm) => {
      try {
        await cms.update(cm, at);
        return 'updated';
      } catch (err) {
        if (isStatusError(err) && (err.reason === 'Conflict' || err.reason === 'NotFound')) return 'conflict';
        throw err;
      }
    },
  };
}

const sig = (id: string, content = KUBECONFIG) => detachedSignature(content, id, '0123456789abcdef');

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness({ namespaces: ['kube-system', 'kube-public'] });
});
afterEach(async () => h.close());

async function dataOf(): Promise<Record<string, unknown> | undefined> {
  return (await h.get(configMaps, at))?.data as Record<string, unknown> | undefined;
}

describe('bootstrap signer sync', () => {
  const cases: {
    name: string;
    tokens: KubeObject[];
    cm: Record<string, string> | undefined;
    want: string;
    /** Expected data; signature values are filled in per id below. */
    data: (s: (id: string) => Promise<string>) => Promise<Record<string, string> | undefined>;
    /** When sync asks to be run again (the first signed token's expiration). */
    recheckAt?: string;
  }[] = [
    { name: 'no cluster-info: nothing to do', tokens: [token('abcdef')], cm: undefined, want: 'NoConfigMap', data: async () => undefined },
    {
      name: 'no kubeconfig key: signatures left as they are (kube)',
      tokens: [],
      cm: { 'jws-kubeconfig-zzzzzz': 'stale', other: 'x' },
      want: 'NoKubeconfig',
      data: async () => ({ 'jws-kubeconfig-zzzzzz': 'stale', other: 'x' }),
    },
    {
      name: 'one signing token: signed, other keys kept',
      tokens: [token('abcdef')],
      cm: { kubeconfig: KUBECONFIG, other: 'x' },
      want: 'Updated',
      data: async (s) => ({ kubeconfig: KUBECONFIG, other: 'x', 'jws-kubeconfig-abcdef': await s('abcdef') }),
    },
    {
      name: 'stale signatures of tokens gone are removed',
      tokens: [token('abcdef')],
      cm: { kubeconfig: KUBECONFIG, 'jws-kubeconfig-zzzzzz': 'stale', 'jws-kubeconfig-abcdef': 'wrong' },
      want: 'Updated',
      data: async (s) => ({ kubeconfig: KUBECONFIG, 'jws-kubeconfig-abcdef': await s('abcdef') }),
    },
    {
      name: 'only valid signing tokens sign; the earliest expiration is re-checked',
      tokens: [
        token('valid1', { expiration: '2026-06-03T00:00:00Z' }),
        token('valid2', { expiration: '2026-06-02T00:00:00Z' }),
        token('expird', { expiration: '2026-05-01T00:00:00Z' }),
        token('malfrm', { expiration: 'next tuesday' }),
        token('nosign', { 'usage-bootstrap-signing': 'false' }),
        token('opaque', {}, { type: 'Opaque' }),
        token('badsec', { 'token-secret': '0123456789ABCDEF' }),
        token('hugeee', { 'token-secret': 'a'.repeat(400_000) }),
        token('NOTOK!', {}, { name: 'bootstrap-token-mismat' }),
        token('badnam', {}, { name: 'bootstrap-token-badnam-x' }),
        { ...token('proto0'), stringData: JSON.parse('{"__proto__": "x", "constructor": "y", "token-id": "proto0", "token-secret": "0123456789abcdef", "usage-bootstrap-signing": "true"}') },
      ],
      cm: { kubeconfig: KUBECONFIG },
      want: 'Updated',
      data: async (s) => ({ kubeconfig: KUBECONFIG, 'jws-kubeconfig-valid1': await s('valid1'), 'jws-kubeconfig-valid2': await s('valid2'), 'jws-kubeconfig-proto0': await s('proto0') }),
      recheckAt: '2026-06-02T00:00:00.000Z',
    },
    {
      name: 'no signing token: every signature removed',
      tokens: [token('nosign', { 'usage-bootstrap-signing': 'false' })],
      cm: { kubeconfig: KUBECONFIG, 'jws-kubeconfig-nosign': 'old' },
      want: 'Updated',
      data: async () => ({ kubeconfig: KUBECONFIG }),
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      for (const t of c.tokens) expect((await h.create(secrets, t)).errors, t.metadata.name).toEqual([]);
      if (c.cm !== undefined) await h.create(configMaps, clusterInfo(c.cm));
      const signer = createBootstrapSigner({ client: registryClient(h), now: () => NOW });
      const got = await signer.sync();
      expect(got.result).toBe(c.want);
      expect(await dataOf()).toEqual(await c.data(sig));
      expect(got.recheckAt?.toISOString()).toBe(c.recheckAt);
    });
  }

  test('already right: Unchanged, no write', async () => {
    await h.create(secrets, token('abcdef'));
    await h.create(configMaps, clusterInfo({ kubeconfig: KUBECONFIG, 'jws-kubeconfig-abcdef': await sig('abcdef') }));
    const before = await h.get(configMaps, at);
    const signer = createBootstrapSigner({ client: registryClient(h), now: () => NOW });
    expect(await signer.sync()).toMatchObject({ result: 'Unchanged' });
    expect((await h.get(configMaps, at))?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
  });

  test('a write between read and update is a Conflict, and the other writer\'s change stays', async () => {
    await h.create(secrets, token('abcdef'));
    await h.create(configMaps, clusterInfo({ kubeconfig: KUBECONFIG }));
    const stale = await h.get(configMaps, at);
    await h.update(configMaps, clusterInfo({ kubeconfig: KUBECONFIG, other: 'written meanwhile' }));
    const client = registryClient(h);
    const signer = createBootstrapSigner({ client: { ...client, getClusterInfo: async () => stale }, now: () => NOW });
    expect(await signer.sync()).toMatchObject({ result: 'Conflict' });
    expect(await dataOf()).toEqual({ kubeconfig: KUBECONFIG, other: 'written meanwhile' });
    // The retry reads again and signs without losing it.
    expect(await createBootstrapSigner({ client, now: () => NOW }).sync()).toMatchObject({ result: 'Updated' });
    expect(await dataOf()).toEqual({ kubeconfig: KUBECONFIG, other: 'written meanwhile', 'jws-kubeconfig-abcdef': await sig('abcdef') });
  });

  test('a __proto__ key of cluster-info stays an own key through the update', async () => {
    await h.create(secrets, token('abcdef'));
    await h.create(configMaps, { ...clusterInfo({}), data: JSON.parse(`{"kubeconfig": ${JSON.stringify(KUBECONFIG)}, "__proto__": "kept"}`) });
    const signer = createBootstrapSigner({ client: registryClient(h), now: () => NOW });
    expect(await signer.sync()).toMatchObject({ result: 'Updated' });
    const data = (await dataOf())!;
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data).sort()).toEqual(['__proto__', 'jws-kubeconfig-abcdef', 'kubeconfig']);
  });
});

/** Waits for a condition with a bound (no fixed sleeps). */
async function until(what: string, check: () => Promise<boolean>, boundMs = 8000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('bootstrap-signer-controller started by --controllers', () => {
  let controllers: RunningControllers | undefined;
  afterEach(() => controllers?.stop());
  const signature = async (id: string) => (await dataOf())?.[`jws-kubeconfig-${id}`];

  test('signs tokens as they come, drops them as they go or expire', async () => {
    await h.create(configMaps, clusterInfo({ kubeconfig: KUBECONFIG, other: 'x' }));
    await h.create(secrets, token('first0'));
    controllers = startControllers({ registry: h.registry, logger: silent, controllers: ['bootstrapsigner'], retry: { initialMs: 5, maxMs: 20 } });
    await until('the existing token to be signed', async () => (await signature('first0')) === (await sig('first0')));

    await h.create(secrets, token('second'));
    await until('a new token to be signed', async () => (await signature('second')) === (await sig('second')));

    await h.registry.store(secrets).delete({ namespace: 'kube-system', name: 'bootstrap-token-first0' });
    await until('a deleted token\'s signature to go', async () => (await signature('first0')) === undefined);

    // Edited to have expired (what `kubectl patch` of expiration does).
    await h.update(secrets, { ...token('second', { expiration: '2001-01-01T00:00:00Z' }) });
    await until('an expired token\'s signature to go', async () => (await signature('second')) === undefined);

    // Expiring by the clock alone, with no write: the timed re-check removes it.
    const when = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000);
    await h.create(secrets, token('soon00', { expiration: when.toISOString().replace('.000Z', 'Z') }));
    await until('the soon-expiring token to be signed', async () => (await signature('soon00')) !== undefined);
    await until('its signature to go at the expiration', async () => (await signature('soon00')) === undefined, 5000);
    expect(Date.now()).toBeGreaterThanOrEqual(when.getTime());

    // A changed kubeconfig is signed again.
    await h.update(configMaps, clusterInfo({ ...((await dataOf()) as Record<string, string>), kubeconfig: 'changed\n' }));
    await h.create(secrets, token('third0'));
    await until('the changed kubeconfig to be signed', async () => (await signature('third0')) === (await sig('third0', 'changed\n')));
    expect((await dataOf())?.other).toBe('x');
  });

  test('off by default (`*`): signatures are left alone', async () => {
    const started: unknown[] = [];
    await h.create(configMaps, clusterInfo({ kubeconfig: KUBECONFIG, 'jws-kubeconfig-zzzzzz': 'stale' }));
    controllers = startControllers({ registry: h.registry, logger: { ...silent, info: (obj) => started.push(obj) }, retry: { initialMs: 5, maxMs: 20 } });
    const names = (started[0] as { controllers: string[] }).controllers;
    expect(names).toContain('namespace-controller');
    expect(names).not.toContain('token-cleaner-controller');
    expect(names).not.toContain('bootstrap-signer-controller');
    await h.create(secrets, token('abcdef'));
    expect(await dataOf()).toEqual({ kubeconfig: KUBECONFIG, 'jws-kubeconfig-zzzzzz': 'stale' });
  });
});
