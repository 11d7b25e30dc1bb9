// A @kubernetes/client-node Watch that records each watch request an informer
// makes (its query), the events it got and how it ended, so a test can see
// the informer reconnect from its last resourceVersion, receive a 410 ERROR
// event, and relist — things the informer itself does silently.
import { Watch } from '@kubernetes/client-node';

export interface WatchEvent {
  readonly type: string;
  readonly object: { kind?: string; code?: number; reason?: string; message?: string; metadata?: { name?: string; resourceVersion?: string } };
}

export interface RecordedWatch {
  readonly query: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly events: WatchEvent[];
  /** Set when the watch has ended: null for a clean end of the stream, else the error. */
  ended?: { error: unknown };
}

export class RecordingWatch extends Watch {
  readonly calls: RecordedWatch[] = [];

  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    const rec: RecordedWatch = { query: { ...queryParams }, events: [] };
    this.calls.push(rec);
    return super.watch(
      path,
      queryParams,
      (phase, obj, raw) => {
        rec.events.push({ type: phase, object: obj as WatchEvent['object'] });
        callback(phase, obj, raw);
      },
      (err) => {
        rec.ended = { error: err };
        done(err);
      },
    );
  }
}
