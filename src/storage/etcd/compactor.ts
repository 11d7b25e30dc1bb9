// Periodic compaction, the way kube-apiserver's etcd3 compactor does it: every
// interval, compact to the revision observed one interval earlier, so at least
// one interval of history always stays readable for watches that resume. Several
// API servers share the work through one etcd key, `compact_rev_key` (the same key
// kube-apiserver uses): a tick only compacts if that key's version is the one this
// server last saw, so within an interval one server wins and the rest skip.
import type { EtcdConnection } from './client.js';
import { isCompactedError } from './errors.js';

export const compactRevKey = Buffer.from('compact_rev_key');

export interface EtcdLogger {
  warn(obj: object, msg: string): void;
}

export interface CompactorOptions {
  readonly conn: EtcdConnection;
  readonly intervalMs: number;
  readonly logger: EtcdLogger;
  /** Told the revision each successful compaction forgot history up to. */
  readonly onCompacted: (revision: number) => void;
}

export interface Compactor {
  stop(): void;
}

export function startCompactor(opts: CompactorOptions): Compactor {
  // `seenVersion` is our clock: the version of compact_rev_key after our last
  // look. `pending` is the revision observed at the previous tick (0: none yet).
  let seenVersion = 0;
  let pending = 0;
  let running = false;

  const tick = async (): Promise<void> => {
    const { kv } = opts.conn.client;
    const res = await opts.conn.run('write', undefined, () =>
      kv.txn({
        compare: [{ key: compactRevKey, target: 'Version', result: 'Equal', version: seenVersion }],
        success: [{ request_put: { key: compactRevKey, value: Buffer.from(String(pending)) } }],
        failure: [{ request_range: { key: compactRevKey } }],
      }),
    );
    const observed = Number(res.header.revision);
    if (!res.succeeded) {
      // Another server compacted in this interval: adopt its clock and start over.
      const current = res.responses[0]?.response_range.kvs[0];
      seenVersion = current === undefined ? 0 : Number(current.version);
      pending = observed;
      return;
    }
    seenVersion++;
    const target = pending;
    pending = observed;
    // The very first tick has nothing a full interval old to compact.
    if (target === 0) return;
    try {
      await opts.conn.run('write', undefined, () => kv.compact({ revision: target }));
    } catch (err) {
      // "Already compacted": someone compacted further; history is gone all the same.
      if (!isCompactedError(err)) throw err;
    }
    opts.onCompacted(target);
  };

  const timer = setInterval(() => {
    // A slow etcd must not stack ticks on top of each other.
    if (running) return;
    running = true;
    tick()
      .catch((err: unknown) => {
        // Compaction is housekeeping: a failed tick is retried next interval, and
        // "already compacted" just means another server got there first.
        opts.logger.warn({ err }, 'etcd periodic compaction failed');
      })
      .finally(() => {
        running = false;
      });
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
