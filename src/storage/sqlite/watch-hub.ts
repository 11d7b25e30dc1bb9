// Watches are pushed, never polled: the writer hands each committed batch to
// publish() synchronously after the commit. A watch from the past first replays
// the log in chunks (one chunk per event-loop turn, so a long replay does not
// stall writers) while it ignores live batches; once a chunk comes back short it
// has read every committed row, and since reads, commits and this switch all run
// synchronously on one thread, it turns live at exactly the committed revision:
// no gap, no duplicate.
import type { KvEvent, KvWatch, KvWatchOptions } from '../kv.js';
import { StorageError } from '../../errors/storage-error.js';
import { EVENT_CREATE, EVENT_DELETE } from './schema.js';
import { prefixEnd } from './key-range.js';
import type { Statements, WatchRow } from './statements.js';
import type { RevisionState } from './state.js';

/** Log rows read per replay step: large enough to be cheap, small enough not to block. */
const REPLAY_CHUNK = 1000;

type WatcherMode = 'replay' | 'live' | 'closed';

interface Watcher {
  readonly prefix: string;
  readonly high: string;
  readonly opts: KvWatchOptions;
  /** Every matching change up to this revision has been delivered. */
  lastDelivered: number;
  mode: WatcherMode;
}

export interface WatchHubOptions {
  readonly st: Statements;
  readonly state: RevisionState;
}

/** A delete's row holds no value: the event carries the one it deleted, like etcd's. */
export function eventOf(row: WatchRow): KvEvent {
  const base = { key: row.key, revision: row.revision, createRevision: row.create_revision };
  if (row.type === EVENT_CREATE) return { ...base, type: 'create', value: row.value! };
  if (row.type === EVENT_DELETE) return { ...base, type: 'delete', value: row.previous!, previous: row.previous! };
  return { ...base, type: 'update', value: row.value!, previous: row.previous! };
}

export class WatchHub {
  private readonly watchers = new Set<Watcher>();

  constructor(private readonly opts: WatchHubOptions) {}

  get size(): number {
    return this.watchers.size;
  }

  /** Whether any watcher would hear of a change to key (so its event needs the previous value). */
  covers(key: string): boolean {
    for (const w of this.watchers) if (key.startsWith(w.prefix)) return true;
    return false;
  }

  watch(prefix: string, opts: KvWatchOptions): KvWatch {
    const { state } = this.opts;
    const from = opts.afterRevision ?? state.revision;
    const w: Watcher = { prefix, high: prefixEnd(prefix), opts, lastDelivered: from, mode: 'replay' };
    this.watchers.add(w);
    if (from >= state.revision) w.mode = 'live';
    else setImmediate(() => this.replay(w));
    return { close: () => this.remove(w) };
  }

  /** Delivers one committed batch (events in revision order) to every live watcher. */
  publish(events: readonly KvEvent[], revision: number): void {
    for (const w of this.watchers) {
      if (w.mode !== 'live' || w.lastDelivered >= revision) continue;
      const matching = events.filter((e) => e.revision > w.lastDelivered && e.key.startsWith(w.prefix));
      w.lastDelivered = revision;
      if (matching.length > 0 && !this.deliver(w, matching)) continue;
      this.progress(w, revision);
    }
  }

  /** Ends every watch silently (the store is closing). */
  closeAll(): void {
    for (const w of this.watchers) this.remove(w);
  }

  private replay(w: Watcher): void {
    if (w.mode !== 'replay') return;
    const { st, state } = this.opts;
    // Rows at or below the compacted revision may already be gone: the replay can
    // no longer promise "no gap".
    if (w.lastDelivered < state.compacted) {
      this.fail(w, new StorageError('Compacted', `watch from revision ${w.lastDelivered} needs compacted history`, {
        revision: state.compacted + 1,
      }));
      return;
    }
    const rows = st.watchRange.all(w.lastDelivered, w.prefix, w.high, REPLAY_CHUNK);
    if (rows.length > 0) {
      w.lastDelivered = rows[rows.length - 1]!.revision;
      if (!this.deliver(w, rows.map(eventOf))) return;
    }
    if (rows.length < REPLAY_CHUNK) {
      w.lastDelivered = state.revision;
      w.mode = 'live';
      this.progress(w, state.revision);
      return;
    }
    setImmediate(() => this.replay(w));
  }

  /** Returns false when the consumer threw and the watch was ended. */
  private deliver(w: Watcher, events: readonly KvEvent[]): boolean {
    try {
      w.opts.onEvents(events);
      return true;
    } catch (cause) {
      // A throwing consumer must not break the writer that is publishing; the
      // watch ends so the consumer learns it missed events instead of skipping them.
      this.fail(w, new StorageError('Unavailable', `watch consumer failed: ${String(cause)}`, { cause }));
      return false;
    }
  }

  private progress(w: Watcher, revision: number): void {
    if (w.mode !== 'live' || w.opts.onProgress === undefined) return;
    try {
      w.opts.onProgress(revision);
    } catch (cause) {
      this.fail(w, new StorageError('Unavailable', `watch progress consumer failed: ${String(cause)}`, { cause }));
    }
  }

  private fail(w: Watcher, err: Error): void {
    if (w.mode === 'closed') return;
    this.remove(w);
    w.opts.onError(err);
  }

  private remove(w: Watcher): void {
    w.mode = 'closed';
    this.watchers.delete(w);
  }
}
