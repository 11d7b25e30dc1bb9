// Child process of sqlite-crash.test.ts: writes to the SQLite KV as fast as it
// can (FULL durability) until it is killed, printing one line per acknowledged
// write, only after its promise resolved:
//   ack <op> <key> <revision> <value>
// The parent SIGKILLs it at an arbitrary moment and checks every printed write.
import { openSqliteKv } from '../../../src/storage/sqlite/index.js';
import { isStorageError } from '../../../src/errors/storage-error.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: crash-writer <db path>');
const kv = openSqliteKv({ path, synchronous: 'FULL' });
const tag = process.pid.toString(36);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function ack(op: string, key: string, revision: number, value: string): void {
  process.stdout.write(`ack ${op} ${key} ${revision} ${value}\n`);
}

/** One lane: a counter key updated by CAS, plus short-lived keys created and deleted. */
async function lane(id: number): Promise<void> {
  const key = `/configmaps/crash/lane-${id}`;
  let seen = await kv.get(key);
  if (seen === undefined) {
    const value = `${id}:0`;
    const { revision } = await kv.create(key, encoder.encode(value));
    ack('create', key, revision, value);
    seen = await kv.get(key);
  }
  for (let n = 1; ; n++) {
    const value = `${id}:${Number(decoder.decode(seen!.value).split(':')[1]) + 1}`;
    try {
      const { revision } = await kv.put(key, encoder.encode(value), { expectedRevision: seen!.modRevision });
      ack('put', key, revision, value);
      seen = { ...seen!, value: encoder.encode(value), modRevision: revision };
    } catch (err) {
      if (!isStorageError(err, 'Conflict')) throw err;
      seen = err.current!;
    }
    const temp = `/configmaps/crash/tmp-${tag}-${id}-${Math.floor(n / 2)}`;
    if (n % 2 === 0) {
      const { revision } = await kv.create(temp, encoder.encode('t'));
      ack('create', temp, revision, 't');
    } else if (n > 1) {
      // Odd n deletes the key the previous (even) n created: same index.
      const { revision } = await kv.delete(temp);
      ack('delete', temp, revision, '-');
    }
  }
}

await Promise.all(Array.from({ length: 8 }, (_, i) => lane(i)));
