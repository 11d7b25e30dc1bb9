// Memory-KV specifics the shared KV suite does not pin: etcd's starting revision,
// isolation of stored bytes from callers, compaction forgetting tombstones, and
// delivery outside the writer's call stack.
import { describe, expect, test } from 'vitest';
import { isStorageError } from '../../src/errors/storage-error.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';

const text = (v: Uint8Array | undefined): string | undefined => (v === undefined ? undefined : Buffer.from(v).toString('utf8'));

describe('memory KV', () => {
  test('starts at revision 1 like etcd; the first write is revision 2', async () => {
    const kv = openMemoryKv();
    expect(await kv.currentRevision()).toBe(1);
    expect(await kv.oldestRevision()).toBe(1);
    expect((await kv.create('/a', Buffer.from('x'))).revision).toBe(2);
  });

  test('callers mutating bytes they passed in or got back change nothing stored', async () => {
    const kv = openMemoryKv();
    const input = Buffer.from('abc');
    await kv.create('/a', input);
    input[0] = 0x7a;
    const read = await kv.get('/a');
    read!.value[1] = 0x7a;
    expect(text((await kv.get('/a'))?.value)).toBe('abc');
    expect(text((await kv.list('/')).entries[0]?.value)).toBe('abc');
  });

  const compactionRows: { name: string; readAt: 'created' | 'updated' | 'deleted' | 'latest'; want: string | undefined | 'Compacted' }[] = [
    { name: 'a read before the compacted revision', readAt: 'created', want: 'Compacted' },
    { name: 'a read at the compacted revision', readAt: 'updated', want: 'Compacted' },
    { name: 'a read after it sees the state then', readAt: 'deleted', want: undefined },
    { name: 'the latest read sees the live key', readAt: 'latest', want: 'b2' },
  ];
  for (const row of compactionRows) {
    test(`after compaction: ${row.name}`, async () => {
      const kv = openMemoryKv();
      const created = (await kv.create('/a', Buffer.from('a1'))).revision;
      const updated = (await kv.put('/a', Buffer.from('a2'), { expectedRevision: created })).revision;
      const deleted = (await kv.delete('/a')).revision;
      const b = (await kv.create('/b', Buffer.from('b1'))).revision;
      await kv.put('/b', Buffer.from('b2'), { expectedRevision: b });
      await kv.compact(updated);
      expect(await kv.oldestRevision()).toBe(updated + 1);
      const revision = { created, updated, deleted, latest: 0 }[row.readAt];
      const read = kv.get(row.readAt === 'latest' ? '/b' : '/a', { revision });
      if (row.want === 'Compacted') {
        await expect(read).rejects.toSatisfy((e) => isStorageError(e, 'Compacted'));
      } else {
        expect(text((await read)?.value)).toBe(row.want);
      }
      // The deleted key's tombstone is gone once nothing can read it.
      await kv.compact(deleted);
      expect((await kv.list('/')).entries.map((e) => e.key)).toEqual(['/b']);
    });
  }

  test('events are delivered after the write returns, never inside it', async () => {
    const kv = openMemoryKv();
    let writing = false;
    const seenWhileWriting: boolean[] = [];
    const delivered = new Promise<void>((resolve) => {
      kv.watch('/', {
        onEvents: (events) => {
          seenWhileWriting.push(writing);
          if (events.some((e) => e.key === '/b')) resolve();
        },
        onError: () => undefined,
      });
    });
    writing = true;
    const first = kv.create('/a', Buffer.from('1'));
    const second = kv.create('/b', Buffer.from('2'));
    writing = false;
    await Promise.all([first, second, delivered]);
    expect(seenWhileWriting.every((w) => !w)).toBe(true);
  });

  test('operations after close are Unavailable', async () => {
    const kv = openMemoryKv();
    await kv.close();
    await expect(kv.get('/a')).rejects.toSatisfy((e) => isStorageError(e, 'Unavailable'));
    await expect(kv.create('/a', Buffer.from('1'))).rejects.toSatisfy((e) => isStorageError(e, 'Unavailable'));
  });
});

describe('memory KV watch errors', () => {
  test('a watch closed before its Compacted error is delivered hears nothing', async () => {
    const kv = openMemoryKv();
    const first = (await kv.create('/a', Buffer.from('1'))).revision;
    const second = (await kv.put('/a', Buffer.from('2'), { expectedRevision: first })).revision;
    await kv.compact(second);
    const errors: Error[] = [];
    kv.watch('/', { afterRevision: first - 1, onEvents: () => undefined, onError: (e) => errors.push(e) }).close();
    // A second watch from the same revision fails the same way; once it has heard, so would the first.
    const heard = await new Promise<Error>((resolve) => {
      kv.watch('/', { afterRevision: first - 1, onEvents: () => undefined, onError: resolve });
    });
    expect(isStorageError(heard, 'Compacted')).toBe(true);
    expect(errors).toEqual([]);
  });
});
