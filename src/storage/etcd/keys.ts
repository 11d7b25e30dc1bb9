// Key layout and value conversion between the KV contract and etcd. Callers pass
// keys like `/configmaps/default/name`; etcd holds them under the configured
// prefix (kube-apiserver's --etcd-prefix, `/registry` by default), so several
// clusters or test cases can share one etcd without seeing each other.
import type { IKeyValue } from 'etcd3';
import type { KvEntry } from '../kv.js';

export interface KeySpace {
  /** The etcd key for a caller's key. */
  full(key: string): Buffer;
  /** The caller's key for an etcd key under the prefix. */
  strip(key: Buffer): string;
  /** [start, end) covering every etcd key that starts with the caller's prefix. */
  range(prefix: string): { start: Buffer; end: Buffer };
}

export function createKeySpace(prefix: string): KeySpace {
  const head = Buffer.from(prefix);
  return {
    full: (key) => Buffer.from(prefix + key),
    strip: (key) => key.toString('utf8', head.length),
    range: (p) => {
      const start = Buffer.from(prefix + p);
      return { start, end: prefixEnd(start) };
    },
  };
}

/**
 * The smallest key greater than every key starting with `start` (etcd's
 * "range_end = prefix + 1"): drop trailing 0xff bytes and increment the last one.
 * An all-0xff or empty prefix means "to the end of the keyspace", which etcd spells
 * as a single zero byte.
 */
export function prefixEnd(start: Buffer): Buffer {
  const end = Buffer.from(start);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

export function toEntry(keys: KeySpace, kv: IKeyValue): KvEntry {
  return {
    key: keys.strip(kv.key),
    value: kv.value,
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
  };
}
