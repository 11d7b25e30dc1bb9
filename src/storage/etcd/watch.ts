// KV watches over etcd watch streams: one grpc stream per KvWatch, so a stream
// lost to an etcd restart is re-created from exactly where its consumer stands
// (the last delivered revision + 1) — never from the revision etcd last reported,
// which would skip events not yet delivered, and never earlier, which would
// repeat them. Resuming into compacted history ends the watch with Compacted.
import type { IDuplexStream, IEvent, IWatchRequest, IWatchResponse } from 'etcd3';
import { StorageError } from '../../errors/storage-error.js';
import type { KvEvent, KvWatch, KvWatchOptions } from '../kv.js';
import type { EtcdConnection } from './client.js';
import { toStorageError } from './errors.js';
import type { KeySpace } from './keys.js';

export interface WatchDeps {
  readonly conn: EtcdConnection;
  readonly keys: KeySpace;
  /** The highest revision this KV knows to be compacted (0: none). */
  readonly compactedRevision: () => number;
  /** How often to ask etcd for a progress notification (0: never). */
  readonly progressIntervalMs: number;
  /** How long a lost stream may keep failing to reconnect before Unavailable. */
  readonly reconnectTimeoutMs: number;
}

type Stream = IDuplexStream<IWatchRequest, IWatchResponse>;

/**
 * etcd before 3.4.31 (Debian ships 3.4.23) answers a progress request at once
 * with the store revision, even for a watcher still replaying history (etcd
 * issue 15220). So a watch that started in the past reports progress only once
 * its events reached the revision it was created at, or after this grace.
 */
const syncGraceMs = 1000;

export function startWatch(deps: WatchDeps, prefix: string, opts: KvWatchOptions): KvWatch {
  const range = deps.keys.range(prefix);
  let ended = false;
  let stream: Stream | undefined;
  // Last revision handed to onEvents (or known to precede the watch's start).
  let delivered = opts.afterRevision;
  // Store revision when the current stream's watcher was created: until events
  // reach it the watcher may be replaying history, and etcd before 3.4.31 answers
  // progress requests with the store revision even then (see docs/etcd.md).
  let createdAt = 0;
  let createdTime = 0;
  let synced = false;
  let failingSince: number | undefined;
  let backoffMs = 50;
  let retryTimer: NodeJS.Timeout | undefined;

  const progressTimer =
    deps.progressIntervalMs > 0
      ? setInterval(() => {
          if (stream !== undefined && createdAt > 0) stream.write({ progress_request: {} });
        }, deps.progressIntervalMs)
      : undefined;
  progressTimer?.unref();

  const teardown = (): void => {
    ended = true;
    if (progressTimer !== undefined) clearInterval(progressTimer);
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    if (stream !== undefined) closeStream(stream);
    stream = undefined;
  };

  const fail = (err: Error): void => {
    if (ended) return;
    teardown();
    opts.onError(err);
  };

  const compacted = (oldest: number): StorageError =>
    new StorageError('Compacted', `watch of ${prefix}: required revision has been compacted`, {
      key: prefix,
      revision: oldest,
    });

  // `from` is the stream that failed, or undefined when none could be opened.
  const lost = (from: Stream | undefined, err: unknown): void => {
    if (ended || from !== stream) return;
    if (from !== undefined) closeStream(from);
    stream = undefined;
    createdAt = 0;
    failingSince ??= Date.now();
    if (Date.now() - failingSince > deps.reconnectTimeoutMs) {
      const mapped = toStorageError(err, prefix);
      fail(mapped instanceof Error ? mapped : new StorageError('Unavailable', String(err), { key: prefix }));
      return;
    }
    retryTimer = setTimeout(connect, backoffMs);
    backoffMs = Math.min(backoffMs * 2, 1000);
  };

  const onData = (from: Stream, res: IWatchResponse): void => {
    if (ended || from !== stream) return;
    if (res.canceled) {
      const compactRevision = Number(res.compact_revision);
      if (compactRevision > 0) fail(compacted(compactRevision));
      else fail(new StorageError('Unavailable', `etcd canceled the watch: ${res.cancel_reason}`, { key: prefix }));
      return;
    }
    if (res.created) {
      createdAt = Number(res.header.revision);
      createdTime = Date.now();
      delivered ??= createdAt;
      synced = delivered >= createdAt;
      failingSince = undefined;
      backoffMs = 50;
      return;
    }
    if (res.events.length > 0) {
      deliver(res.events);
      return;
    }
    // No events, not created or canceled: a progress notification. etcd moves a
    // replaying watcher to "synced" within a few of its 100 ms sync rounds; past
    // that grace a quiet watch trusts progress too, or it would never get any.
    const revision = Number(res.header.revision);
    if (!synced && Date.now() - createdTime >= syncGraceMs) synced = true;
    if (synced && delivered !== undefined && revision > delivered) opts.onProgress?.(revision);
  };

  const deliver = (raw: readonly IEvent[]): void => {
    const after = delivered ?? 0;
    const events: KvEvent[] = [];
    for (const ev of raw) {
      const event = toEvent(deps.keys, ev);
      // Defensive: a resumed stream starts after `delivered`, so this only drops
      // something if etcd itself repeated an event.
      if (event.revision > after) events.push(event);
    }
    if (events.length === 0) return;
    delivered = events[events.length - 1]!.revision;
    if (delivered >= createdAt) synced = true;
    opts.onEvents(events);
  };

  const connect = (): void => {
    retryTimer = undefined;
    if (ended) return;
    if (delivered !== undefined && delivered < deps.compactedRevision()) {
      fail(compacted(deps.compactedRevision() + 1));
      return;
    }
    deps.conn.client.watchClient.watch().then(
      (s) => {
        if (ended) {
          closeStream(s);
          return;
        }
        stream = s;
        s.on('data', (res) => onData(s, res));
        s.on('error', (err) => lost(s, err));
        s.on('end', () => lost(s, new Error('etcd watch stream ended')));
        s.write({
          create_request: {
            key: range.start,
            range_end: range.end,
            start_revision: delivered === undefined ? 0 : delivered + 1,
            prev_kv: true,
            progress_notify: true,
          },
        });
      },
      // No stream at all (breaker open, no connection): same path as a lost one.
      (err: unknown) => lost(undefined, err),
    );
  };

  connect();
  return { close: teardown };
}

/**
 * Ends a stream without letting etcd3 mistake it for a host failure: its watch
 * client resets every channel of the host when a still-writable stream reports
 * an error, and a cancel reports CANCELLED. Half-closing first makes the stream
 * non-writable; etcd then ends the call, and cancel() frees it at once locally.
 */
function closeStream(s: Stream): void {
  s.on('error', () => {
    // Expected: CANCELLED from our own cancel() below.
  });
  s.end();
  s.cancel();
}

function toEvent(keys: KeySpace, ev: IEvent): KvEvent {
  const key = keys.strip(ev.kv.key);
  const revision = Number(ev.kv.mod_revision);
  const prev = ev.prev_kv ?? undefined;
  if (ev.type === 'Delete') {
    // etcd's delete event carries an empty kv; the last value is in prev_kv.
    const value = prev?.value ?? new Uint8Array();
    return {
      type: 'delete',
      key,
      value,
      previous: value,
      revision,
      createRevision: prev === undefined ? 0 : Number(prev.create_revision),
    };
  }
  const createRevision = Number(ev.kv.create_revision);
  if (createRevision === revision) {
    return { type: 'create', key, value: ev.kv.value, revision, createRevision };
  }
  return {
    type: 'update',
    key,
    value: ev.kv.value,
    ...(prev === undefined ? {} : { previous: prev.value }),
    revision,
    createRevision,
  };
}

/** A watch whose start revision is still being read; close() works meanwhile. */
export function startWatchAfter(
  deps: WatchDeps,
  prefix: string,
  opts: KvWatchOptions,
  afterRevision: Promise<number>,
): KvWatch {
  let closed = false;
  let inner: KvWatch | undefined;
  afterRevision.then(
    (revision) => {
      if (!closed) inner = startWatch(deps, prefix, { ...opts, afterRevision: revision });
    },
    (err: unknown) => {
      if (!closed) opts.onError(err instanceof Error ? err : new Error(String(err)));
    },
  );
  return {
    close() {
      closed = true;
      inner?.close();
    },
  };
}
