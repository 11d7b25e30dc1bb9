// Group commit. better-sqlite3 is synchronous, so a commit (and its fsync) blocks
// the event loop; the only way to share one fsync between writers is to queue the
// writes that arrive while the current macrotask runs and apply them together.
// The flush runs on setImmediate: after every pending microtask (so async callers
// a few awaits deep still join) and after the I/O callbacks of the same loop turn
// (so requests parsed together commit together), yet with no timer delay when a
// single write is in flight. Each write's precondition is checked on its own, in
// arrival order, inside the shared transaction; every promise settles only after
// the commit, and watchers hear about the batch right after it.
import type Database from 'better-sqlite3';
import type { KvDeleteResult, KvEvent, KvWriteResult } from '../kv.js';
import { StorageError } from '../../errors/storage-error.js';
import { EVENT_CREATE, EVENT_DELETE, EVENT_UPDATE } from './schema.js';
import type { KvRow, Statements } from './statements.js';
import { entryOf } from './reads.js';
import type { RevisionState } from './state.js';

export type WriteOp =
  | { readonly kind: 'create'; readonly key: string; readonly value: Uint8Array }
  | { readonly kind: 'put'; readonly key: string; readonly value: Uint8Array; readonly expectedRevision: number }
  | { readonly kind: 'delete'; readonly key: string; readonly expectedRevision?: number };

type Outcome = KvWriteResult | KvDeleteResult | StorageError;

interface Pending {
  readonly op: WriteOp;
  readonly resolve: (result: KvWriteResult | KvDeleteResult) => void;
  readonly reject: (err: Error) => void;
}

export interface WriterStats {
  /** Transactions committed by the writer. */
  commits: number;
  /** Writes that committed (failed preconditions excluded). */
  writes: number;
  /** The most writes one transaction carried. */
  largestBatch: number;
}

export interface GroupCommitWriterOptions {
  readonly db: Database.Database;
  readonly st: Statements;
  readonly state: RevisionState;
  /** Called synchronously after each commit with its events in revision order. */
  readonly onCommit: (events: readonly KvEvent[], revision: number) => void;
  /**
   * Whether an update's event must carry the replaced value (a watcher covers the
   * key). When nobody listens, a put reads the key's row alone, not its value.
   * Absent: always.
   */
  readonly wantsPrevious?: (key: string) => boolean;
}

export class GroupCommitWriter {
  readonly stats: WriterStats = { commits: 0, writes: 0, largestBatch: 0 };
  private queue: Pending[] = [];
  private immediate: NodeJS.Immediate | undefined;
  private readonly runBatch: (batch: readonly Pending[], outcomes: Outcome[], events: KvEvent[]) => void;

  constructor(private readonly opts: GroupCommitWriterOptions) {
    this.runBatch = opts.db.transaction((batch: readonly Pending[], outcomes: Outcome[], events: KvEvent[]) => {
      for (const p of batch) outcomes.push(this.apply(p.op, events));
    });
  }

  submit(op: WriteOp): Promise<KvWriteResult | KvDeleteResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      this.immediate ??= setImmediate(() => this.flush());
    });
  }

  /** Commits whatever is queued now (used by close, so no acknowledged write is dropped). */
  flush(): void {
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.immediate = undefined;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const outcomes: Outcome[] = [];
    const events: KvEvent[] = [];
    const { state } = this.opts;
    const before = state.revision;
    try {
      this.runBatch(batch, outcomes, events);
    } catch (cause) {
      // The transaction rolled back as a whole: no revision was used, nothing is visible.
      state.revision = before;
      const err = new StorageError('Unavailable', `sqlite write failed: ${String(cause)}`, { cause });
      for (const p of batch) p.reject(err);
      return;
    }
    this.stats.commits++;
    this.stats.writes += events.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, events.length);
    if (events.length > 0) this.opts.onCommit(events, state.revision);
    for (let i = 0; i < batch.length; i++) {
      const outcome = outcomes[i]!;
      if (outcome instanceof StorageError) batch[i]!.reject(outcome);
      else batch[i]!.resolve(outcome);
    }
  }

  /** One write inside the open transaction; a failed precondition costs no revision. */
  private apply(op: WriteOp, events: KvEvent[]): Outcome {
    const { st, state } = this.opts;
    if (op.kind === 'create') {
      const existing = st.getKvMeta.get(op.key);
      if (existing !== undefined && existing.deleted === 0) {
        return new StorageError('Exists', `key ${op.key} already exists`, { key: op.key });
      }
      const revision = state.revision + 1;
      st.upsertKv.run(op.key, revision, revision);
      // prev_revision of a create links the tombstone it replaces, so a read at an
      // older revision can step back past the delete (reads.ts).
      st.insertLog.run(revision, op.key, EVENT_CREATE, revision, existing?.mod_revision ?? 0, op.value);
      state.revision = revision;
      events.push({ type: 'create', key: op.key, value: op.value, revision, createRevision: revision });
      return { revision };
    }
    // A delete answers (and reports) the value it removes; a put needs it only for watchers.
    const needValue = op.kind === 'delete' || (this.opts.wantsPrevious?.(op.key) ?? true);
    const row = needValue ? st.getKv.get(op.key) : st.getKvMeta.get(op.key);
    if (row === undefined || row.deleted === 1) {
      return new StorageError('NotFound', `key ${op.key} not found`, { key: op.key });
    }
    if (op.expectedRevision !== undefined && row.mod_revision !== op.expectedRevision) {
      // The caller retries from what is there now: a conflict always carries the value.
      const current = entryOf(needValue ? (row as KvRow) : st.getKv.get(op.key)!);
      return new StorageError(
        'Conflict',
        `key ${op.key} is at revision ${row.mod_revision}, not ${op.expectedRevision}`,
        { key: op.key, current },
      );
    }
    const revision = state.revision + 1;
    const base = { key: op.key, revision, createRevision: row.create_revision };
    if (op.kind === 'put') {
      // The replaced value stays where it is, in the log row at row.mod_revision.
      st.setKv.run(revision, 0, op.key);
      st.insertLog.run(revision, op.key, EVENT_UPDATE, row.create_revision, row.mod_revision, op.value);
      state.revision = revision;
      const previous = needValue ? (row as KvRow).value ?? undefined : undefined;
      events.push({ ...base, type: 'update', value: op.value, ...(previous === undefined ? {} : { previous }) });
      return { revision };
    }
    const current = entryOf(row as KvRow);
    // The tombstone stays in kv (see schema.ts) until compaction drops its log row.
    st.setKv.run(revision, 1, op.key);
    st.insertLog.run(revision, op.key, EVENT_DELETE, row.create_revision, row.mod_revision, null);
    state.revision = revision;
    events.push({ ...base, type: 'delete', value: current.value, previous: current.value });
    return { revision, previous: current };
  }

  /** Rejects everything still queued (the store is closing or broken). */
  failPending(err: Error): void {
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.immediate = undefined;
    const batch = this.queue;
    this.queue = [];
    for (const p of batch) p.reject(err);
  }
}
