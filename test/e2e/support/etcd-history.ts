// Reads etcd's own history of a kapi prefix (every create, update and delete
// since a revision), so a test can tell "made once" from "made, removed and made
// again" or "rewritten by two writers taking turns" — states that look the same
// in a final read. The servers under test must run with
// --etcd-compaction-interval=0 so the history asked for is still there.
import type { KV, KvEventType } from '../../../src/storage/kv.js';

export interface HistoryEvent {
  readonly type: KvEventType;
  readonly key: string;
  readonly revision: number;
  /** The stored bytes after the change (for a delete: the last value). */
  readonly value: Uint8Array;
}

/** Every change under the prefix with afterRevision < revision <= toRevision, in order. */
export async function etcdHistory(kv: KV, afterRevision: number, toRevision: number, ms = 10_000): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  if (toRevision <= afterRevision) return events;
  return new Promise((ok, fail) => {
    let reached = false;
    const finish = (err?: Error) => {
      if (reached) return;
      reached = true;
      clearTimeout(timer);
      watch.close();
      if (err === undefined) ok(events);
      else fail(err);
    };
    const timer = setTimeout(() => finish(new Error(`etcd history to revision ${toRevision}: got to ${events.at(-1)?.revision ?? afterRevision} within ${ms} ms`)), ms);
    const watch = kv.watch('/', {
      afterRevision,
      onEvents: (batch) => {
        for (const e of batch) if (e.revision <= toRevision) events.push({ type: e.type, key: e.key, revision: e.revision, value: e.value });
        if (batch.some((e) => e.revision >= toRevision)) finish();
      },
      onProgress: (revision) => {
        if (revision >= toRevision) finish();
      },
      onError: (err) => finish(err),
    });
  });
}

/** Per key: how many creates, updates and deletes the history holds. */
export function changesByKey(events: readonly HistoryEvent[]): Map<string, Record<KvEventType, number>> {
  const byKey = new Map<string, Record<KvEventType, number>>();
  for (const e of events) {
    const counts = byKey.get(e.key) ?? { create: 0, update: 0, delete: 0 };
    counts[e.type] += 1;
    byKey.set(e.key, counts);
  }
  return byKey;
}
