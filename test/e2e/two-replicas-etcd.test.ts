// Two kapi replicas on one etcd (issue 11, part 7), as DESIGN's scale-out runs
// them: each has its own data dir and watch cache, both share one --cert-dir (the
// CA, serving pair and service-account key: docker-compose's layout), and one
// kubeconfig works against either. Through HTTP (and kubectl once) the file shows:
// a watch on one sees every write made through the other, in order, with the
// resourceVersions the writer answered; a list at a version from one (Exact,
// NotOlderThan, a continue token) is served by the other; a consistent read right
// after a write elsewhere sees it; starting both at once on an empty etcd makes
// each bootstrap object once (etcd's own history says so); restarting one leaves
// the other undisturbed; and the in-process controllers of both converge instead
// of fighting — while they share the cert dir: a replica with its own (the
// default) makes the root-ca publishers rewrite kube-root-ca.crt in turn without
// end (the last case, a reported bug). The replicas run with --etcd-compaction-interval=0 so that
// history is still there to read.
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { apiserverIdentity, IDENTITY_LABEL } from '../../src/server/bootstrap-system.js';
import { openEtcdKv } from '../../src/storage/etcd/index.js';
import type { KV } from '../../src/storage/kv.js';
import { describeWithEtcd } from '../support/etcd.js';
import { changesByKey, etcdHistory } from './support/etcd-history.js';
import { adminCredentials, call, type Answer, type Credentials } from './support/http.js';
import { kubectl, kubectlBinaries } from './support/kubectl.js';
import { eventually, freePort, spawnKapi, startKapi, type RunningKapi } from './support/server.js';
import { openWatch, type OpenWatch, type WatchEvent } from './support/watch-stream.js';

const PREFIX = '/two-replicas';
/** Keys a replica's start may rewrite once after the other made them (see the first test). */
const SETTLED_AT_START = new RegExp(
  `^/(${[
    'flowcontrol\\.apiserver\\.k8s\\.io/flowschemas/[^/]+',
    'rbac\\.authorization\\.k8s\\.io/clusterroles/(admin|edit|view)',
    'networking\\.k8s\\.io/servicecidrs/kubernetes',
    'coordination\\.k8s\\.io/leases/kube-system/apiserver-[a-z2-7]+',
    // The controllers' leader renews its lease every 2 s.
    'coordination\\.k8s\\.io/leases/kube-system/kube-controller-manager',
    'services/default/kubernetes',
    'endpoints/default/kubernetes',
    'configmaps/kube-public/cluster-info',
  ].join('|')})$`,
);

interface Meta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
}

describeWithEtcd('two kapi replicas on one etcd', (ctx) => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-two-replicas-'));
    dirs.push(dir);
    return dir;
  };
  let certDir: string;
  let dataDirs: [string, string];
  let ports: [number, number];
  let a: RunningKapi;
  let b: RunningKapi;
  /** The credentials of replica a's admin.kubeconfig, used against both replicas. */
  let admin: Required<Credentials>;
  let kv: KV;
  /** etcd's revision once both were ready: everything before it is the two starts. */
  let bootRevision: number;
  const watches: OpenWatch[] = [];

  const args = () => ['--storage-backend=etcd3', `--etcd-servers=${ctx.etcd.endpoint}`, `--etcd-prefix=${PREFIX}`, `--cert-dir=${certDir}`, '--etcd-compaction-interval=0'];
  const start = (i: 0 | 1) => startKapi({ dataDir: dataDirs[i], port: ports[i], args: args(), readyTimeoutMs: 40_000 });

  beforeAll(async () => {
    certDir = tempDir();
    dataDirs = [tempDir(), tempDir()];
    ports = [await freePort(), await freePort()];
    kv = openEtcdKv({ endpoints: [ctx.etcd.endpoint], prefix: PREFIX, compactionIntervalMs: 0 });
    // Both at the same moment on an empty etcd.
    [a, b] = await Promise.all([start(0), start(1)]);
    bootRevision = await kv.currentRevision();
    admin = adminCredentials(a.kubeconfig);
  }, 60_000);
  afterAll(async () => {
    for (const w of watches) w.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await kv?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const send = (server: RunningKapi, method: string, path: string, body?: unknown): Promise<Answer> =>
    call(server, admin, {
      method,
      path,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  /** A request that must answer `status`; answers the body. */
  const must = async (status: number, server: RunningKapi, method: string, path: string, body?: unknown): Promise<any> => {
    const res = await send(server, method, path, body);
    expect(res.status, `${method} ${path} on :${server.port}: ${res.body.toString()}`).toBe(status);
    return res.json();
  };
  const watchOn = async (server: RunningKapi, path: string): Promise<OpenWatch> => {
    const w = await openWatch(server, admin, path);
    watches.push(w);
    expect(w.status, `watch ${path}`).toBe(200);
    return w;
  };
  const configMap = (name: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
  const namespace = async (name: string) => must(201, a, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const names = (list: { items: { metadata: Meta }[] }) => list.items.map((i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}@${i.metadata.resourceVersion}`);
  const notBookmarks = (events: readonly WatchEvent[]) => events.filter((e) => e.type !== 'BOOKMARK');
  const seen = (events: readonly WatchEvent[]) => notBookmarks(events).map((e) => `${e.type} ${e.object.metadata?.name} ${e.object.metadata?.resourceVersion}`);

  test('both started at once on an empty etcd: every bootstrap object is made once, and both serve the same ones', async () => {
    const history = await etcdHistory(kv, 0, bootRevision);
    const byKey = changesByKey(history);
    const twice = [...byKey].filter(([, c]) => c.create !== 1 || c.delete !== 0).map(([key, c]) => `${key} ${JSON.stringify(c)}`);
    expect(twice, 'keys created more than once or deleted during the starts').toEqual([]);
    // Updates during the starts: a second write finishing what a create began (the flow
    // schemas' Dangling and the ServiceCIDR's Ready conditions, the aggregated roles'
    // rules, the identity lease taken over by the other replica), and what differs per replica in this test only because they listen on different
    // ports (the kubernetes Service's targetPort and Endpoints, cluster-info's URL;
    // replicas behind a load balancer share a port). Each once: nobody fought. The
    // identity lease is also renewed every 10 s, so a slow start may see more.
    const updated = [...byKey].filter(([, c]) => c.update > 0);
    for (const [key, c] of updated) {
      expect(key).toMatch(SETTLED_AT_START);
      if (!key.startsWith('/coordination.k8s.io/leases/')) expect(c.update, key).toBe(1);
    }

    const kinds = [
      '/apis/scheduling.k8s.io/v1/priorityclasses',
      '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas',
      '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      '/apis/rbac.authorization.k8s.io/v1/roles',
      '/apis/rbac.authorization.k8s.io/v1/rolebindings',
      '/api/v1/namespaces',
      '/api/v1/services',
      '/api/v1/endpoints',
      '/apis/coordination.k8s.io/v1/leases',
    ];
    for (const kind of kinds) {
      const [onA, onB] = [await must(200, a, 'GET', kind), await must(200, b, 'GET', kind)];
      const uids = (list: { items: { metadata: Meta }[] }) => list.items.map((i) => `${i.metadata.namespace ?? ''}/${i.metadata.name} ${i.metadata.uid}`);
      expect(onA.items.length, kind).toBeGreaterThan(0);
      expect(uids(onB), kind).toEqual(uids(onA));
    }
    const pcs = await must(200, b, 'GET', '/apis/scheduling.k8s.io/v1/priorityclasses');
    expect(pcs.items.map((p: { metadata: Meta }) => p.metadata.name).sort()).toEqual(['system-cluster-critical', 'system-node-critical']);
    const ns = await must(200, b, 'GET', '/api/v1/namespaces');
    expect(ns.items.map((n: { metadata: Meta }) => n.metadata.name).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const svc = await must(200, b, 'GET', '/api/v1/namespaces/default/services/kubernetes');
    expect(svc.spec.clusterIP).toBe('10.0.0.1');
    // kube names the identity lease after the host (apiserver-<hash>): two replicas on
    // one host share it and take turns holding it, as kube-apiservers there would.
    const leases = await must(200, a, 'GET', `/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=${encodeURIComponent(`${IDENTITY_LABEL}=kube-apiserver`)}`);
    expect(leases.items.map((l: { metadata: Meta }) => l.metadata.name)).toEqual([apiserverIdentity(hostname())]);
  });

  test('a watch through one replica sees every write made through the other, in order, with the same resourceVersions', async () => {
    await namespace('watched');
    const path = '/api/v1/namespaces/watched/configmaps';
    const from = (await must(200, a, 'GET', path)).metadata.resourceVersion as string;
    const onA = await watchOn(a, `${path}?watch=true&resourceVersion=${from}&allowWatchBookmarks=true`);
    const onB = await watchOn(b, `${path}?watch=true&resourceVersion=${from}&allowWatchBookmarks=true`);
    // Writes alternate between the replicas: create, update, delete of each name.
    const expected: string[] = [];
    for (let i = 0; i < 6; i++) {
      const [writer, other] = i % 2 === 0 ? [b, a] : [a, b];
      const name = `cm-${i}`;
      const made = await must(201, writer, 'POST', path, configMap(name, { step: '0' }));
      expected.push(`ADDED ${name} ${made.metadata.resourceVersion}`);
      const changed = await must(200, other, 'PUT', `${path}/${name}`, { ...made, data: { step: '1' } });
      expected.push(`MODIFIED ${name} ${changed.metadata.resourceVersion}`);
      if (i % 3 !== 2) {
        // A configmap's delete answers a Status (kube's ReturnDeletedObject is off for
        // it): the version of the deletion comes from etcd's history below.
        const gone = await must(200, writer, 'DELETE', `${path}/${name}`);
        expect(gone).toMatchObject({ kind: 'Status', status: 'Success', details: { name, kind: 'configmaps' } });
        expected.push(`DELETED ${name} ?`);
      }
    }
    const last = Number((await must(200, a, 'GET', path)).metadata.resourceVersion);
    const deletes = (await etcdHistory(kv, Number(from), last)).filter((e) => e.type === 'delete' && e.key.startsWith('/configmaps/watched/'));
    expect(deletes).toHaveLength(expected.filter((e) => e.startsWith('DELETED')).length);
    for (const d of deletes) {
      const at = expected.indexOf(`DELETED ${d.key.split('/').at(-1)} ?`);
      expect(at, d.key).toBeGreaterThanOrEqual(0);
      expected[at] = `DELETED ${d.key.split('/').at(-1)} ${d.revision}`;
    }
    const revisions = expected.map((e) => Number(e.split(' ')[2]));
    expect(revisions, 'each write answered a newer version').toEqual([...revisions].sort((x, y) => x - y));
    for (const w of [onA, onB]) await w.until('every write', (events) => notBookmarks(events).length >= expected.length);
    expect(seen(onA.events)).toEqual(expected);
    expect(seen(onB.events)).toEqual(expected);

    // Both replicas writing at once: each watch holds every write once, in the order of
    // the versions the writers answered (one etcd revision order, whichever replica wrote).
    const burstFrom = onA.events.length;
    const burstFromB = onB.events.length;
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => must(201, i % 2 === 0 ? a : b, 'POST', path, configMap(`burst-${i}`)).then((o) => o.metadata as Meta)),
    );
    const inOrder = burst.sort((x, y) => Number(x.resourceVersion) - Number(y.resourceVersion)).map((m) => `ADDED ${m.name} ${m.resourceVersion}`);
    for (const w of [onA, onB]) await w.until('the burst', (events) => notBookmarks(events).length >= expected.length + burst.length);
    expect(seen(onA.events.slice(burstFrom))).toEqual(inOrder);
    expect(seen(onB.events.slice(burstFromB))).toEqual(inOrder);

    // A watch opened on one replica from the version another just answered (which
    // this one's cache may not have reached yet) starts there: nothing before, nothing lost.
    for (const [writer, watcher] of [
      [a, b],
      [b, a],
    ] as const) {
      const last = await must(201, writer, 'POST', path, configMap(`from-${watcher.port}`));
      const w = await watchOn(watcher, `${path}?watch=true&resourceVersion=${last.metadata.resourceVersion}`);
      const next = await must(200, writer, 'PUT', `${path}/from-${watcher.port}`, { ...last, data: { next: 'yes' } });
      await w.until('the next write', (events) => events.length >= 1);
      expect(seen(w.events)).toEqual([`MODIFIED from-${watcher.port} ${next.metadata.resourceVersion}`]);
    }
  });

  test('kubectl with one kubeconfig reaches either replica and sees the other one\'s writes', () => {
    const binary = kubectlBinaries([])[0];
    expect(binary, 'kubectl on PATH').toBeDefined();
    // The kubeconfig replica a wrote, pointed at b: same CA, same client certificate.
    const k = kubectl(binary!, a.kubeconfig);
    const toB = [`--server=https://127.0.0.1:${b.port}`];
    const made = k.run([...toB, '-n', 'default', 'create', 'configmap', 'via-kubectl', '--from-literal=k=v', '-o', 'json']);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const rv = JSON.parse(made.stdout).metadata.resourceVersion as string;
    const read = k.run(['-n', 'default', 'get', 'configmap', 'via-kubectl', '-o', 'json']);
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ data: { k: 'v' }, metadata: { resourceVersion: rv } });
  });

  test('a list at a resourceVersion one replica answered is served by the other (Exact, NotOlderThan, continue)', async () => {
    await namespace('listed');
    const path = '/api/v1/namespaces/listed/configmaps';
    for (let i = 0; i < 5; i++) await must(201, a, 'POST', path, configMap(`item-${i}`, { i: String(i) }));
    const atA = await must(200, a, 'GET', path);
    const pinned = atA.metadata.resourceVersion as string;
    // History moves on after the pinned version, through both replicas.
    await must(200, b, 'DELETE', `${path}/item-0`);
    const changed = await must(200, a, 'GET', `${path}/item-1`);
    await must(200, b, 'PUT', `${path}/item-1`, { ...changed, data: { i: 'changed' } });
    const latest = await must(201, a, 'POST', path, configMap('item-5'));
    const latestRv = latest.metadata.resourceVersion as string;

    for (const [writer, reader] of [
      [a, b],
      [b, a],
    ] as const) {
      const exact = await must(200, reader, 'GET', `${path}?resourceVersion=${pinned}&resourceVersionMatch=Exact`);
      expect(exact.metadata.resourceVersion).toBe(pinned);
      expect(names(exact)).toEqual(names(atA));
      // NotOlderThan a version just written through the other replica: it is in the answer.
      const fresh = await must(201, writer, 'POST', path, configMap(`fresh-${reader.port}`));
      const notOlder = await must(200, reader, 'GET', `${path}?resourceVersion=${fresh.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`);
      expect(Number(notOlder.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(fresh.metadata.resourceVersion));
      expect(names(notOlder)).toContain(`listed/fresh-${reader.port}@${fresh.metadata.resourceVersion}`);
      expect(names(notOlder)).toContain(`listed/item-5@${latestRv}`);
      // A continue token from the writer, taken up by the reader, pages through the same snapshot.
      const first = await must(200, writer, 'GET', `${path}?limit=2`);
      const pages = [first];
      while (pages.at(-1)!.metadata.continue) {
        const token = encodeURIComponent(pages.at(-1)!.metadata.continue as string);
        // Alternate: every other page from each replica.
        const server = pages.length % 2 === 1 ? reader : writer;
        pages.push(await must(200, server, 'GET', `${path}?limit=2&continue=${token}`));
      }
      expect(pages.length).toBeGreaterThan(2);
      for (const page of pages) expect(page.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
      const whole = await must(200, reader, 'GET', `${path}?resourceVersion=${first.metadata.resourceVersion}&resourceVersionMatch=Exact`);
      expect(pages.flatMap((p) => names(p))).toEqual(names(whole));
    }
  });

  test('a consistent read on one replica right after a write on the other sees the write', async () => {
    await namespace('consistent');
    const path = '/api/v1/namespaces/consistent/configmaps';
    let current = await must(201, a, 'POST', path, configMap('counter', { n: '0' }));
    for (let n = 1; n <= 40; n++) {
      const [writer, reader] = n % 2 === 0 ? [a, b] : [b, a];
      current = await must(200, writer, 'PUT', `${path}/counter`, { ...current, data: { n: String(n) } });
      const rv = current.metadata.resourceVersion as string;
      const got = await must(200, reader, 'GET', `${path}/counter`);
      expect(got.metadata.resourceVersion, `read ${n} on :${reader.port}`).toBe(rv);
      expect(got.data).toEqual({ n: String(n) });
      const list = await must(200, reader, 'GET', `${path}?fieldSelector=metadata.name%3Dcounter`);
      expect(Number(list.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
      expect(names(list)).toEqual([`consistent/counter@${rv}`]);
    }
  });
  test('restarting one replica leaves the other serving: its watch stays open and sees the restarted one\'s writes', async () => {
    await namespace('steady');
    const path = '/api/v1/namespaces/steady/configmaps';
    const from = (await must(200, a, 'GET', path)).metadata.resourceVersion as string;
    const onA = await watchOn(a, `${path}?watch=true&resourceVersion=${from}`);
    expect(await b.stop()).toEqual({ code: 0, signal: null });
    // a alone: ready, writing, and its watch unaffected.
    expect((await send(a, 'GET', '/readyz')).status).toBe(200);
    const during = await must(201, a, 'POST', path, configMap('during'));
    b = await start(1);
    const restarted = await kv.currentRevision();
    // b's second start makes nothing anew and removes nothing; it may only put back
    // what differs between the two (their ports) and take the shared identity lease.
    for (const e of await etcdHistory(kv, Number(during.metadata.resourceVersion), restarted)) {
      expect(`${e.type} ${e.key}`).toMatch(/^update \/(services\/default\/kubernetes|endpoints\/default\/kubernetes|configmaps\/kube-public\/cluster-info|coordination\.k8s\.io\/leases\/kube-system\/apiserver-[a-z2-7]+|coordination\.k8s\.io\/leases\/kube-system\/kube-controller-manager)$/);
    }
    expect(await must(200, b, 'GET', `${path}/during`)).toMatchObject({ metadata: { resourceVersion: during.metadata.resourceVersion } });
    const after = await must(201, b, 'POST', path, configMap('after'));
    await onA.until('both writes', (events) => notBookmarks(events).length >= 2);
    expect(seen(onA.events)).toEqual([`ADDED during ${during.metadata.resourceVersion}`, `ADDED after ${after.metadata.resourceVersion}`]);
    expect(onA.ended).toBe(false);
  }, 45_000);

  test('the controllers of both replicas converge: defaults made once, a token Secret filled once, a namespace deletion finishes', async () => {
    const mark = await kv.currentRevision();
    await namespace('doomed');
    const at = '/api/v1/namespaces/doomed';
    await eventually('the namespace defaults, seen on b', async () => (await send(b, 'GET', `${at}/serviceaccounts/default`)).status === 200 && (await send(b, 'GET', `${at}/configmaps/kube-root-ca.crt`)).status === 200);
    await must(201, b, 'POST', `${at}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } });
    await must(201, a, 'POST', `${at}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: { name: 'bot-token', annotations: { 'kubernetes.io/service-account.name': 'bot' } },
    });
    let token = '';
    await eventually('the token Secret is filled', async () => {
      const res = await send(b, 'GET', `${at}/secrets/bot-token`);
      token = Buffer.from((res.json().data?.token as string | undefined) ?? '', 'base64').toString();
      return token !== '';
    });
    // One signing key in the shared cert dir: the legacy token works on both.
    for (const server of [a, b]) {
      const res = await call(server, { ca: admin.ca }, { path: `${at}/serviceaccounts/bot`, headers: { authorization: `Bearer ${token}` } });
      // Authenticated (not 401): the account may not read itself (403) under RBAC.
      expect([200, 403], res.body.toString()).toContain(res.status);
    }
    for (let i = 0; i < 5; i++) await must(201, i % 2 === 0 ? a : b, 'POST', `${at}/configmaps`, configMap(`c-${i}`));

    await must(200, b, 'DELETE', `/api/v1/namespaces/doomed`);
    await eventually(
      'the namespace is gone from both replicas',
      async () => (await send(a, 'GET', '/api/v1/namespaces/doomed')).status === 404 && (await send(b, 'GET', '/api/v1/namespaces/doomed')).status === 404,
      30_000,
    );
    const end = await kv.currentRevision();
    const history = (await etcdHistory(kv, mark, end)).filter((e) => e.key.includes('/doomed/') || e.key.endsWith('/namespaces/doomed'));
    const byKey = changesByKey(history);
    // Nothing made twice (a default account or kube-root-ca.crt re-made while the
    // namespace was going would be), everything removed, the token written once.
    for (const [key, c] of byKey) {
      expect(c.create, key).toBe(1);
      expect(c.delete, key).toBe(1);
    }
    // Every stored version of the token Secret once it had a token has that same token
    // (a second controller filling it too would have replaced it with its own).
    const tokens = history
      .filter((e) => e.key === '/secrets/doomed/bot-token')
      .map((e) => (JSON.parse(Buffer.from(e.value).toString()) as { data?: { token?: string } }).data?.token)
      .filter((t) => t !== undefined);
    expect(tokens.length).toBeGreaterThan(0);
    expect(new Set(tokens)).toEqual(new Set([Buffer.from(token).toString('base64')]));
    expect(byKey.get('/configmaps/doomed/kube-root-ca.crt')?.update).toBe(0);
    expect(byKey.get('/serviceaccounts/doomed/default')).toEqual({ create: 1, update: 0, delete: 1 });
    const left = (await kv.list('/')).entries.filter((e) => e.key.includes('/doomed/') || e.key.endsWith('/namespaces/doomed'));
    expect(left.map((e) => e.key)).toEqual([]);
  }, 45_000);

  // Controllers run in one replica at a time (--leader-elect, Lease
  // kube-system/kube-controller-manager). Without it, a replica that does not share
  // --cert-dir (the default: <data-dir>/pki each) publishes its own CA as
  // kube-root-ca.crt and the root-ca publishers rewrite every namespace's copy in
  // turn, forever (about 40 writes/s per namespace were measured). Last in the file:
  // the third replica joins the running two on their etcd prefix.
  test('a replica with its own cert dir does not take turns with the others rewriting kube-root-ca.crt', async () => {
    const third = await spawnKapi({ args: args().filter((arg) => !arg.startsWith('--cert-dir=')) });
    try {
      try {
        await third.ready(40_000);
      } catch {
        // Refusing the start, with a line saying why, would be an answer too.
        expect(third.logs()).toMatch(/cert-dir|CA/);
        return;
      }
      const key = '/configmaps/kube-public/kube-root-ca.crt';
      const from = await kv.currentRevision();
      // A measurement window, not a wait for something: the writes seen in 1 s.
      let writes = 0;
      const watch = kv.watch(key, { afterRevision: from, onEvents: (events) => (writes += events.filter((e) => e.key === key).length), onError: () => undefined });
      await new Promise((r) => setTimeout(r, 1000));
      watch.close();
      expect(writes, 'writes of kube-public/kube-root-ca.crt in 1 s').toBeLessThanOrEqual(2);
    } finally {
      await third.stop();
    }
  }, 45_000);
});
