// The SQLite KV's in-memory cache of latest values (src/storage/sqlite/latest-cache.ts):
// exact after every kind of write, bypassed by reads at older revisions, bounded.
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteKv, type SqliteKv } from '../../src/storage/sqlite/index.js';

const bytes = (s: string): Uint8Array => Buffer.from(s);
const text = (v: Uint8Array | undefined): string | undefined => (v === undefined ? undefined : Buffer.from(v).toString());

describe('sqlite latest cache', () => {
  let kv: SqliteKv;
  afterEach(async () => kv.close());

  it('follows creates, updates, deletes and re-creates of a cached key', async () => {
    kv = openSqliteKv({ path: ':memory:' });
    const first = await kv.create('/a', bytes('one'));
    expect(text((await kv.get('/a'))?.value)).toBe('one');
    expect(kv.stats().cachedKeys).toBe(1);

    const second = await kv.put('/a', bytes('two'), { expectedRevision: first.revision });
    const afterPut = await kv.get('/a');
    expect(text(afterPut?.value)).toBe('two');
    expect(afterPut?.modRevision).toBe(second.revision);
    expect(afterPut?.createRevision).toBe(first.revision);

    await kv.delete('/a');
    expect(await kv.get('/a')).toBeUndefined();
    expect(kv.stats().cachedKeys).toBe(0);

    const again = await kv.create('/a', bytes('three'));
    const recreated = await kv.get('/a');
    expect(text(recreated?.value)).toBe('three');
    expect(recreated?.createRevision).toBe(again.revision);
  });

  it('answers reads at an older revision from the log, not the cache', async () => {
    kv = openSqliteKv({ path: ':memory:' });
    const first = await kv.create('/a', bytes('one'));
    await kv.put('/a', bytes('two'), { expectedRevision: first.revision });
    expect(text((await kv.get('/a'))?.value)).toBe('two');
    expect(text((await kv.get('/a', { revision: first.revision }))?.value)).toBe('one');
  });

  it('a failed precondition leaves the cached entry as it was', async () => {
    kv = openSqliteKv({ path: ':memory:' });
    const first = await kv.create('/a', bytes('one'));
    await kv.get('/a');
    await expect(kv.put('/a', bytes('lost'), { expectedRevision: first.revision + 5 })).rejects.toMatchObject({ code: 'Conflict' });
    const entry = await kv.get('/a');
    expect(text(entry?.value)).toBe('one');
    expect(entry?.modRevision).toBe(first.revision);
  });

  it('stays within its byte bound, oldest out, and still answers evicted keys', async () => {
    kv = openSqliteKv({ path: ':memory:', latestCacheBytes: 10_000 });
    const value = 'v'.repeat(1000);
    for (let i = 0; i < 50; i++) await kv.create(`/k/${i}`, bytes(`${i}:${value}`));
    for (let i = 0; i < 50; i++) expect(text((await kv.get(`/k/${i}`))?.value)).toBe(`${i}:${value}`);
    const cached = kv.stats().cachedKeys;
    expect(cached).toBeGreaterThan(0);
    expect(cached).toBeLessThan(10);
    // The first keys were evicted; reading them again is still right.
    expect(text((await kv.get('/k/0'))?.value)).toBe(`0:${value}`);
  });

  it('is off with latestCacheBytes 0', async () => {
    kv = openSqliteKv({ path: ':memory:', latestCacheBytes: 0 });
    await kv.create('/a', bytes('one'));
    expect(text((await kv.get('/a'))?.value)).toBe('one');
    expect(kv.stats().cachedKeys).toBe(0);
  });
});

describe('LatestCache bookkeeping', () => {
  it('keeps its eviction order bounded while reads keep missing and keys keep changing', async () => {
    const { LatestCache } = await import('../../src/storage/sqlite/latest-cache.js');
    const cache = new LatestCache(50_000);
    const value = new Uint8Array(1000);
    for (let i = 0; i < 100_000; i++) {
      const key = `/k/${i % 5000}`;
      cache.remember({ key, value, createRevision: 1, modRevision: i + 1 });
      if (i % 3 === 0) cache.apply([{ type: 'update', key, value, revision: i + 2, createRevision: 1 }]);
    }
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.size).toBeLessThanOrEqual(50);
    expect(cache.orderSlots).toBeLessThan(4 * 1024);
    expect(cache.get('/k/4999')?.modRevision).toBeGreaterThan(0);
  });
});
