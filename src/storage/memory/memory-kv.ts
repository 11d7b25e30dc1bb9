// The KV contract held in process memory: the fast backend for unit tests of
// everything above storage/. It keeps etcd's model exactly (one global revision
// starting at 1, per-key version history, tombstones, compaction that forgets
// history, CAS errors carrying the current entry) so code tested over it behaves
// the same over SQLite and etcd. Nothing here survives the process.
import { StorageError } from '../../errors/storage-error.js';
import type {
  KV,
  KvDeleteOptions,
  KvDeleteResult,
  KvEntry,
  KvEvent,
  KvGetOptions,
  KvListOptions,
  KvListResult,
  KvPutOptions,
  KvWatch,
  KvWatchOptions,
  KvWriteResult,
} from '../kv.js';
import { KeySpace, copy, toEntry } from './history.js';
import { MemoryWatcher } from './watchers.js';

export interface MemoryKvOptions {
  /**
   * Wall clock in milliseconds. Accepted for parity with the other backends'
   * open options (time-based retention); the memory KV compacts only when asked.
   */
  readonly clock?: () => number;
}

export function openMemoryKv(_opts: MemoryKvOptions = {}): KV {
  return new MemoryKv();
}

class MemoryKv implements KV {
  // etcd's first revision is 1 (an empty cluster already reports it); we match,
  // so the first write is revision 2 and "0" never names a real list revision.
  private revision = 1;
  private compacted = 0;
  private readonly keys = new KeySpace();
  /** Every change since the last compaction, ascending: replayed to watches from the past. */
  private events: KvEvent[] = [];
  private readonly watchers = new Set<MemoryWatcher>();
  private closed = false;

  async get(key: string, opts: KvGetOptions = {}): Promise<KvEntry | undefined> {
    const at = this.readRevision(opts.revision);
    const version = this.keys.versionAt(key, at);
    return version?.value === undefined ? undefined : toEntry(key, version);
  }

  async list(prefix: string, opts: KvListOptions = {}): Promise<KvListResult> {
    const at = this.readRevision(opts.revision);
    const limit = opts.limit ?? 0;
    const entries: KvEntry[] = [];
    let remaining = 0;
    for (const key of this.keys.keysFrom(prefix, opts.after)) {
      const version = this.keys.versionAt(key, at);
      if (version?.value === undefined) continue;
      if (limit > 0 && entries.length >= limit) remaining++;
      else entries.push(toEntry(key, version));
    }
    // `remaining` is free here (we scanned anyway); etcd's range count gives the same.
    return { entries, revision: at, more: remaining > 0, remaining };
  }

  async count(prefix: string): Promise<number> {
    return (await this.list(prefix)).entries.length;
  }

  async create(key: string, value: Uint8Array): Promise<KvWriteResult> {
    this.ensureOpen();
    const latest = this.keys.latest(key);
    if (latest?.value !== undefined) {
      throw new StorageError('Exists', `key ${key} already exists`, { key, current: toEntry(key, latest) });
    }
    const revision = ++this.revision;
    this.commit({ type: 'create', key, value: copy(value), revision, createRevision: revision });
    return { revision };
  }

  async put(key: string, value: Uint8Array, opts: KvPutOptions): Promise<KvWriteResult> {
    this.ensureOpen();
    const latest = this.live(key);
    if (latest.revision !== opts.expectedRevision) {
      throw new StorageError('Conflict', `key ${key} is at revision ${latest.revision}, not ${opts.expectedRevision}`, {
        key,
        current: toEntry(key, latest),
      });
    }
    const revision = ++this.revision;
    this.commit({
      type: 'update',
      key,
      value: copy(value),
      previous: latest.value,
      revision,
      createRevision: latest.createRevision,
    });
    return { revision };
  }

  async delete(key: string, opts: KvDeleteOptions = {}): Promise<KvDeleteResult> {
    this.ensureOpen();
    const latest = this.live(key);
    if (opts.expectedRevision !== undefined && latest.revision !== opts.expectedRevision) {
      throw new StorageError('Conflict', `key ${key} is at revision ${latest.revision}, not ${opts.expectedRevision}`, {
        key,
        current: toEntry(key, latest),
      });
    }
    const previous = toEntry(key, latest);
    const revision = ++this.revision;
    this.commit({
      type: 'delete',
      key,
      value: latest.value!,
      previous: latest.value,
      revision,
      createRevision: latest.createRevision,
    });
    return { revision, previous };
  }

  watch(prefix: string, opts: KvWatchOptions): KvWatch {
    this.ensureOpen();
    const watcher = new MemoryWatcher(prefix, opts, () => this.revision, (w) => this.watchers.delete(w));
    this.watchers.add(watcher);
    const after = opts.afterRevision;
    if (after === undefined) return watcher;
    // Events after `after` must all still be in the log: anything at or before the
    // compacted revision is gone, so a watch that needs it cannot start.
    if (after < this.compacted) {
      watcher.fail(
        new StorageError('Compacted', `revision ${after + 1} has been compacted`, { revision: this.compacted + 1 }),
      );
      return watcher;
    }
    watcher.enqueue(this.events.filter((e) => e.revision > after && e.key.startsWith(prefix)));
    return watcher;
  }

  async currentRevision(): Promise<number> {
    this.ensureOpen();
    return this.revision;
  }

  async compact(revision: number): Promise<void> {
    this.ensureOpen();
    if (revision > this.revision) {
      throw new StorageError('FutureRevision', `cannot compact at future revision ${revision}`, {
        revision: this.revision,
      });
    }
    // Compacting again at or below the compacted revision changes nothing.
    if (revision <= this.compacted) return;
    this.compacted = revision;
    this.keys.compact(revision);
    this.events = this.events.filter((e) => e.revision > revision);
  }

  async oldestRevision(): Promise<number> {
    this.ensureOpen();
    return this.compacted + 1;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of [...this.watchers]) w.close();
  }

  private commit(event: KvEvent): void {
    this.keys.append(event.key, {
      revision: event.revision,
      createRevision: event.createRevision,
      value: event.type === 'delete' ? undefined : event.value,
    });
    this.events.push(event);
    // Watchers of other prefixes learn the revision moved on (SQLite's hub does the
    // same): a cache of a quiet resource can then answer a consistent read at once.
    for (const w of this.watchers) {
      if (event.key.startsWith(w.prefix)) w.enqueue([event]);
      else w.progressed();
    }
  }

  /** The latest version of a key that exists now; NotFound otherwise. */
  private live(key: string): { revision: number; createRevision: number; value: Uint8Array } {
    const latest = this.keys.latest(key);
    if (latest?.value === undefined) throw new StorageError('NotFound', `key ${key} not found`, { key });
    return { revision: latest.revision, createRevision: latest.createRevision, value: latest.value };
  }

  /** Resolves "latest" and rejects revisions outside the retained history. */
  private readRevision(revision: number | undefined): number {
    this.ensureOpen();
    if (revision === undefined || revision === 0) return this.revision;
    if (revision <= this.compacted) {
      throw new StorageError('Compacted', `revision ${revision} has been compacted`, { revision: this.compacted + 1, requested: revision });
    }
    if (revision > this.revision) {
      throw new StorageError('FutureRevision', `revision ${revision} is a future revision`, {
        revision: this.revision,
        requested: revision,
      });
    }
    return revision;
  }

  private ensureOpen(): void {
    if (this.closed) throw new StorageError('Unavailable', 'memory KV is closed');
  }
}
