// The node graph follows storage: deleted and rebound pods, claims generated from
// templates, PVs rebound to other claims, and a watch that breaks (the re-list
// replays what was missed). Each step waits on the decision it expects, bounded
// by vi.waitFor, never a fixed sleep.
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { AuthorizationAttributes, AuthorizationResult } from '../../../../src/auth/authz/authorizer.js';
import { StorageError } from '../../../../src/errors/storage-error.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { openMemoryKv } from '../../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../../src/storage/object-store.js';
import type { Storage, StorageWatchOptions } from '../../../../src/storage/storage.js';
import { CLUSTER, keyOf, nodeUser, pod, request, startCluster, type Cluster } from './fixtures.js';

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };
const unrelated = (node: string): AuthorizationResult => ({ decision: 'NoOpinion', reason: `no relationship found between node '${node}' and this object` });

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function eventually(c: Cluster, input: Partial<AuthorizationAttributes>, want: AuthorizationResult): Promise<void> {
  await vi.waitFor(async () => expect(await c.node.mode.authorize(request(input))).toEqual(want), { timeout: 5000, interval: 2 });
}

async function replace(storage: Storage, obj: KubeObject, change: (next: KubeObject) => void): Promise<void> {
  await storage.guaranteedUpdate(keyOf(obj), {
    tryUpdate: ({ current }) => {
      const next = structuredClone(current!) as KubeObject;
      change(next);
      return next;
    },
  });
}

const byName = (name: string): KubeObject => CLUSTER.find((o) => o.metadata.name === name)!;
const B = nodeUser('node-b');

describe('node graph updates', () => {
  test('a deleted pod takes its secrets, and orphaned vertices, with it', async () => {
    const c = (cluster = await startCluster());
    const secretsBefore = c.node.graph.count('secret');
    await c.storage.delete(keyOf(byName('a1')));
    await eventually(c, { name: 's-vol' }, unrelated('node-a'));
    await eventually(c, { resource: 'persistentvolumes', namespace: '', name: 'pv-a' }, unrelated('node-a'));
    // csi-node stays: pv-a still names it; the a1-only secrets are gone.
    expect(c.node.graph.count('secret')).toBe(secretsBefore - 4);
    expect(await c.node.mode.authorize(request({ name: '__proto__' }))).toEqual(ALLOW);
  });

  test('a pod recreated on another node moves its access there', async () => {
    const c = (cluster = await startCluster());
    await c.storage.delete(keyOf(byName('b1')));
    await c.storage.create(keyOf(byName('b1')), { ...byName('b1'), metadata: { ...byName('b1').metadata, uid: 'uid-b1-again' }, spec: { ...(byName('b1').spec as object), nodeName: 'node-a' } });
    await eventually(c, { name: 's-b' }, ALLOW);
    await eventually(c, { user: B, name: 's-b' }, unrelated('node-b'));
    expect(await c.node.mode.authorize(request({ resource: 'persistentvolumes', namespace: '', name: 'pv-b' }))).toEqual(ALLOW);
  });

  test('binding a pending pod, then rewriting its node, follows spec.nodeName', async () => {
    const c = (cluster = await startCluster());
    await replace(c.storage, byName('pending'), (p) => ((p.spec as Record<string, unknown>).nodeName = 'node-b'));
    await eventually(c, { user: B, name: 's-pending' }, ALLOW);
    await replace(c.storage, byName('pending'), (p) => ((p.spec as Record<string, unknown>).nodeName = 'node-a'));
    await eventually(c, { name: 's-pending' }, ALLOW);
    await eventually(c, { user: B, name: 's-pending' }, unrelated('node-b'));
  });

  test('a template claim counts once status names it', async () => {
    const templated = pod('t1', 'node-a', { resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'tmpl' }] });
    const c = (cluster = await startCluster({ objects: [...CLUSTER, templated] }));
    const claim = { apiGroup: 'resource.k8s.io', resource: 'resourceclaims', name: 't1-gpu-x7' };
    expect(await c.node.mode.authorize(request(claim))).toEqual(unrelated('node-a'));
    await replace(c.storage, templated, (p) => (p.status = { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 't1-gpu-x7' }] }));
    await eventually(c, claim, ALLOW);
  });

  test('a PV rebound to another claim follows it', async () => {
    const c = (cluster = await startCluster());
    await replace(c.storage, byName('pv-a'), (pv) => ((pv.spec as Record<string, unknown>).claimRef = { namespace: 'default', name: 'claim-b' }));
    await eventually(c, { user: B, resource: 'persistentvolumes', namespace: '', name: 'pv-a' }, ALLOW);
    await eventually(c, { resource: 'persistentvolumes', namespace: '', name: 'pv-a' }, unrelated('node-a'));
    await eventually(c, { user: B, name: 'csi-node' }, ALLOW);
  });

  test('a broken watch re-lists and replays what it missed', async () => {
    const flaky = flakyStorage(createObjectStore({ kv: openMemoryKv() }));
    const c = (cluster = await startCluster({ storage: flaky.storage }));
    flaky.deliver = false;
    await c.storage.delete(keyOf(byName('a1')));
    await c.storage.create(keyOf(byName('b1')).replace('/b1', '/c1'), pod('c1', 'node-a', { volumes: [{ name: 'v', secret: { secretName: 's-c1' } }] }));
    // Nothing was delivered: the graph still holds the old state.
    expect(await c.node.mode.authorize(request({ name: 's-vol' }))).toEqual(ALLOW);
    flaky.deliver = true;
    flaky.breakAll();
    await eventually(c, { name: 's-c1' }, ALLOW);
    await eventually(c, { name: 's-vol' }, unrelated('node-a'));
  });
});

/** A Storage whose watches can stop delivering (a dead connection) and then fail. */
function flakyStorage(inner: Storage): { storage: Storage; deliver: boolean; breakAll(): void } {
  const open = new Set<{ opts: StorageWatchOptions; close(): void }>();
  const state = {
    deliver: true,
    breakAll() {
      for (const w of [...open]) {
        w.close();
        w.opts.onError(new StorageError('Compacted', 'too old resource version'));
      }
    },
    storage: Object.assign(Object.create(inner) as Storage, {
      watch(prefix: string, opts: StorageWatchOptions) {
        const watch = inner.watch(prefix, { ...opts, onEvent: (e) => state.deliver && opts.onEvent(e) });
        const entry = { opts, close: () => (open.delete(entry), watch.close()) };
        open.add(entry);
        return { close: entry.close };
      },
    }),
  };
  return state;
}
