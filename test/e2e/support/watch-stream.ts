// A watch over HTTPS (HTTP/1.1, JSON) that collects its events as they arrive, for
// tests that compare what one server streams with what was written elsewhere.
// Lines are split on '\n' and parsed whole; a line that is not JSON fails the
// waiting test with the text, so a malformed stream cannot pass as "no events".
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import type { Credentials } from './http.js';
import type { RunningKapi } from './server.js';

export interface WatchEvent {
  readonly type: string;
  readonly object: { metadata?: { name?: string; namespace?: string; resourceVersion?: string; annotations?: Record<string, string> }; [key: string]: unknown };
}

export interface OpenWatch {
  /** The response status (after open resolves). */
  readonly status: number;
  /** Every event so far, BOOKMARKs included, in arrival order. */
  readonly events: readonly WatchEvent[];
  /** True once the server ended the stream. */
  readonly ended: boolean;
  /** Resolves when `check(events)` holds; rejects after `ms` (or when the stream ends first) with what arrived. */
  until(what: string, check: (events: readonly WatchEvent[]) => boolean, ms?: number): Promise<void>;
  close(): void;
}

/** Opens `path` (which must carry watch=true) and resolves once the response headers are in. */
export function openWatch(server: Pick<RunningKapi, 'port'>, creds: Credentials, path: string): Promise<OpenWatch> {
  return new Promise((resolveOpen, rejectOpen) => {
    const events: WatchEvent[] = [];
    const waiters = new Set<() => void>();
    let ended = false;
    let failure: Error | undefined;
    let status = 0;
    let pending = '';
    const notify = () => {
      for (const w of [...waiters]) w();
    };
    const req: ClientRequest = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        ca: creds.ca,
        ...(creds.cert === undefined ? {} : { cert: creds.cert, key: creds.key }),
        headers: { accept: 'application/json' },
        agent: false,
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let newline = pending.indexOf('\n');
          while (newline >= 0) {
            const line = pending.slice(0, newline).trim();
            pending = pending.slice(newline + 1);
            newline = pending.indexOf('\n');
            if (line === '') continue;
            try {
              events.push(JSON.parse(line) as WatchEvent);
            } catch {
              failure ??= new Error(`watch ${path}: a line that is not JSON: ${line.slice(0, 200)}`);
            }
          }
          notify();
        });
        const end = () => {
          ended = true;
          notify();
        };
        res.on('end', end).on('close', end).on('error', end);
        resolveOpen(watch);
      },
    );
    req.on('error', (err) => {
      ended = true;
      if (status === 0) rejectOpen(err);
      notify();
    });
    req.end();
    const watch: OpenWatch = {
      get status() {
        return status;
      },
      events,
      get ended() {
        return ended;
      },
      until(what, check, ms = 10_000) {
        return new Promise<void>((ok, fail) => {
          const done = () => {
            clearTimeout(timer);
            waiters.delete(test);
          };
          const explain = (why: string) =>
            new Error(`watch ${path}: ${what}: ${why}; ${events.length} events: ${JSON.stringify(events.map((e) => [e.type, e.object.metadata?.name, e.object.metadata?.resourceVersion]))}`);
          const test = () => {
            if (failure !== undefined) {
              done();
              fail(failure);
            } else if (check(events)) {
              done();
              ok();
            } else if (ended) {
              done();
              fail(explain('the stream ended first'));
            }
          };
          const timer = setTimeout(() => {
            done();
            fail(explain(`not within ${ms} ms`));
          }, ms);
          waiters.add(test);
          test();
        });
      },
      close() {
        req.destroy();
      },
    };
  });
}
