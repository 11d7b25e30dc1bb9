// watch (from a revision, with the state, from now, predicate transitions) and compaction.
import { expect } from 'vitest';
import { isStorageError } from '../../../errors/storage-error.js';
import type { KubeObject } from '../../../schema/object.js';
import {
  configMap,
  drainWith,
  expectStorageError,
  expectStorageErrorSync,
  recordWatch,
  rvOf,
  type SuiteContext,
  type SuiteGroup,
} from './harness.js';

const set = (ctx: SuiteContext, name: string, labels: Record<string, string>, v: string) =>
  ctx.storage.guaranteedUpdate(ctx.key(name), {
    tryUpdate: ({ current }) => ({ ...current!, metadata: { ...current!.metadata, labels }, data: { v } }),
  });

async function compactOrFail(ctx: SuiteContext, revision: number): Promise<void> {
  if (ctx.compact === undefined) {
    throw new Error('the factory gave no compact hook: return { storage, compact } or skip this case with a reason');
  }
  await ctx.compact(revision);
}

/** Creates and rewrites an object so its first revision can be compacted away; returns both revisions. */
async function history(ctx: SuiteContext): Promise<{ first: number; latest: number }> {
  const first = rvOf(await ctx.storage.create(ctx.key('a'), configMap('a', { data: { v: '1' } })));
  let latest = first;
  for (const v of ['2', '3']) {
    latest = rvOf((await set(ctx, 'a', {}, v)).object);
  }
  return { first, latest };
}

export const watchCases: SuiteGroup = {
  group: 'watch',
  cases: [
    {
      name: 'from a resourceVersion replays every later change in order',
      run: async (ctx) => {
        const a1 = await ctx.storage.create(ctx.key('a'), configMap('a', { data: { v: '1' } }));
        const a2 = (await set(ctx, 'a', {}, '2')).object;
        const b = await ctx.storage.create(ctx.key('b'), configMap('b'));
        const del = await ctx.storage.delete(ctx.key('a'));
        const w = recordWatch(ctx.storage, ctx.prefix, { resourceVersion: a1.metadata.resourceVersion! });
        try {
          expect(await drainWith(ctx, w)).toEqual([
            { type: 'MODIFIED', name: 'a', rv: rvOf(a2), data: { v: '2' } },
            { type: 'ADDED', name: 'b', rv: rvOf(b), data: { v: '1' } },
            // DELETED carries the last state at the deleting revision.
            { type: 'DELETED', name: 'a', rv: rvOf(del), data: { v: '2' } },
          ]);
          expect(w.errors).toEqual([]);
        } finally {
          w.close();
        }
      },
    },
    {
      name: 'a key filter delivers only the keys it accepts',
      run: async (ctx) => {
        const start = await ctx.storage.currentResourceVersion();
        const w = recordWatch(ctx.storage, ctx.prefix, { resourceVersion: start, keyFilter: (key) => /\/(b|zz-sentinel)$/.test(key) });
        try {
          await ctx.storage.create(ctx.key('a'), configMap('a'));
          const b = await ctx.storage.create(ctx.key('b'), configMap('b'));
          await set(ctx, 'a', {}, '2');
          const b2 = (await set(ctx, 'b', {}, '2')).object;
          const last = await ctx.storage.delete(ctx.key('b'));
          expect(await drainWith(ctx, w)).toEqual([
            { type: 'ADDED', name: 'b', rv: rvOf(b), data: { v: '1' } },
            { type: 'MODIFIED', name: 'b', rv: rvOf(b2), data: { v: '2' } },
            { type: 'DELETED', name: 'b', rv: rvOf(last), data: { v: '2' } },
          ]);
          expect(w.errors).toEqual([]);
        } finally {
          w.close();
        }
      },
    },
    {
      name: 'changes made after the watch started arrive in revision order',
      run: async (ctx) => {
        const start = await ctx.storage.currentResourceVersion();
        const w = recordWatch(ctx.storage, ctx.prefix, { resourceVersion: start });
        try {
          const written = [];
          for (const name of ['a', 'b', 'c', 'd', 'e']) written.push(rvOf(await ctx.storage.create(ctx.key(name), configMap(name))));
          const got = await drainWith(ctx, w);
          expect(got.map((e) => e.rv)).toEqual(written);
          expect(got.every((e) => e.type === 'ADDED')).toBe(true);
        } finally {
          w.close();
        }
      },
    },
    // kube's watch table: unset is "Get State and Start at Most Recent", "0" "Get
    // State and Start at Any": the current state as ADDED, then every later change.
    ...(['', '0', undefined] as const).map((rv) => ({
      name: `resourceVersion ${rv === undefined ? 'absent' : JSON.stringify(rv)} sends the state as ADDED, then later changes`,
      run: async (ctx: SuiteContext) => {
        const a = await ctx.storage.create(ctx.key('a'), configMap('a', { data: { v: '1' } }));
        await ctx.storage.create(ctx.key('b'), configMap('b', { data: { v: '1' } }));
        const b2 = (await set(ctx, 'b', {}, '2')).object;
        // A deleted object is not part of the state.
        await ctx.storage.create(ctx.key('gone'), configMap('gone'));
        await ctx.storage.delete(ctx.key('gone'));
        const w = recordWatch(ctx.storage, ctx.prefix, rv === undefined ? {} : { resourceVersion: rv });
        try {
          await w.until('the state', () => w.events.length >= 2);
          const c = await ctx.storage.create(ctx.key('c'), configMap('c'));
          const a2 = (await set(ctx, 'a', {}, '2')).object;
          const got = await drainWith(ctx, w);
          // The state in any order (kube's cache sends it in key order, etcd too), then changes in order.
          expect(got.slice(0, 2).sort((x, y) => String(x.name).localeCompare(String(y.name)))).toEqual([
            { type: 'ADDED', name: 'a', rv: rvOf(a), data: { v: '1' } },
            { type: 'ADDED', name: 'b', rv: rvOf(b2), data: { v: '2' } },
          ]);
          expect(got.slice(2)).toEqual([
            { type: 'ADDED', name: 'c', rv: rvOf(c), data: { v: '1' } },
            { type: 'MODIFIED', name: 'a', rv: rvOf(a2), data: { v: '2' } },
          ]);
          expect(w.errors).toEqual([]);
        } finally {
          w.close();
        }
      },
    })),
    {
      name: 'the state a watch starts with holds only what the predicate and key filter accept',
      run: async (ctx) => {
        const yes = { match: 'yes' };
        await ctx.storage.create(ctx.key('a'), configMap('a', { labels: yes }));
        await ctx.storage.create(ctx.key('b'), configMap('b', { labels: { match: 'no' } }));
        await ctx.storage.create(ctx.key('c'), configMap('c', { labels: yes }));
        const w = recordWatch(ctx.storage, ctx.prefix, {
          predicate: (o: KubeObject) => o.metadata.labels?.['match'] === 'yes',
          keyFilter: (key) => !key.endsWith('/c'),
        });
        try {
          const got = await drainWith(ctx, w);
          expect(got.map((e) => [e.type, e.name])).toEqual([['ADDED', 'a']]);
        } finally {
          w.close();
        }
      },
    },
    // sendInitialEvents=false: no state; "" starts at the most recent revision, "0" at any.
    ...(['', '0'] as const).map((rv) => ({
      name: `resourceVersion ${JSON.stringify(rv)} without initial events starts from now`,
      run: async (ctx: SuiteContext) => {
        await ctx.storage.create(ctx.key('old'), configMap('old'));
        const w = recordWatch(ctx.storage, ctx.prefix, { resourceVersion: rv, sendInitialEvents: false });
        try {
          // A backend may take a moment to establish a watch "from now": write
          // until one write is seen, with a bound, instead of sleeping.
          await ctx.storage.create(ctx.key('tick'), configMap('tick', { data: { n: '0' } }));
          for (let n = 1; w.events.length === 0; n++) {
            expect(n, 'a write after the watch started is delivered').toBeLessThan(50);
            await set(ctx, 'tick', {}, String(n));
            await w.until('any event', () => w.events.length > 0, 200).catch(() => undefined);
          }
          expect(w.events.map((e) => e.object.metadata.name)).not.toContain('old');
        } finally {
          w.close();
        }
      },
    })),
    {
      name: 'a resourceVersion not reached yet delivers the changes after it once they happen',
      run: async (ctx) => {
        const now = Number(await ctx.storage.currentResourceVersion());
        const w = recordWatch(ctx.storage, ctx.prefix, { resourceVersion: String(now + 2) });
        try {
          const written = [];
          for (const name of ['a', 'b', 'c', 'd']) written.push(await ctx.storage.create(ctx.key(name), configMap(name)));
          // Other cases' writes may share the revision counter: only changes after now+2 come.
          const got = await drainWith(ctx, w);
          expect(got.length).toBeGreaterThan(0);
          expect(got.every((e) => e.rv > now + 2)).toBe(true);
          expect(got.map((e) => e.name)).toEqual(written.filter((o) => rvOf(o) > now + 2).map((o) => o.metadata.name));
          expect(w.errors).toEqual([]);
        } finally {
          w.close();
        }
      },
    },
    {
      name: 'a predicate turns matching transitions into ADDED and DELETED',
      run: async (ctx) => {
        const start = await ctx.storage.currentResourceVersion();
        const yes = { match: 'yes' };
        const no = { match: 'no' };
        const w = recordWatch(ctx.storage, ctx.prefix, {
          resourceVersion: start,
          predicate: (o: KubeObject) => o.metadata.labels?.['match'] === 'yes',
        });
        try {
          await ctx.storage.create(ctx.key('x'), configMap('x', { labels: no, data: { v: '0' } }));
          const added = (await set(ctx, 'x', yes, '1')).object; // starts matching
          const modified = (await set(ctx, 'x', yes, '2')).object; // still matching
          const left = (await set(ctx, 'x', no, '3')).object; // stops matching
          await set(ctx, 'x', no, '4'); // neither
          await ctx.storage.delete(ctx.key('x')); // not matching: nothing
          const y = await ctx.storage.create(ctx.key('y'), configMap('y', { labels: yes }));
          const yDeleted = await ctx.storage.delete(ctx.key('y'));
          expect(await drainWith(ctx, w)).toEqual([
            { type: 'ADDED', name: 'x', rv: rvOf(added), data: { v: '1' } },
            { type: 'MODIFIED', name: 'x', rv: rvOf(modified), data: { v: '2' } },
            // kube's watchers send the last matching state at the revision that left.
            { type: 'DELETED', name: 'x', rv: rvOf(left), data: { v: '2' } },
            { type: 'ADDED', name: 'y', rv: rvOf(y), data: { v: '1' } },
            { type: 'DELETED', name: 'y', rv: rvOf(yDeleted), data: { v: '1' } },
          ]);
        } finally {
          w.close();
        }
      },
    },
    {
      name: 'only keys under the prefix are watched',
      run: async (ctx) => {
        const start = await ctx.storage.currentResourceVersion();
        const w = recordWatch(ctx.storage, `${ctx.prefix}ns/`, { resourceVersion: start });
        try {
          await ctx.storage.create(`${ctx.prefix}ns2/a`, configMap('a'));
          const inside = await ctx.storage.create(`${ctx.prefix}ns/b`, configMap('b'));
          await w.until('the event under the prefix', () => w.events.length > 0);
          expect(w.events.map((e) => e.object.metadata.name)).toEqual(['b']);
          expect(rvOf(w.events[0]!.object)).toBe(rvOf(inside));
        } finally {
          w.close();
        }
      },
    },
    {
      name: 'close stops delivery',
      run: async (ctx) => {
        const start = await ctx.storage.currentResourceVersion();
        const closed = recordWatch(ctx.storage, ctx.prefix, { resourceVersion: start });
        const open = recordWatch(ctx.storage, ctx.prefix, { resourceVersion: start });
        closed.close();
        try {
          await drainWith(ctx, open);
          expect(closed.events).toEqual([]);
          expect(closed.errors).toEqual([]);
        } finally {
          open.close();
        }
      },
    },
    {
      name: 'a malformed resourceVersion is BadRequest',
      run: async (ctx) => {
        expectStorageErrorSync(() => ctx.storage.watch(ctx.prefix, { resourceVersion: 'nope', onEvent: () => {}, onError: () => {} }), 'BadRequest');
      },
    },
  ],
};

export const compactionCases: SuiteGroup = {
  group: 'compaction',
  cases: [
    {
      name: 'get and list at a compacted revision are Compacted',
      run: async (ctx) => {
        const { first, latest } = await history(ctx);
        await compactOrFail(ctx, latest);
        await expectStorageError(ctx.storage.get(ctx.key('a'), { resourceVersion: String(first), resourceVersionMatch: 'Exact' }), 'Compacted');
        await expectStorageError(ctx.storage.list(ctx.prefix, { resourceVersion: String(first), resourceVersionMatch: 'Exact' }), 'Compacted');
        // The latest state survives compaction.
        expect(rvOf(await ctx.storage.get(ctx.key('a')))).toBe(latest);
      },
    },
    {
      name: 'a continue token whose revision was compacted is Compacted',
      run: async (ctx) => {
        for (const name of ['a', 'b', 'c']) await ctx.storage.create(ctx.key(name), configMap(name));
        const page = await ctx.storage.list(ctx.prefix, { limit: 1 });
        expect(page.continue).toBeDefined();
        const later = rvOf((await set(ctx, 'b', {}, 'later')).object);
        await compactOrFail(ctx, later);
        await expectStorageError(ctx.storage.list(ctx.prefix, { limit: 1, continue: page.continue! }), 'Compacted');
      },
    },
    {
      name: 'a watch from a compacted revision ends with Compacted',
      run: async (ctx) => {
        const { first, latest } = await history(ctx);
        await compactOrFail(ctx, latest);
        const w = recordWatch(ctx.storage, ctx.prefix, { resourceVersion: String(first) });
        try {
          await w.until('an error', () => w.errors.length > 0);
          expect(isStorageError(w.errors[0], 'Compacted')).toBe(true);
          expect(w.errors).toHaveLength(1);
          expect(w.events).toEqual([]);
        } finally {
          w.close();
        }
      },
    },
  ],
};
