// Shared helpers of the Storage conformance cases: objects to store, typed error
// assertions and a watch recorder whose waits end on a condition or a bound,
// never on a sleep.
import { expect } from 'vitest';
import { isStorageError, type StorageError, type StorageErrorCode } from '../../../errors/storage-error.js';
import type { KubeObject } from '../../../schema/object.js';
import type { Storage, StorageWatchEvent, StorageWatchOptions } from '../../storage.js';

export interface SuiteContext {
  readonly storage: Storage;
  /** Forgets history at and before a revision; absent when the backend under test cannot. */
  readonly compact: ((revision: number) => Promise<void>) | undefined;
  /** A prefix no other case uses, ending in "/". */
  readonly prefix: string;
  /** prefix + name. */
  key(name: string): string;
}

export interface SuiteCase {
  readonly name: string;
  readonly run: (ctx: SuiteContext) => Promise<void>;
}

export interface SuiteGroup {
  readonly group: string;
  readonly cases: readonly SuiteCase[];
}

/** Bound for anything a backend delivers asynchronously (watch events, errors). */
export const WAIT_MS = 10_000;

export function configMap(
  name: string,
  opts: { labels?: Record<string, string>; data?: Record<string, string> } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'conformance', uid: `uid-${name}`, ...(opts.labels ? { labels: opts.labels } : {}) },
    data: opts.data ?? { v: '1' },
  };
}

export function rvOf(obj: KubeObject): number {
  const rv = Number(obj.metadata.resourceVersion);
  expect(Number.isSafeInteger(rv) && rv > 0, `resourceVersion ${obj.metadata.resourceVersion} is a positive integer`).toBe(true);
  return rv;
}

export function dataOf(obj: KubeObject): unknown {
  return obj['data'];
}

/** Awaits a rejection with a StorageError of `code` and returns it for further checks. */
export async function expectStorageError(p: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected StorageError ${code}`).toBeDefined();
  if (!isStorageError(caught)) throw new Error(`expected StorageError ${code}, got ${String(caught)}`, { cause: caught });
  expect(caught.code).toBe(code);
  return caught;
}

/** Same for synchronous throws. */
export function expectStorageErrorSync(fn: () => unknown, code: StorageErrorCode): StorageError {
  try {
    fn();
  } catch (err) {
    if (!isStorageError(err)) throw new Error(`expected StorageError ${code}, got ${String(err)}`, { cause: err });
    expect(err.code).toBe(code);
    return err;
  }
  throw new Error(`expected StorageError ${code}, nothing was thrown`);
}

/** An event reduced to what cases compare. */
export interface EventSummary {
  readonly type: string;
  readonly name: string | undefined;
  readonly rv: number;
  readonly data: unknown;
}

export function summarize(e: StorageWatchEvent): EventSummary {
  return { type: e.type, name: e.object.metadata.name, rv: Number(e.object.metadata.resourceVersion), data: dataOf(e.object) };
}

export interface WatchRecorder {
  readonly events: StorageWatchEvent[];
  readonly errors: Error[];
  /** Resolves once cond holds over what was recorded; rejects after WAIT_MS. */
  until(what: string, cond: () => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function recordWatch(
  storage: Storage,
  prefix: string,
  opts: Omit<StorageWatchOptions, 'onEvent' | 'onError'> = {},
): WatchRecorder {
  const events: StorageWatchEvent[] = [];
  const errors: Error[] = [];
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const w of [...waiters]) w();
  };
  const watch = storage.watch(prefix, {
    ...opts,
    onEvent: (e) => {
      events.push(e);
      changed();
    },
    onError: (err) => {
      errors.push(err);
      changed();
    },
  });
  return {
    events,
    errors,
    until(what, cond, timeoutMs = WAIT_MS) {
      if (cond()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!cond()) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`watch: timed out after ${timeoutMs} ms waiting for ${what}; got ${JSON.stringify(events.map(summarize))}, errors ${errors.map(String).join('; ')}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      });
    },
    close: () => watch.close(),
  };
}

/**
 * Writes a sentinel object and waits for its event: anything the watch would
 * deliver for earlier writes has then been delivered too (revision order), so a
 * case can compare the full list without waiting for "nothing more".
 */
export async function drainWith(ctx: SuiteContext, w: WatchRecorder, name = 'zz-sentinel'): Promise<EventSummary[]> {
  const created = await ctx.storage.create(ctx.key(name), configMap(name, { labels: { match: 'yes' } }));
  await w.until(`the sentinel ${name}`, () => w.events.some((e) => e.object.metadata.resourceVersion === created.metadata.resourceVersion));
  return w.events.map(summarize).filter((e) => e.name !== name);
}
