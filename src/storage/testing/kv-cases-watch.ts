// Conformance cases for watch: from "now" and from a past revision, prefix
// filtering, the event shapes (deletes carry the last value and previous), no
// gap and no duplicate while writers write, and close.
import { expect } from 'vitest';
import type { KvEvent } from '../kv.js';
import { collectWatch } from './kv-watch-collector.js';
import { bytes, runConcurrently, text, waitFor, type KvCase } from './kv-case.js';

const shape = (e: KvEvent) => ({
  type: e.type,
  key: e.key,
  value: text(e.value),
  previous: text(e.previous),
  revision: e.revision,
  createRevision: e.createRevision,
});

export const watchCases: readonly KvCase[] = [
  {
    group: 'watch',
    name: 'from now delivers create, update and delete in order',
    run: async ({ kv, key, prefix }) => {
      const w = collectWatch(kv, prefix);
      try {
        const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
        const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
        const r3 = (await kv.delete(key('a'))).revision;
        await w.waitForEvents(3);
        expect(w.events.map(shape)).toEqual([
          { type: 'create', key: key('a'), value: 'v1', previous: undefined, revision: r1, createRevision: r1 },
          { type: 'update', key: key('a'), value: 'v2', previous: 'v1', revision: r2, createRevision: r1 },
          { type: 'delete', key: key('a'), value: 'v2', previous: 'v2', revision: r3, createRevision: r1 },
        ]);
        expect(w.errors).toEqual([]);
      } finally {
        w.close();
      }
    },
  },
  {
    group: 'watch',
    name: 'delivers only keys under the prefix',
    run: async ({ kv, key, prefix, siblingPrefix }) => {
      const w = collectWatch(kv, prefix);
      try {
        await kv.create(`${siblingPrefix}a`, bytes('sibling'));
        const mine = (await kv.create(key('a'), bytes('mine'))).revision;
        await kv.create(`${siblingPrefix}b`, bytes('sibling'));
        const sentinel = (await kv.create(key('z'), bytes('sentinel'))).revision;
        await w.waitForRevision(sentinel);
        expect(w.events.map((e) => e.revision)).toEqual([mine, sentinel]);
      } finally {
        w.close();
      }
    },
  },
  {
    group: 'watch',
    name: 'from the past replays history, then continues live',
    run: async ({ kv, key, prefix }) => {
      const start = await kv.currentRevision();
      const written: number[] = [];
      for (let i = 0; i < 5; i++) written.push((await kv.create(key(`k${i}`), bytes(`${i}`))).revision);
      const w = collectWatch(kv, prefix, { afterRevision: start });
      try {
        await w.waitForEvents(5);
        for (let i = 5; i < 8; i++) written.push((await kv.create(key(`k${i}`), bytes(`${i}`))).revision);
        await w.waitForEvents(8);
        expect(w.events.map((e) => e.revision)).toEqual(written);
        expect(w.events.map((e) => text(e.value))).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
        expect(w.violations).toEqual([]);
      } finally {
        w.close();
      }
    },
  },
  {
    group: 'watch',
    name: 'from a revision in the middle starts right after it',
    run: async ({ kv, key, prefix }) => {
      const written: number[] = [];
      for (let i = 0; i < 5; i++) written.push((await kv.create(key(`k${i}`), bytes(`${i}`))).revision);
      const w = collectWatch(kv, prefix, { afterRevision: written[2]! });
      try {
        const sentinel = (await kv.create(key('sentinel'), bytes('s'))).revision;
        await w.waitForRevision(sentinel);
        expect(w.events.map((e) => e.revision)).toEqual([written[3], written[4], sentinel]);
      } finally {
        w.close();
      }
    },
  },
  {
    group: 'watch',
    name: 'from the past while writers write: no gap, no duplicate',
    timeoutMs: 60_000,
    run: async ({ kv, key, prefix }) => {
      const start = await kv.currentRevision();
      const written: number[] = [];
      let watcher: ReturnType<typeof collectWatch> | undefined;
      try {
        await runConcurrently({
          count: 200,
          concurrency: 4,
          worker: async (i) => {
            written.push((await kv.create(key(`k${String(i).padStart(3, '0')}`), bytes(`${i}`))).revision);
            // Start the watch from the past while a quarter is written and the rest is in flight.
            if (i === 50) watcher = collectWatch(kv, prefix, { afterRevision: start });
          },
        });
        await waitFor(() => watcher !== undefined, 'the watch to start');
        await watcher!.waitForEvents(200, 30_000);
        expect(watcher!.violations).toEqual([]);
        expect(watcher!.events.map((e) => e.revision)).toEqual([...written].sort((a, b) => a - b));
      } finally {
        watcher?.close();
      }
    },
  },
  {
    group: 'watch',
    name: 'close stops delivery',
    run: async ({ kv, key, prefix }) => {
      // From a known revision: a watch "from now" may be established after the first
      // write on a loaded machine (etcd), which is not what this case is about.
      const start = await kv.currentRevision();
      const w = collectWatch(kv, prefix, { afterRevision: start });
      const control = collectWatch(kv, prefix, { afterRevision: start });
      try {
        const first = (await kv.create(key('a'), bytes('1'))).revision;
        await w.waitForRevision(first);
        w.close();
        const last = (await kv.create(key('b'), bytes('2'))).revision;
        await control.waitForRevision(last);
        expect(w.events.map((e) => e.revision)).toEqual([first]);
        expect(w.errors).toEqual([]);
      } finally {
        control.close();
      }
    },
  },
  {
    group: 'watch',
    name: 'every one of many watchers receives every event',
    run: async ({ kv, key, prefix }) => {
      const watchers = Array.from({ length: 10 }, () => collectWatch(kv, prefix));
      try {
        const written: number[] = [];
        for (let i = 0; i < 20; i++) written.push((await kv.create(key(`k${i}`), bytes(`${i}`))).revision);
        for (const w of watchers) {
          await w.waitForEvents(20);
          expect(w.events.map((e) => e.revision)).toEqual(written);
        }
      } finally {
        for (const w of watchers) w.close();
      }
    },
  },
];
