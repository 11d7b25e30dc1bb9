// etcd-only behaviour the shared KV suite cannot express: surviving an etcd
// restart, resuming a watch into history compacted while it was cut off, the
// retry/breaker policy, unreachable etcd, the grpc message limit, key prefixes
// and periodic compaction. One private etcd for the whole file.
import { randomBytes } from 'node:crypto';
import { afterEach, expect, test } from 'vitest';
import { isStorageError, StorageError, type StorageErrorCode } from '../../src/errors/storage-error.js';
import type { KV } from '../../src/storage/kv.js';
import { openEtcdKv, type EtcdKvOptions } from '../../src/storage/etcd/index.js';
import { collectWatch } from '../../src/storage/testing/kv-watch-collector.js';
import { describeWithEtcd, startTcpProxy, type TcpProxy } from '../support/etcd.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

async function storageErrorOf(promise: Promise<unknown>): Promise<StorageError> {
  try {
    await promise;
  } catch (err) {
    if (isStorageError(err)) return err;
    throw new Error(`expected a StorageError, got ${String(err)}`, { cause: err });
  }
  throw new Error('expected a StorageError, the call succeeded');
}

/** Polls `cond` (async) until true; throws after `timeoutMs`. */
async function eventually(what: string, cond: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithEtcd('etcd KV specifics', (ctx) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const open = (opts: Partial<EtcdKvOptions> = {}): KV => {
    const kv = openEtcdKv({
      endpoints: [ctx.etcd.endpoint],
      prefix: `/t-${randomBytes(4).toString('hex')}`,
      compactionIntervalMs: 0,
      ...opts,
    });
    cleanups.push(() => kv.close());
    return kv;
  };
  const proxy = async (): Promise<TcpProxy> => {
    const p = await startTcpProxy(ctx.etcd.endpoint);
    cleanups.push(() => p.close());
    return p;
  };

  test('keys live under the prefix, invisible to a KV with another prefix', async () => {
    const prefix = `/p-${randomBytes(4).toString('hex')}`;
    const a = open({ prefix });
    const b = open({ prefix: `${prefix}x` });
    await a.create('/configmaps/default/one', enc('1'));
    expect(dec((await a.get('/configmaps/default/one'))?.value)).toBe('1');
    expect(await b.get('/configmaps/default/one')).toBeUndefined();
    expect(await b.count('/')).toBe(0);
    expect(await a.count('/')).toBe(1);
  });

  test('write failures carry the right code and the current entry', async () => {
    const kv = open();
    const { revision } = await kv.create('/k', enc('v1'));
    const cases: Array<{ name: string; call: () => Promise<unknown>; code: StorageErrorCode; current?: string }> = [
      { name: 'create existing', call: () => kv.create('/k', enc('x')), code: 'Exists', current: 'v1' },
      { name: 'put stale', call: () => kv.put('/k', enc('x'), { expectedRevision: revision - 1 }), code: 'Conflict', current: 'v1' },
      { name: 'put expecting 0', call: () => kv.put('/k', enc('x'), { expectedRevision: 0 }), code: 'Conflict', current: 'v1' },
      { name: 'put absent', call: () => kv.put('/nope', enc('x'), { expectedRevision: 0 }), code: 'NotFound' },
      { name: 'delete stale', call: () => kv.delete('/k', { expectedRevision: revision + 1 }), code: 'Conflict', current: 'v1' },
      { name: 'delete absent', call: () => kv.delete('/nope'), code: 'NotFound' },
    ];
    for (const c of cases) {
      const err = await storageErrorOf(c.call());
      expect({ name: c.name, code: err.code, current: dec(err.current?.value) }).toEqual({
        name: c.name,
        code: c.code,
        current: c.current,
      });
    }
    // Nothing above wrote: the key is still at its first revision.
    expect((await kv.get('/k'))?.modRevision).toBe(revision);
  });

  test('a list larger than grpc-js default 4 MiB receive limit comes back whole', async () => {
    const kv = open();
    const value = randomBytes(2048);
    const total = 2600; // 2600 × 2 KiB ≈ 5.3 MiB in one range response
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < total) {
          const i = next++;
          await kv.create(`/big/${String(i).padStart(5, '0')}`, value);
        }
      }),
    );
    const list = await kv.list('/big/');
    expect({ n: list.entries.length, more: list.more, last: list.entries.at(-1)?.key }).toEqual({
      n: total,
      more: false,
      last: '/big/02599',
    });
  }, 60_000);

  test('failed requests do not trip the breaker for the next valid one', async () => {
    const kv = open();
    await kv.create('/ok', enc('fine'));
    // etcd refuses requests over --max-request-bytes (1.5 MiB) with
    // RESOURCE_EXHAUSTED, which etcd3's default policy retries and counts against
    // the host: five in a row used to open its breaker for the next request.
    const huge = randomBytes(2 * 1024 * 1024);
    for (let i = 0; i < 5; i++) {
      await expect(kv.create(`/huge-${i}`, huge)).rejects.toThrow(/RESOURCE_EXHAUSTED|request is too large/);
    }
    expect(dec((await kv.get('/ok'))?.value)).toBe('fine');
  });

  test('unreachable etcd gives Unavailable within the dial timeout', async () => {
    const p = await proxy();
    p.cut();
    const kv = open({ endpoints: [p.endpoint], dialTimeoutMs: 300 });
    const started = Date.now();
    const cases = [
      { name: 'get', call: () => kv.get('/x') },
      { name: 'create', call: () => kv.create('/x', enc('1')) },
      { name: 'list', call: () => kv.list('/') },
    ];
    for (const c of cases) {
      expect({ name: c.name, code: (await storageErrorOf(c.call())).code }).toEqual({ name: c.name, code: 'Unavailable' });
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    // Once etcd is reachable again the same client recovers.
    p.resume();
    await eventually('recovery', async () => (await kv.create('/x', enc('1')).then(() => true, () => false)));
    expect(dec((await kv.get('/x'))?.value)).toBe('1');
  });

  test('a watch survives an etcd restart with no lost or duplicated events', async () => {
    const kv = open({ dialTimeoutMs: 10_000 });
    const watch = collectWatch(kv, '/r/');
    const revisions: number[] = [];
    const write = async (i: number): Promise<void> => {
      revisions.push((await kv.create(`/r/${i}`, enc(String(i)))).revision);
    };
    for (let i = 0; i < 5; i++) await write(i);
    await watch.waitForEvents(5);
    await ctx.etcd.restart();
    // These writes race the watch's reconnection: they land before or after its
    // new stream is created, and must arrive exactly once either way.
    for (let i = 5; i < 10; i++) await write(i);
    await watch.waitForEvents(10);
    watch.close();
    expect({
      revisions: watch.events.map((e) => e.revision),
      types: [...new Set(watch.events.map((e) => e.type))],
      violations: watch.violations,
      errors: watch.errors.map(String),
    }).toEqual({ revisions, types: ['create'], violations: [], errors: [] });
  }, 30_000);

  test('a cut-off watch replays what it missed on reconnect, with prev values', async () => {
    const p = await proxy();
    const prefix = `/cut-${randomBytes(4).toString('hex')}`;
    const writer = open({ prefix });
    const reader = open({ prefix, endpoints: [p.endpoint] });
    const first = await writer.create('/w/a', enc('1'));
    const watch = collectWatch(reader, '/w/', { afterRevision: first.revision });
    await writer.put('/w/a', enc('2'), { expectedRevision: first.revision });
    await watch.waitForEvents(1);
    p.cut();
    const put = await writer.put('/w/a', enc('3'), { expectedRevision: (await writer.get('/w/a'))!.modRevision });
    const del = await writer.delete('/w/a');
    p.resume();
    await watch.waitForEvents(3);
    watch.close();
    expect(
      watch.events.map((e) => ({ type: e.type, revision: e.revision, value: dec(e.value), previous: dec(e.previous) })),
    ).toEqual([
      { type: 'update', revision: first.revision + 1, value: '2', previous: '1' },
      { type: 'update', revision: put.revision, value: '3', previous: '2' },
      { type: 'delete', revision: del.revision, value: '3', previous: '3' },
    ]);
    expect(watch.errors).toEqual([]);
  });

  test('a watch resuming into history compacted while it was cut off ends with Compacted', async () => {
    const p = await proxy();
    const prefix = `/cmp-${randomBytes(4).toString('hex')}`;
    const writer = open({ prefix });
    const reader = open({ prefix, endpoints: [p.endpoint] });
    const watch = collectWatch(reader, '/w/', { afterRevision: await reader.currentRevision() });
    const first = await writer.create('/w/a', enc('1'));
    await watch.waitForEvents(1);
    p.cut();
    const second = await writer.put('/w/a', enc('2'), { expectedRevision: first.revision });
    await writer.put('/w/a', enc('3'), { expectedRevision: second.revision });
    // Forget the revision the watch needs next (second) while it cannot see it.
    await writer.compact(second.revision + 1);
    p.resume();
    const err = await watch.waitForError();
    watch.close();
    expect({ code: isStorageError(err) ? err.code : String(err), events: watch.events.length }).toEqual({
      code: 'Compacted',
      events: 1,
    });
  });

  test('closing one watch leaves other watches and requests on the connection alone', async () => {
    const kv = open();
    const kept = collectWatch(kv, '/c/');
    const closed = collectWatch(kv, '/c/');
    await kv.create('/c/1', enc('1'));
    await kept.waitForEvents(1);
    await closed.waitForEvents(1);
    closed.close();
    await kv.create('/c/2', enc('2'));
    await kept.waitForEvents(2);
    kept.close();
    expect({ kept: kept.events.length, closed: closed.events.length, errors: [...kept.errors, ...closed.errors] }).toEqual({
      kept: 2,
      closed: 1,
      errors: [],
    });
  });

  test('closing the KV ends its watches quietly', async () => {
    const prefix = `/kc-${randomBytes(4).toString('hex')}`;
    const closing = openEtcdKv({ endpoints: [ctx.etcd.endpoint], prefix, compactionIntervalMs: 0 });
    const writer = open({ prefix });
    const start = await writer.currentRevision();
    const gone = collectWatch(closing, '/w/', { afterRevision: start });
    const control = collectWatch(writer, '/w/', { afterRevision: start });
    await closing.close();
    const { revision } = await writer.create('/w/a', enc('1'));
    await control.waitForRevision(revision);
    control.close();
    expect({ events: gone.events.length, errors: gone.errors.map(String) }).toEqual({ events: 0, errors: [] });
  });

  test('watches report progress from etcd progress notifications', async () => {
    const kv = open({ progressIntervalMs: 50 });
    const watch = collectWatch(kv, '/quiet/');
    const { revision } = await kv.create('/elsewhere', enc('x'));
    await eventually('progress at or after the unrelated write', async () =>
      watch.progress.some((r) => r >= revision),
    );
    watch.close();
    expect(watch.events).toEqual([]);
  });

  test('periodic compaction forgets history older than one interval', async () => {
    const kv = open({ compactionIntervalMs: 150 });
    const first = await kv.create('/pc', enc('1'));
    await kv.put('/pc', enc('2'), { expectedRevision: first.revision });
    await eventually('compaction past the first write', async () => (await kv.oldestRevision()) > first.revision);
    const err = await storageErrorOf(kv.get('/pc', { revision: first.revision }));
    expect({ code: err.code, latest: dec((await kv.get('/pc'))?.value) }).toEqual({ code: 'Compacted', latest: '2' });
    await kv.close();
    // A KV that never compacted itself still learns the compacted revision from etcd.
    const other = open();
    expect(await other.oldestRevision()).toBeGreaterThan(first.revision);
  });
});
