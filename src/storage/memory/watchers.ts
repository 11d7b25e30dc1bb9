// Watch fan-out for the memory KV. A write hands its event to every watcher of a
// matching prefix synchronously (so nothing can slip between commit and
// subscription), and each watcher delivers its queue on a later microtask: a
// consumer never runs inside the writer's call stack, and events that arrive
// together are delivered as one batch, in revision order.
import type { KvEvent, KvWatch, KvWatchOptions } from '../kv.js';

export class MemoryWatcher implements KvWatch {
  private pending: KvEvent[] = [];
  private scheduled = false;
  private closed = false;
  /** close() was called: a pending onError must not fire after it. */
  private closedByCaller = false;

  constructor(
    readonly prefix: string,
    private readonly opts: KvWatchOptions,
    private readonly currentRevision: () => number,
    private readonly onClose: (w: MemoryWatcher) => void,
  ) {}

  enqueue(events: readonly KvEvent[]): void {
    if (this.closed || events.length === 0) return;
    this.pending.push(...events);
    this.schedule();
  }

  /** A write outside the prefix: report progress once what is queued has been delivered. */
  progressed(): void {
    if (this.closed || this.opts.onProgress === undefined) return;
    this.schedule();
  }

  /** Ends the watch for a reason of its own: one onError, nothing after it. */
  fail(err: Error): void {
    if (this.closed) return;
    this.stop();
    queueMicrotask(() => {
      if (!this.closedByCaller) this.opts.onError(err);
    });
  }

  close(): void {
    this.closedByCaller = true;
    this.stop();
  }

  private stop(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    this.onClose(this);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (this.closed) return;
    const batch = this.pending;
    this.pending = [];
    // A consumer that throws is a bug in the consumer; it surfaces as an uncaught
    // error rather than being swallowed here.
    if (batch.length > 0) this.opts.onEvents(batch);
    // Every write is enqueued in its own commit, so once the queue is empty every
    // change up to the current revision has been delivered.
    if (!this.closed && this.pending.length === 0) this.opts.onProgress?.(this.currentRevision());
  }
}
