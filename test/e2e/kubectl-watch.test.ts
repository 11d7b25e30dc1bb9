// Issue 11, done when: list and watch as kubectl 1.27 and 1.33 use them —
// `get -w` (config maps and pods), `--watch-only`, `--output-watch-events`,
// `wait --for=delete` and `--for=jsonpath`, `--chunk-size=50` over 600 objects,
// `-l` and `--field-selector` with get and get -w. Long-running kubectl runs
// with `-v=6` so a test starts writing only once the watch is open, reads stdout
// as it comes and waits for the lines it expects; every process is killed in
// `finally`.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, call, writeOk, type Credentials } from './support/http.js';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { requestUrls, rows, streamingKubectl, watchStarted, type KubectlProcess, type StreamingKubectl } from './support/kubectl-stream.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']).filter((b) => b.name !== 'kubectl');
const CHUNK_NS = 'chunks';
const CHUNK_OBJECTS = 600;
let server: RunningKapi;
let admin: Required<Credentials>;

beforeAll(async () => {
  server = await startKapi();
  admin = adminCredentials(server.kubeconfig);
  await createNamespace(CHUNK_NS);
  const names = Array.from({ length: CHUNK_OBJECTS }, (_, i) => `cm-${String(i).padStart(3, '0')}`);
  // 16 writers at a time: quick without queueing 600 requests at once.
  for (let i = 0; i < names.length; i += 16) {
    await Promise.all(names.slice(i, i + 16).map((name, j) => write('POST', cmPath(CHUNK_NS), configMap(name, { i: name }, (i + j) % 7 === 0 ? { seventh: 'yes' } : {}))));
  }
}, 120_000);
afterAll(async () => server?.stop());

const cmPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name === undefined ? '' : `/${name}`}`;
const podPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/pods${name === undefined ? '' : `/${name}`}`;

function configMap(name: string, data: Record<string, string> = {}, labels?: Record<string, string>): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(labels === undefined ? {} : { labels }) }, data };
}

function pod(name: string, labels?: Record<string, string>): object {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, ...(labels === undefined ? {} : { labels }) },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
  };
}

/** One write over HTTP; the writes are not what is tested, so they skip kubectl's start-up. */
const write = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: object): Promise<void> => writeOk(server, admin, method, path, body);

/** A namespace with its kube-root-ca.crt published, so no late ADDED of it reaches a watch. */
async function createNamespace(ns: string): Promise<void> {
  await write('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await eventually(`kube-root-ca.crt in ${ns}`, async () => (await call(server, admin, { path: cmPath(ns, 'kube-root-ca.crt') })).status === 200);
}

/** Starts kubectl with `-v=6`, waits until its watch is open, runs `body`, kills kubectl whatever happens. */
async function whileWatching(s: StreamingKubectl, args: string[], body: (p: KubectlProcess) => Promise<void>): Promise<void> {
  const p = s.start([...args, '-v=6']);
  try {
    await p.waitForStderr('the watch request', watchStarted);
    await body(p);
  } finally {
    await p.kill();
  }
}

/** Waits until stdout has `n` whole non-empty lines and answers them, each cut to its first `cols` cells (AGE varies). */
async function lines(p: KubectlProcess, n: number, cols: number): Promise<string[][]> {
  // Only lines kubectl has ended: a line can arrive in two reads.
  const whole = (out: string) => rows(out.slice(0, out.lastIndexOf('\n') + 1));
  await p.waitForStdout(`${n} lines`, (out) => whole(out).length >= n);
  return whole(p.stdout()).map((r) => r.slice(0, cols));
}

test('kubectl 1.27 and 1.33 are present', () => {
  expect(binaries.map((b) => b.name)).toEqual(['kubectl.1.27', 'kubectl.1.33']);
});

for (const binary of binaries) {
  describe(`watch, wait and chunked lists with ${binary.name}`, () => {
    const v = binary.name.replace(/\W/g, '');
    let k: Kubectl;
    let s: StreamingKubectl;
    let n = 0;
    /** A fresh namespace per test, so each watch sees only that test's writes. */
    const freshNamespace = async () => {
      const ns = `w${v}-${n++}`;
      await createNamespace(ns);
      return ns;
    };
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
      s = streamingKubectl(binary, server.kubeconfig);
    });

    test('get cm -w --output-watch-events: the list as ADDED, then ADDED, MODIFIED, DELETED', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('a', { x: '1' }));
      await whileWatching(s, ['-n', ns, 'get', 'cm', '-w', '--output-watch-events'], async (p) => {
        await write('POST', cmPath(ns), configMap('b'));
        await write('PATCH', cmPath(ns, 'a'), { data: { x: '2', y: '3' } });
        await write('DELETE', cmPath(ns, 'b'));
        // A last write that ends the expected lines: nothing extra may come before it.
        await write('POST', cmPath(ns), configMap('zz-end'));
        expect(await lines(p, 7, 3)).toEqual([
          ['EVENT', 'NAME', 'DATA'],
          ['ADDED', 'a', '1'],
          ['ADDED', 'kube-root-ca.crt', '1'],
          ['ADDED', 'b', '0'],
          ['MODIFIED', 'a', '2'],
          // DELETED carries the last state of the object.
          ['DELETED', 'b', '0'],
          ['ADDED', 'zz-end', '0'],
        ]);
      });
    });

    test('get cm -w: the list, then one row per change', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('a', { x: '1' }));
      await whileWatching(s, ['-n', ns, 'get', 'cm', '-w'], async (p) => {
        await write('POST', cmPath(ns), configMap('b', { k: 'v' }));
        await write('PATCH', cmPath(ns, 'a'), { data: { x: '2', y: '3' } });
        await write('DELETE', cmPath(ns, 'b'));
        expect(await lines(p, 6, 2)).toEqual([['NAME', 'DATA'], ['a', '1'], ['kube-root-ca.crt', '1'], ['b', '1'], ['a', '2'], ['b', '1']]);
      });
    });

    test('get cm --watch-only: only what changes after the start', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('old', { x: '1' }));
      await whileWatching(s, ['-n', ns, 'get', 'cm', '--watch-only', '--output-watch-events'], async (p) => {
        await write('POST', cmPath(ns), configMap('new'));
        await write('PATCH', cmPath(ns, 'old'), { data: { x: '2', y: '3' } });
        await write('DELETE', cmPath(ns, 'new'));
        expect(await lines(p, 4, 3)).toEqual([['EVENT', 'NAME', 'DATA'], ['ADDED', 'new', '0'], ['MODIFIED', 'old', '2'], ['DELETED', 'new', '0']]);
      });
    });

    test('get cm --watch-only -o name', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('old'));
      await whileWatching(s, ['-n', ns, 'get', 'cm', '--watch-only', '-o', 'name'], async (p) => {
        await write('POST', cmPath(ns), configMap('new'));
        await write('DELETE', cmPath(ns, 'old'));
        expect(await lines(p, 2, 1)).toEqual([['configmap/new'], ['configmap/old']]);
      });
    });

    test('get pods -w --output-watch-events: ADDED, MODIFIED (status), DELETED', async () => {
      const ns = await freshNamespace();
      await write('POST', podPath(ns), pod('p1'));
      await whileWatching(s, ['-n', ns, 'get', 'pods', '-w', '--output-watch-events'], async (p) => {
        await write('POST', podPath(ns), pod('p2'));
        await write('PATCH', `${podPath(ns, 'p2')}/status`, { status: { phase: 'Failed' } });
        // Never scheduled: deleted at once, no grace period.
        await write('DELETE', podPath(ns, 'p2'));
        await write('POST', podPath(ns), pod('p3'));
        expect(await lines(p, 6, 5)).toEqual([
          ['EVENT', 'NAME', 'READY', 'STATUS', 'RESTARTS'],
          ['ADDED', 'p1', '0/1', 'Pending', '0'],
          ['ADDED', 'p2', '0/1', 'Pending', '0'],
          ['MODIFIED', 'p2', '0/1', 'Failed', '0'],
          ['DELETED', 'p2', '0/1', 'Failed', '0'],
          ['ADDED', 'p3', '0/1', 'Pending', '0'],
        ]);
      });
    });

    test('get -l selects by label', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('a', {}, { app: 'x' }));
      await write('POST', cmPath(ns), configMap('b', {}, { app: 'y' }));
      await write('POST', cmPath(ns), configMap('c', {}, { app: 'x', tier: 'db' }));
      expect(rows(ok(k, ['-n', ns, 'get', 'cm', '-l', 'app=x', '-o', 'name']))).toEqual([['configmap/a'], ['configmap/c']]);
      expect(rows(ok(k, ['-n', ns, 'get', 'cm', '-l', 'app in (x,y),!tier', '-o', 'name']))).toEqual([['configmap/a'], ['configmap/b']]);
      const none = k.run(['-n', ns, 'get', 'cm', '-l', 'app=z']);
      expect(none).toMatchObject({ code: 0, stdout: '' });
      expect(none.stderr).toBe(`No resources found in ${ns} namespace.\n`);
    });

    test('get -w -l: an object that starts matching is ADDED, one that stops is DELETED with its last matching state', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('a', {}, { app: 'x' }));
      await write('POST', cmPath(ns), configMap('c', {}, { app: 'y' }));
      await whileWatching(s, ['-n', ns, 'get', 'cm', '-w', '-l', 'app=x', '--output-watch-events', '--show-labels'], async (p) => {
        await write('POST', cmPath(ns), configMap('b', {}, { app: 'x' }));
        await write('PATCH', cmPath(ns, 'a'), { metadata: { labels: { app: 'y' } } });
        await write('PATCH', cmPath(ns, 'c'), { metadata: { labels: { app: 'x' } } });
        await write('PATCH', cmPath(ns, 'b'), { data: { k: 'v' } });
        // Writes to objects that match neither before nor after are not seen.
        await write('PATCH', cmPath(ns, 'a'), { data: { k: 'v' } });
        await write('DELETE', cmPath(ns, 'c'));
        const got = await lines(p, 7, 5);
        expect(got.map((r) => [r[0], r[1], r[2], r[4]])).toEqual([
          ['EVENT', 'NAME', 'DATA', 'LABELS'],
          ['ADDED', 'a', '0', 'app=x'],
          ['ADDED', 'b', '0', 'app=x'],
          // kube-apiserver sends the object as it last matched.
          ['DELETED', 'a', '0', 'app=x'],
          ['ADDED', 'c', '0', 'app=x'],
          ['MODIFIED', 'b', '1', 'app=x'],
          ['DELETED', 'c', '0', 'app=x'],
        ]);
      });
    });

    test('get --field-selector, on config maps and pods', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('a'));
      await write('POST', cmPath(ns), configMap('b'));
      await write('POST', podPath(ns), pod('run'));
      await write('POST', podPath(ns), pod('wait'));
      await write('PATCH', `${podPath(ns, 'run')}/status`, { status: { phase: 'Running' } });
      expect(rows(ok(k, ['-n', ns, 'get', 'cm', '--field-selector', 'metadata.name=b', '-o', 'name']))).toEqual([['configmap/b']]);
      expect(rows(ok(k, ['-n', ns, 'get', 'cm', '--field-selector', 'metadata.name!=b', '-o', 'name']))).toEqual([['configmap/a'], ['configmap/kube-root-ca.crt']]);
      expect(rows(ok(k, ['-n', ns, 'get', 'pods', '--field-selector', 'status.phase=Running', '-o', 'name']))).toEqual([['pod/run']]);
      expect(rows(ok(k, ['-n', ns, 'get', 'pods', '--field-selector', 'status.phase!=Running,metadata.name=wait', '-o', 'name']))).toEqual([['pod/wait']]);
      const bad = k.run(['-n', ns, 'get', 'pods', '--field-selector', 'spec.nope=x']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('field label not supported: spec.nope');
    });

    test('get -w --field-selector: a pod that leaves the phase is DELETED as it last matched', async () => {
      const ns = await freshNamespace();
      await write('POST', podPath(ns), pod('p1'));
      await whileWatching(s, ['-n', ns, 'get', 'pods', '-w', '--field-selector', 'status.phase=Pending', '--output-watch-events'], async (p) => {
        await write('POST', podPath(ns), pod('p2'));
        await write('PATCH', `${podPath(ns, 'p1')}/status`, { status: { phase: 'Running' } });
        await write('PATCH', podPath(ns, 'p2'), { metadata: { labels: { seen: 'yes' } } });
        await write('DELETE', podPath(ns, 'p2'));
        expect(await lines(p, 6, 4)).toEqual([
          ['EVENT', 'NAME', 'READY', 'STATUS'],
          ['ADDED', 'p1', '0/1', 'Pending'],
          ['ADDED', 'p2', '0/1', 'Pending'],
          ['DELETED', 'p1', '0/1', 'Pending'],
          ['MODIFIED', 'p2', '0/1', 'Pending'],
          ['DELETED', 'p2', '0/1', 'Pending'],
        ]);
      });
    });

    test('wait --for=delete ends when the object is deleted', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('doomed'));
      const p = s.start(['-n', ns, 'wait', '--for=delete', 'cm/doomed', '--timeout=30s', '-v=6']);
      try {
        await p.waitForStderr('the watch request', watchStarted);
        expect(p.running()).toBe(true);
        await write('DELETE', cmPath(ns, 'doomed'));
        expect(await p.exited).toEqual({ code: 0, signal: null });
        expect(p.stdout()).toBe('configmap/doomed condition met\n');
      } finally {
        await p.kill();
      }
    });

    test('wait --for=delete times out while the object stays', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('stays'));
      const res = k.run(['-n', ns, 'wait', '--for=delete', 'cm/stays', '--timeout=1s']);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe('error: timed out waiting for the condition on configmaps/stays\n');
    });

    test("wait --for=jsonpath='{.data.x}'=y ends with the write that makes it true", async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('j', { x: 'n' }));
      const p = s.start(['-n', ns, 'wait', '--for=jsonpath={.data.x}=y', 'cm/j', '--timeout=30s', '-v=6']);
      try {
        await p.waitForStderr('the watch request', watchStarted);
        // A write that does not meet the condition first: the wait goes on.
        await write('PATCH', cmPath(ns, 'j'), { data: { x: 'z' } });
        await write('PATCH', cmPath(ns, 'j'), { data: { x: 'y' } });
        expect(await p.exited).toEqual({ code: 0, signal: null });
        expect(p.stdout()).toBe('configmap/j condition met\n');
        expect(p.stderr()).not.toMatch(/^error/m);
      } finally {
        await p.kill();
      }
    });

    // client-go 1.30+ reads feature gates from KUBE_FEATURE_<gate>; 1.27 has no WatchListClient.
    test.runIf(binary.name === 'kubectl.1.33')('wait over a streaming list (WatchListClient): initial events, their end bookmark, then live events', async () => {
      const ns = await freshNamespace();
      await write('POST', cmPath(ns), configMap('s', { x: 'n' }));
      await write('POST', cmPath(ns), configMap('other', { x: 'n' }));
      const p = s.start(['-n', ns, 'wait', '--for=jsonpath={.data.x}=y', 'cm/s', '--timeout=30s', '-v=6'], { KUBE_FEATURE_WatchListClient: 'true' });
      try {
        const stderr = await p.waitForStderr('the initial-events-end bookmark', (e) => e.includes('received the bookmark that marks the end of initial events stream'));
        const collection = requestUrls(stderr).filter((u) => u.pathname === cmPath(ns));
        // No list: one watch that streams the state first.
        expect(collection.map((u) => Object.fromEntries(u.searchParams))).toEqual([
          { allowWatchBookmarks: 'true', fieldSelector: 'metadata.name=s', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: 'true', timeoutSeconds: expect.stringMatching(/^\d+$/), watch: 'true' },
        ]);
        // client-go counts the events before the bookmark and the bookmark: the one selected object, then the bookmark.
        expect(stderr).toMatch(/initial events stream.*totalItems=2\b/);
        expect(p.running()).toBe(true);
        await write('PATCH', cmPath(ns, 's'), { data: { x: 'y' } });
        expect(await p.exited).toEqual({ code: 0, signal: null });
        expect(p.stdout()).toBe('configmap/s condition met\n');
      } finally {
        await p.kill();
      }
    });

    test(`get --chunk-size=50 over ${CHUNK_OBJECTS} objects: every name once, in pages of 50`, () => {
      const res = k.run(['-n', CHUNK_NS, 'get', 'cm', '--chunk-size=50', '-o', 'name', '-v=6']);
      expect(res.code).toBe(0);
      const names = rows(res.stdout).map((r) => r[0]);
      const expected = ['configmap/kube-root-ca.crt', ...Array.from({ length: CHUNK_OBJECTS }, (_, i) => `configmap/cm-${String(i).padStart(3, '0')}`)].sort();
      expect([...names].sort()).toEqual(expected);

      // 601 objects: 13 GETs with limit=50; the first without continue, each next one with the token the previous page gave.
      const pages = requestUrls(res.stderr).filter((u) => u.pathname === cmPath(CHUNK_NS));
      expect(pages.length).toBe(13);
      expect(pages.every((u) => u.searchParams.get('limit') === '50')).toBe(true);
      expect(pages[0]!.searchParams.has('continue')).toBe(false);
      const tokens = pages.slice(1).map((u) => u.searchParams.get('continue'));
      expect(tokens.every((t) => t !== null && t !== '')).toBe(true);
      expect(new Set(tokens).size).toBe(12);
    });

    test('get --chunk-size=50 as a table: one header, every row', () => {
      const out = rows(ok(k, ['-n', CHUNK_NS, 'get', 'cm', '--chunk-size=50']));
      expect(out[0]!.slice(0, 2)).toEqual(['NAME', 'DATA']);
      const body = out.slice(1);
      expect(body.length).toBe(CHUNK_OBJECTS + 1);
      expect(body.filter((r) => r[0] === 'NAME')).toEqual([]);
      expect(new Set(body.map((r) => r[0])).size).toBe(CHUNK_OBJECTS + 1);
      expect(body.find((r) => r[0] === 'cm-599')?.[1]).toBe('1');
    });

    test('get --chunk-size=50 with -l pages through the selection', () => {
      const res = k.run(['-n', CHUNK_NS, 'get', 'cm', '--chunk-size=50', '-l', 'seventh=yes', '-o', 'name', '-v=6']);
      expect(res.code).toBe(0);
      const expected = Array.from({ length: Math.ceil(CHUNK_OBJECTS / 7) }, (_, i) => `configmap/cm-${String(i * 7).padStart(3, '0')}`);
      expect(rows(res.stdout).map((r) => r[0])).toEqual(expected);
      // 86 matches do not fit one page of 50.
      const pages = requestUrls(res.stderr).filter((u) => u.pathname === cmPath(CHUNK_NS));
      expect(pages.length).toBeGreaterThanOrEqual(2);
      expect(pages.every((u) => u.searchParams.get('limit') === '50' && u.searchParams.get('labelSelector') === 'seventh=yes')).toBe(true);
    });
  });
}
