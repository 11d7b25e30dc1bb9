// Issue 11, done when: an informer from @kubernetes/client-node keeps an exact
// mirror of the server through creates, updates, deletes, watches the server
// ends (--min-request-timeout=1: every 1–2 s) and a forced 410 relist.
//
// The 410: the server keeps 50 events per resource (--watch-cache-max-events);
// the informer is stopped, more than 50 writes happen, and it is started
// again. client-node then re-watches from the resourceVersion it last saw, the
// server answers that watch with an ERROR event (410 Expired, "too old resource
// version"), and the informer lists afresh. A RecordingWatch sees each watch
// request and event, since the informer reports neither.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CoreV1Api, KubeConfig, ListWatch, type V1ConfigMap } from '@kubernetes/client-node';
import { adminCredentials, call, writeOk, type Credentials } from './support/http.js';
import { RecordingWatch } from './support/recording-watch.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';

const NS = 'mirror';
const MAX_EVENTS = 50;
let server: RunningKapi;
let admin: Required<Credentials>;
let core: CoreV1Api;
let kc: KubeConfig;

beforeAll(async () => {
  server = await startKapi({ args: [`--watch-cache-max-events=${MAX_EVENTS}`, '--min-request-timeout=1'] });
  admin = adminCredentials(server.kubeconfig);
  kc = new KubeConfig();
  kc.loadFromFile(server.kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NS } } });
  await eventually('kube-root-ca.crt published', async () => (await call(server, admin, { path: cmPath('kube-root-ca.crt') })).status === 200);
}, 60_000);
afterAll(async () => server?.stop());

const cmPath = (name?: string) => `/api/v1/namespaces/${NS}/configmaps${name === undefined ? '' : `/${name}`}`;

/** One write over HTTP; the writes are not what is tested, so they skip kubectl's start-up. */
const write = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: object): Promise<void> => writeOk(server, admin, method, path, body);

const create = (name: string, labels: Record<string, string> = {}) =>
  write('POST', cmPath(), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { v: '0' } });
const update = (name: string, v: string) => write('PATCH', cmPath(name), { data: { v } });
const relabel = (name: string, labels: Record<string, string>) => write('PATCH', cmPath(name), { metadata: { labels } });
const remove = (name: string) => write('DELETE', cmPath(name));

/** What must agree between mirror and server: name, resourceVersion, labels, data. */
function summary(items: readonly V1ConfigMap[]): string[] {
  return items
    .map((cm) => JSON.stringify([cm.metadata?.name, cm.metadata?.resourceVersion, cm.metadata?.labels ?? {}, cm.data ?? {}]))
    .sort();
}

/** An informer over the namespace's config maps that records what it did. */
function informer(labelSelector?: string) {
  const watch = new RecordingWatch(kc);
  const fetchList = () => core.listNamespacedConfigMap({ namespace: NS, ...(labelSelector === undefined ? {} : { labelSelector }) });
  let lists = 0;
  const listFn = () => {
    lists++;
    return fetchList();
  };
  const inf = new ListWatch<V1ConfigMap>(cmPath(), watch, listFn, false, labelSelector);
  const log: string[] = [];
  const errors: unknown[] = [];
  inf.on('add', (o) => log.push(`add ${o.metadata?.name}`));
  inf.on('update', (o) => log.push(`update ${o.metadata?.name} v=${o.data?.v}`));
  inf.on('delete', (o) => log.push(`delete ${o.metadata?.name}`));
  inf.on('error', (e) => errors.push(e));
  return {
    inf,
    watch,
    log,
    errors,
    lists: () => lists,
    /** Waits until the mirror equals a fresh list from the server. */
    async inSync(what: string): Promise<void> {
      let mirror: string[] = [];
      let fresh: string[] = [];
      try {
        await eventually(what, async () => {
          fresh = summary((await fetchList()).items);
          mirror = summary(inf.list(NS));
          return JSON.stringify(mirror) === JSON.stringify(fresh);
        });
      } catch (err) {
        // Show the difference rather than only the timeout.
        expect(mirror).toEqual(fresh);
        throw err;
      }
    },
    /** Waits until the server has ended one more of its watches and the informer has opened the next. */
    async reconnected(): Promise<void> {
      const before = watch.calls.length;
      await eventually('the server ends the watch and the informer reconnects', () => watch.calls.length > before, 5_000);
    },
  };
}

describe('an informer from @kubernetes/client-node', () => {
  let all: ReturnType<typeof informer>;
  let selected: ReturnType<typeof informer>;
  beforeAll(() => {
    all = informer();
    selected = informer('mirror=yes');
  });
  afterAll(async () => {
    await all?.inf.stop();
    await selected?.inf.stop();
  });

  test('lists, then mirrors creates, updates, relabels and deletes across watches the server ends', async () => {
    await all.inf.start();
    await selected.inf.start();
    expect(all.log).toEqual(['add kube-root-ca.crt']);
    expect(selected.log).toEqual([]);

    const names = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    for (const [i, name] of names.entries()) await create(name, i % 2 === 0 ? { mirror: 'yes' } : {});
    await all.inSync('mirror after creates');
    await selected.inSync('selected mirror after creates');

    await all.reconnected();
    for (const name of names.slice(0, 10)) await update(name, '1');
    await relabel('c01', { mirror: 'yes' });
    await relabel('c02', { mirror: 'no' });
    await all.inSync('mirror after updates');
    await selected.inSync('selected mirror after updates');

    await all.reconnected();
    for (const name of names.slice(10, 15)) await remove(name);
    await all.inSync('mirror after deletes');
    await selected.inSync('selected mirror after deletes');

    expect(all.log).toEqual([
      'add kube-root-ca.crt',
      ...names.map((n) => `add ${n}`),
      ...names.slice(0, 10).map((n) => `update ${n} v=1`),
      'update c01 v=1',
      'update c02 v=1',
      ...names.slice(10, 15).map((n) => `delete ${n}`),
    ]);
    // The selection: c01 starts matching (ADDED), c02 stops (DELETED).
    expect(selected.log).toEqual([
      ...names.filter((_, i) => i % 2 === 0).map((n) => `add ${n}`),
      ...names.slice(0, 10).filter((_, i) => i % 2 === 0).map((n) => `update ${n} v=1`),
      'add c01',
      'delete c02',
      ...['c10', 'c12', 'c14'].map((n) => `delete ${n}`),
    ]);

    // No 410 so far: one list each, and every watch after the first resumed from a version the informer had seen.
    expect(all.lists()).toBe(1);
    expect(selected.lists()).toBe(1);
    expect(all.watch.calls.length).toBeGreaterThanOrEqual(3);
    for (const w of all.watch.calls) expect(w.query.resourceVersion).toMatch(/^\d+$/);
    for (const w of [...all.watch.calls, ...selected.watch.calls]) expect(w.events.filter((e) => e.type === 'ERROR')).toEqual([]);
    expect(all.errors).toEqual([]);
    expect(selected.errors).toEqual([]);
  });

  test('relists after a 410 when history moved on while it was away, and mirrors exactly again', async () => {
    for (const i of [all, selected]) {
      await i.inf.stop();
      const last = i.watch.calls.at(-1)!;
      await eventually('the stopped informer’s watch has ended', () => last.ended !== undefined);
      i.log.length = 0;
    }
    const allFrom = all.inf.latestResourceVersion();
    const selectedFrom = selected.inf.latestResourceVersion();
    const allWatches = all.watch.calls.length;
    const selectedWatches = selected.watch.calls.length;

    // While away: a create, an update, a relabel out of the selection, two deletes, then more than
    // the server keeps of history.
    await create('d00', { mirror: 'yes' });
    await update('c00', '2');
    await relabel('c04', { mirror: 'no' });
    await remove('c15');
    await remove('c16');
    await create('churn');
    for (let i = 1; i <= MAX_EVENTS + 5; i++) await update('churn', String(i));

    await all.inf.start();
    await selected.inf.start();
    await all.inSync('mirror after the relist');
    await selected.inSync('selected mirror after the relist');

    for (const [i, from, watches] of [[all, allFrom, allWatches], [selected, selectedFrom, selectedWatches]] as const) {
      // The first watch resumed at the old version and got a 410 ERROR event as kube-apiserver sends it.
      const resumed = i.watch.calls[watches]!;
      expect(resumed.query.resourceVersion).toBe(from);
      expect(resumed.events).toHaveLength(1);
      expect(resumed.events[0]!.type).toBe('ERROR');
      expect(resumed.events[0]!.object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
      expect(resumed.events[0]!.object.message).toMatch(new RegExp(`^too old resource version: ${from} \\(\\d+\\)$`));
      await eventually('the 410 watch has ended', () => resumed.ended !== undefined);
      expect(resumed.ended!.error).toBeNull();
      // Then it listed again and watched from the list's version.
      expect(i.lists()).toBe(2);
      expect(Number(i.watch.calls[watches + 1]!.query.resourceVersion)).toBeGreaterThan(Number(from));
    }
    expect(all.log.sort()).toEqual(['add churn', 'add d00', 'delete c15', 'delete c16', 'update c00 v=2', `update c04 v=1`].sort());
    // c04 left the selection and c16 was deleted; c15 and churn were never in it.
    expect(selected.log.sort()).toEqual(['add d00', 'delete c04', 'delete c16', 'update c00 v=2'].sort());
  });

  test('keeps mirroring after the relist', async () => {
    all.log.length = 0;
    await create('e00', { mirror: 'yes' });
    await update('d00', '1');
    await remove('c00');
    await all.inSync('mirror after the relist and more writes');
    await selected.inSync('selected mirror after the relist and more writes');
    expect(all.log).toEqual(['add e00', 'update d00 v=1', 'delete c00']);
    expect(all.lists()).toBe(2);
  });
});
