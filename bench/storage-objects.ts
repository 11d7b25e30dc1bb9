// The object layer's cost (object-store.ts over a KV): every figure is a ratio
// against the same KV driven with the same bytes directly, in the same run, so
// it isolates what encoding, decoding, resourceVersion stamping and the update
// loop add on top of the backend. Over SQLite (file, synchronous=FULL: the
// default server shape) and over the memory KV (no I/O: the worst case for the
// ratio, since object work is all there is).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../src/schema/object.js';
import type { KV } from '../src/storage/kv.js';
import { openMemoryKv } from '../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../src/storage/object-store.js';
import { openSqliteKv } from '../src/storage/sqlite/index.js';
import type { Storage } from '../src/storage/storage.js';
import { bestOf, ratioRow, throughput, type Bench, type BenchRow } from './lib.js';

const WRITES = 1000;
const LIST_SIZE = 5000;
const CONCURRENCY = 16;

/** A ConfigMap of about 2 KiB, the size the storage benches use. */
function configMap(name: string, rev: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'bench', uid: `uid-${name}`, labels: { app: 'bench' } },
    data: { rev: String(rev), blob: randomBytes(1500).toString('base64') },
  };
}

const bytesOf = (obj: KubeObject): Uint8Array => Buffer.from(JSON.stringify(obj), 'utf8');

interface Backend {
  readonly name: string;
  open(): Promise<KV>;
  cleanup(): void;
}

function backends(): Backend[] {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-bench-objects-'));
  let n = 0;
  return [
    {
      name: 'sqlite',
      open: async () => openSqliteKv({ path: join(dir, `b-${++n}.db`) }),
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    },
    { name: 'memory', open: async () => openMemoryKv(), cleanup: () => undefined },
  ];
}

async function measurePair(opts: {
  backend: Backend;
  raw: (kv: KV, i: number) => Promise<unknown>;
  objects: (store: Storage, i: number) => Promise<unknown>;
  setup?: (kv: KV, store: Storage, raw: boolean) => Promise<void>;
  total: number;
  concurrency: number;
}): Promise<{ baseline: number; measured: number }> {
  const run = async (raw: boolean): Promise<number> => {
    const kv = await opts.backend.open();
    const store = createObjectStore({ kv });
    try {
      await opts.setup?.(kv, store, raw);
      return await throughput({
        total: opts.total,
        concurrency: opts.concurrency,
        op: (i) => (raw ? opts.raw(kv, i) : opts.objects(store, i)),
      });
    } finally {
      await store.close();
    }
  };
  return { baseline: await bestOf(2, () => run(true)), measured: await bestOf(2, () => run(false)) };
}

async function benchBackend(backend: Backend): Promise<BenchRow[]> {
  const area = `storage/objects over ${backend.name}`;
  const rows: BenchRow[] = [];
  const seed = async (kv: KV, store: Storage, raw: boolean, count: number): Promise<void> => {
    for (let i = 0; i < count; i++) {
      if (raw) await kv.create(`/b/${i}`, bytesOf(configMap(`o${i}`, 0)));
      else await store.create(`/b/${i}`, configMap(`o${i}`, 0));
    }
  };
  for (const concurrency of [1, CONCURRENCY]) {
    const create = await measurePair({
      backend,
      total: WRITES,
      concurrency,
      raw: (kv, i) => kv.create(`/b/${i}`, bytesOf(configMap(`o${i}`, 0))),
      objects: (store, i) => store.create(`/b/${i}`, configMap(`o${i}`, 0)),
    });
    rows.push(ratioRow({ area, name: `create, ${concurrency} in flight`, baselineName: 'kv.create of the same bytes', unit: 'ops/s', ...create }));

    // Update = read + CAS write, on 100 keys so 16 in flight rarely collide.
    const update = await measurePair({
      backend,
      total: WRITES,
      concurrency,
      setup: (kv, store, raw) => seed(kv, store, raw, 100),
      raw: async (kv, i) => {
        const key = `/b/${i % 100}`;
        const cur = await kv.get(key);
        await kv.put(key, bytesOf(configMap(`o${i % 100}`, i + 1)), { expectedRevision: cur!.modRevision });
      },
      objects: (store, i) =>
        store.guaranteedUpdate(`/b/${i % 100}`, {
          tryUpdate: ({ current }) => ({ ...current!, data: configMap('x', i + 1)['data'] }),
        }),
    });
    rows.push(ratioRow({ area, name: `guaranteedUpdate, ${concurrency} in flight`, baselineName: 'kv.get + kv.put', unit: 'ops/s', ...update }));
  }

  const get = await measurePair({
    backend,
    total: WRITES * 5,
    concurrency: 1,
    setup: (kv, store, raw) => seed(kv, store, raw, 100),
    raw: (kv, i) => kv.get(`/b/${i % 100}`),
    objects: (store, i) => store.get(`/b/${i % 100}`),
  });
  rows.push(ratioRow({ area, name: 'get', baselineName: 'kv.get', unit: 'ops/s', ...get }));

  const list = await measurePair({
    backend,
    total: 5,
    concurrency: 1,
    setup: (kv, store, raw) => seed(kv, store, raw, LIST_SIZE),
    raw: (kv) => kv.list('/b/'),
    objects: (store) => store.list('/b/'),
  });
  rows.push(ratioRow({ area, name: `list of ${LIST_SIZE} (decoded)`, baselineName: 'kv.list (bytes)', unit: 'lists/s', ...list }));
  return rows;
}

export const bench: Bench = {
  name: 'storage-objects',
  async run() {
    const rows: BenchRow[] = [];
    for (const backend of backends()) {
      try {
        rows.push(...(await benchBackend(backend)));
      } finally {
        backend.cleanup();
      }
    }
    return rows;
  },
};

// Run alone: node dist/bench/storage-objects.js
if (import.meta.url === `file://${process.argv[1]}`) {
  const { formatTable } = await import('./lib.js');
  process.stdout.write(`${formatTable(await bench.run({ quick: false }))}\n`);
}
