// The shape of one KV conformance case and the helpers cases share. Cases are
// data (group, name, run) so kv.suite.ts registers them all the same way and a
// backend can only opt out of one by naming it with a reason.
import { expect } from 'vitest';
import type { KV } from '../kv.js';
import { isStorageError, type StorageError, type StorageErrorCode } from '../../errors/storage-error.js';

export interface KvCaseContext {
  readonly kv: KV;
  /** A prefix no other case uses, e.g. `/configmaps/kvc-12-ab3f/`, so cases can share a backend. */
  readonly prefix: string;
  /** `prefix + name`. */
  key(name: string): string;
  /** A sibling prefix that shares the leading characters (`/configmaps/kvc-12-ab3f0/`). */
  readonly siblingPrefix: string;
}

export type KvCaseGroup = 'create' | 'get' | 'list' | 'count' | 'put' | 'delete' | 'revision' | 'watch' | 'compaction' | 'concurrency';

export interface KvCase {
  readonly group: KvCaseGroup;
  readonly name: string;
  readonly run: (ctx: KvCaseContext) => Promise<void>;
  /** Overrides the default per-test timeout for the heavier cases. */
  readonly timeoutMs?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export function text(value: Uint8Array | undefined): string | undefined {
  return value === undefined ? undefined : decoder.decode(value);
}

/** Awaits `promise`, expecting it to reject with a StorageError of `code`; returns it. */
export async function expectStorageError(promise: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected StorageError ${code}`).toBeDefined();
  if (!isStorageError(caught, code)) {
    throw new Error(`expected StorageError ${code}, got ${String(caught)}`, { cause: caught });
  }
  return caught;
}

/** Runs `worker(i)` for i in [0, count) with at most `concurrency` in flight. */
export async function runConcurrently(opts: {
  readonly count: number;
  readonly concurrency: number;
  readonly worker: (i: number) => Promise<void>;
}): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < opts.count) await opts.worker(next++);
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, opts.count) }, lane));
}

/** Waits, yielding to the event loop, until `cond()` holds; throws after `timeoutMs`. */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
