// The token cleaner (controllers/token-cleaner.ts) over the real registry: which
// Secrets it deletes, which it keeps, when it asks to look again; then the real
// starter (server/controllers.ts, --controllers=tokencleaner) deleting a token at
// its expiration through the runner's delayed requeue.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { secrets } from '../../src/apis/core/v1/index.js';
import { createTokenCleaner, type TokenCleanerClient } from '../../src/controllers/token-cleaner.js';
import { isStatusError } from '../../src/errors/status-error.js';
import type { KubeObject } from '../../src/schema/object.js';
import { startControllers, type RunningControllers } from '../../src/server/controllers.js';
import { createStoreHarness, type StoreHarness } from '../support/store-harness.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const silent = { info: () => undefined, warn: () => undefined };

function token(name: string, data: Record<string, string>, type = 'bootstrap.kubernetes.io/token'): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'kube-system' }, type, stringData: { 'token-id': name.slice(-6), 'token-secret': '0123456789abcdef', ...data } };
}

/** The client server/controllers.ts builds, over the harness's registry. */
function registryClient(h: StoreHarness): TokenCleanerClient & { deletes: string[] } {
  const store = h.registry.store(secrets);
  const deletes: string[] = [];
  return {
    deletes,
    getSecret: (name) => h.get(secrets, { namespace: 'kube-system', name }),
    deleteSecret: async (name, uid) => {
      deletes.push(`${name} uid=${uid}`);
      try {
        await store.delete({ namespace: 'kube-system', name, ...(uid === undefined ? {} : { preconditions: { uid } }) });
      } catch (err) {
        if (!isStatusError(err) || (err.reason !== 'NotFound' && err.reason !== 'Conflict')) throw err;
      }
    },
  };
}

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness({ namespaces: ['kube-system', 'kube-public'] });
});
afterEach(async () => h.close());

describe('token cleaner sync', () => {
  const cases: { name: string; secret: KubeObject | undefined; want: string; kept: boolean; recheckAt?: string }[] = [
    { name: 'expired: deleted', secret: token('bootstrap-token-aaaaaa', { expiration: '2026-05-31T23:59:59Z' }), want: 'Deleted', kept: false },
    { name: 'expiring this instant: deleted', secret: token('bootstrap-token-aaaaaa', { expiration: '2026-06-01T00:00:00Z' }), want: 'Deleted', kept: false },
    { name: 'malformed expiration counts as expired (kube)', secret: token('bootstrap-token-aaaaaa', { expiration: '2026-06-02' }), want: 'Deleted', kept: false },
    { name: 'huge expiration value: deleted, no crash', secret: token('bootstrap-token-aaaaaa', { expiration: '9'.repeat(500_000) }), want: 'Deleted', kept: false },
    {
      name: 'valid later: kept, re-checked at the expiration',
      secret: token('bootstrap-token-aaaaaa', { expiration: '2026-06-01T02:00:00+01:00' }),
      want: 'Scheduled',
      kept: true,
      recheckAt: '2026-06-01T01:00:00.000Z',
    },
    { name: 'no expiration: kept for good', secret: token('bootstrap-token-aaaaaa', {}), want: 'NoExpiration', kept: true },
    { name: 'wrong type, expired: not a token, kept', secret: token('bootstrap-token-aaaaaa', { expiration: '2001-01-01T00:00:00Z' }, 'Opaque'), want: 'NotToken', kept: true },
    {
      name: 'odd name and __proto__ keys, expired: still a token Secret, deleted',
      secret: token('bootstrap-token-aaaaaa', JSON.parse('{"__proto__": "x", "constructor": "y", "token-id": "NOT OK", "expiration": "2001-01-01T00:00:00Z"}') as Record<string, string>),
      want: 'Deleted',
      kept: false,
    },
    { name: 'absent', secret: undefined, want: 'Absent', kept: false },
  ];

  for (const c of cases) {
    test(c.name, async () => {
      if (c.secret !== undefined) expect((await h.create(secrets, c.secret)).errors).toEqual([]);
      const client = registryClient(h);
      const cleaner = createTokenCleaner({ client, now: () => NOW });
      const got = await cleaner.sync('bootstrap-token-aaaaaa');
      expect(got.result).toBe(c.want);
      expect(got.recheckAt?.toISOString()).toBe(c.recheckAt);
      expect((await h.get(secrets, { namespace: 'kube-system', name: 'bootstrap-token-aaaaaa' })) !== undefined).toBe(c.kept);
    });
  }

  test('a Secret re-created under the name is not deleted for the old one (uid precondition)', async () => {
    await h.create(secrets, token('bootstrap-token-aaaaaa', { expiration: '2001-01-01T00:00:00Z' }));
    const stale = await h.get(secrets, { namespace: 'kube-system', name: 'bootstrap-token-aaaaaa' });
    await h.registry.store(secrets).delete({ namespace: 'kube-system', name: 'bootstrap-token-aaaaaa' });
    await h.create(secrets, token('bootstrap-token-aaaaaa', { expiration: '2001-01-01T00:00:00Z' }));
    const client = registryClient(h);
    const cleaner = createTokenCleaner({ client: { ...client, getSecret: async () => stale }, now: () => NOW });
    expect(await cleaner.sync('bootstrap-token-aaaaaa')).toEqual({ result: 'Deleted' });
    expect(client.deletes).toEqual([`bootstrap-token-aaaaaa uid=${stale?.metadata.uid}`]);
    const now = await h.get(secrets, { namespace: 'kube-system', name: 'bootstrap-token-aaaaaa' });
    expect(now?.metadata.uid).not.toBe(stale?.metadata.uid);
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

describe('token-cleaner-controller started by --controllers', () => {
  let controllers: RunningControllers | undefined;
  afterEach(() => controllers?.stop());
  const present = (name: string) => h.get(secrets, { namespace: 'kube-system', name });

  test('an expired token is deleted at start; one expiring soon is deleted at its expiration, not before', async () => {
    await h.create(secrets, token('bootstrap-token-old000', { expiration: '2001-01-01T00:00:00Z' }));
    await h.create(secrets, token('bootstrap-token-keep00', {}));
    controllers = startControllers({ registry: h.registry, logger: silent, controllers: ['tokencleaner'], retry: { initialMs: 5, maxMs: 20 } });
    await until('the expired token to be deleted', async () => (await present('bootstrap-token-old000')) === undefined);

    // RFC 3339 has whole seconds here: the next second boundary at least 1 s away.
    const at = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000);
    await h.create(secrets, token('bootstrap-token-soon00', { expiration: at.toISOString().replace('.000Z', 'Z') }));
    await until('the soon-expiring token to be deleted', async () => (await present('bootstrap-token-soon00')) === undefined, 5000);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    expect(await present('bootstrap-token-keep00')).toBeDefined();
  });

  test('off by default (`*`): not started, expired tokens stay', async () => {
    const started: unknown[] = [];
    controllers = startControllers({ registry: h.registry, logger: { ...silent, info: (obj) => started.push(obj) }, retry: { initialMs: 5, maxMs: 20 } });
    const names = (started[0] as { controllers: string[] }).controllers;
    expect(names).toContain('namespace-controller');
    expect(names).not.toContain('token-cleaner-controller');
    expect(names).not.toContain('bootstrap-signer-controller');
    await h.create(secrets, token('bootstrap-token-old000', { expiration: '2001-01-01T00:00:00Z' }));
    expect(await present('bootstrap-token-old000')).toBeDefined();
  });
});
