// Log compaction, off the request path. Deciding and deleting are separate: a
// compaction first records the compacted revision (one tiny transaction, after
// which reads and watches at or below it answer Compacted), then purges the
// revisions up to it in small batches, one transaction per event-loop turn, so
// writers never wait behind a long delete (kine's "database is locked"). As in
// etcd, a purge keeps each key's latest row at or below the compacted revision
// (it holds the key's current value, or the value the next change replaced) and
// deletes superseded rows and tombstones (statements.ts); the purged-through
// revision is recorded in the same transaction, so a purge cut short resumes.
// Freed pages are reused by new log rows; when a large share of the file is
// free (after a burst) incremental_vacuum hands it back to the file system, also
// in steps.
//
// "At least minRetentionMs of history" needs to know which revision was current
// that long ago. Instead of a timestamp on every log row, each tick remembers
// (time, revision); the newest sample old enough is the time bound. After a
// restart no sample is old enough yet, so history is kept longer, never shorter.
import type Database from 'better-sqlite3';
import type { Statements } from './statements.js';
import type { RevisionState } from './state.js';

export interface CompactionOptions {
  /** Keep at least this much history (default 5 minutes, kube-apiserver's interval). */
  readonly minRetentionMs?: number;
  /** Keep at least this many revisions (default 1000). */
  readonly minRetainedRevisions?: number;
  /** How often the background compactor looks (default 30 s). */
  readonly intervalMs?: number;
  /** Revisions purged per transaction (default 1000). */
  readonly batchSize?: number;
}

export interface CompactorOptions {
  readonly db: Database.Database;
  readonly st: Statements;
  readonly state: RevisionState;
  readonly clock: () => number;
  readonly compaction: CompactionOptions;
}

interface Sample {
  readonly time: number;
  readonly revision: number;
}

/** Pages freed per incremental_vacuum step. */
const VACUUM_STEP_PAGES = 2048;

export class Compactor {
  private readonly minRetentionMs: number;
  private readonly minRetainedRevisions: number;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private samples: Sample[] = [];
  private readonly purge: (lo: number, hi: number) => void;
  private timer: NodeJS.Timeout | undefined;
  private step: NodeJS.Immediate | undefined;

  constructor(private readonly opts: CompactorOptions) {
    this.minRetentionMs = opts.compaction.minRetentionMs ?? 300_000;
    this.minRetainedRevisions = opts.compaction.minRetainedRevisions ?? 1000;
    this.intervalMs = opts.compaction.intervalMs ?? 30_000;
    this.batchSize = opts.compaction.batchSize ?? 1000;
    // Superseded rows go before tombstones: the tombstones' prev_revision names rows to delete.
    this.purge = opts.db.transaction((lo: number, hi: number) => {
      opts.st.purgeSuperseded.run({ lo, hi });
      opts.st.purgeTombstoneKeys.run({ lo, hi });
      opts.st.purgeTombstones.run({ lo, hi });
      opts.st.setPurged.run(hi);
    });
  }

  start(): void {
    this.sample();
    // A purge cut short by a crash or shutdown resumes on open.
    if (this.opts.state.purgedThrough < this.opts.state.compacted) this.schedulePurge();
    // unref: a store left open must not keep the process alive.
    this.timer = setInterval(() => this.tick(), this.intervalMs).unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.step !== undefined) clearImmediate(this.step);
    this.timer = undefined;
    this.step = undefined;
  }

  /** One background round: remember now, compact to what the retention rules allow. */
  tick(): void {
    this.sample();
    const target = this.allowedTarget();
    if (target > this.opts.state.compacted) this.compactTo(target);
  }

  /** Records `revision` as compacted and starts deleting the rows up to it. */
  compactTo(revision: number): void {
    const { st, state } = this.opts;
    st.setCompacted.run(revision);
    state.compacted = revision;
    this.schedulePurge();
  }

  /** Runs every pending purge and vacuum step now (tests, shutdown). */
  finish(): void {
    if (this.step !== undefined) clearImmediate(this.step);
    this.step = undefined;
    while (this.purgeBatch()) {
      /* keep going */
    }
    while (this.vacuumStep()) {
      /* keep going */
    }
  }

  private sample(): void {
    const now = this.opts.clock();
    this.samples.push({ time: now, revision: this.opts.state.revision });
    // Keep only the newest sample that is already old enough, plus the younger ones.
    const cutoff = now - this.minRetentionMs;
    let firstOld = -1;
    for (let i = 0; i < this.samples.length && this.samples[i]!.time <= cutoff; i++) firstOld = i;
    if (firstOld > 0) this.samples = this.samples.slice(firstOld);
  }

  private allowedTarget(): number {
    const cutoff = this.opts.clock() - this.minRetentionMs;
    const old = this.samples[0];
    if (old === undefined || old.time > cutoff) return 0;
    return Math.min(old.revision, this.opts.state.revision - this.minRetainedRevisions);
  }

  private schedulePurge(): void {
    this.step ??= setImmediate(() => this.runStep());
  }

  private runStep(): void {
    this.step = undefined;
    if (this.opts.state.closed) return;
    if (this.purgeBatch() || this.vacuumStep()) this.schedulePurge();
  }

  /** Purges one batch of compacted revisions; true when more remain. */
  private purgeBatch(): boolean {
    const { state } = this.opts;
    if (state.purgedThrough >= state.compacted) return false;
    const bound = Math.min(state.compacted, state.purgedThrough + this.batchSize);
    this.purge(state.purgedThrough, bound);
    state.purgedThrough = bound;
    return bound < state.compacted;
  }

  /** Returns free pages to the file system when they are a large share of it; true when more remain. */
  private vacuumStep(): boolean {
    const { db } = this.opts;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    const pages = db.pragma('page_count', { simple: true }) as number;
    // Below a quarter free, the pages will be reused by the next writes anyway;
    // shrinking and regrowing the file would only cost I/O.
    if (free < 256 || free * 4 < pages) return false;
    db.pragma(`incremental_vacuum(${VACUUM_STEP_PAGES})`);
    return true;
  }
}
