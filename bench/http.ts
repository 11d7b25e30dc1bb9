// HTTP benchmarks (issue #3), every ratio with the same transport on both sides:
// - POST of a ~2 KiB ConfigMap over TLS with the admin certificate, 16 in flight,
//   against the storage layer's own create throughput reached through the same
//   transport (a bare Fastify on the same TLS setup whose POST is the storage
//   layer's create and nothing else), on SQLite (HTTP/1.1 and HTTP/2) and etcd;
// - GET of one object against a bare Fastify answering the same bytes;
// - PATCH (issue #9): a JSON merge patch of one field of one ~2 KiB ConfigMap, 16 in
//   flight over HTTP/1.1 TLS on SQLite, against PUT of the whole object (no
//   resourceVersion: an unconditional update) to the same object on the same kapi
//   in the same run, in turns; every answer must be 200 (errors fail the row);
// - POST of a realistic Deployment (issue #10: 3 containers with probes, resources,
//   ports, env and mounts; defaulted and validated as kube does) against POST of the
//   2 KiB ConfigMap, both through the same kapi over HTTP/1.1 TLS on SQLite, 16 in
//   flight, in turns; every answer must be 201 (errors fail the row);
// - cold start to `kapi ready` and resident memory;
// - GET of one object authenticated by a service-account token (issue #13: a bound
//   token from serviceaccounts/token, its verification cached by token) against the
//   same GET by a client-certificate user, both granted the read by the same RBAC
//   binding (so the row weighs authentication alone), same kapi, in turns;
//   the cost is the server process's CPU time per request (/proc), which the other
//   tenants of a shared machine do not inflate the way they do a rate; target: the
//   token's cost at most 1.10x the certificate's.
// Report-only rows put the POST figures against the storage layer in-process (no
// transport at all), so what TLS and HTTP cost on this machine stays visible.
import { spawn } from 'node:child_process';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bestOf, paired, ratioRow, throughput, type Bench, type BenchRow, type RunOptions } from './lib.js';
import { freePort, residentMb, startKapiProcess, type KapiProcess } from './support/kapi-process.js';
import { benchDeployment as deployment } from './support/deployment-body.js';
import { createObjectStore } from '../src/storage/object-store.js';
import { openSqliteKv } from '../src/storage/sqlite/index.js';
import { openEtcdKv } from '../src/storage/etcd/index.js';
import { etcdAvailable, startEtcd } from './support/etcd-process.js';
import { tlsLoad, tlsLoadCounted, type LoadResult, type TlsCredentials } from './support/tls-load.js';
import { issueClientCertificate } from '../src/auth/pki/issue.js';
import type { Storage } from '../src/storage/storage.js';

const VALUE = 'x'.repeat(2000);

function configMap(name: string): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { payload: VALUE } };
}

interface Client {
  request(method: string, path: string, body?: Buffer): Promise<{ status: number; body: Buffer }>;
  close(): void;
}

function http2Client(port: number, creds: KapiProcess['credentials']): Client {
  const session: ClientHttp2Session = connect(`https://127.0.0.1:${port}`, { ca: creds.ca, cert: creds.cert, key: creds.key });
  return {
    request(method, path, body) {
      return new Promise((ok, fail) => {
        const stream = session.request({ ':method': method, ':path': path, 'content-type': 'application/json', accept: 'application/json' });
        let status = 0;
        const chunks: Buffer[] = [];
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => ok({ status, body: Buffer.concat(chunks) }));
        stream.on('error', fail);
        stream.end(body);
      });
    },
    close: () => session.close(),
  };
}

async function storageCreateRate(storage: Storage, prefix: string, total: number): Promise<number> {
  return throughput({
    total,
    concurrency: 16,
    op: (i) => storage.create(`/configmaps/default/${prefix}-${i}`, configMap(`${prefix}-${i}`) as never),
  });
}

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

/** HTTP/1.1 POSTs through the lean TLS load generator (both sides of a ratio use it). */
function postRate1(port: number, creds: TlsCredentials, prefix: string, total: number): Promise<number> {
  return tlsLoad({
    port,
    credentials: creds,
    concurrency: 16,
    total,
    expectStatus: 201,
    request: (i) => ({ method: 'POST', path: CONFIGMAPS, body: Buffer.from(JSON.stringify(configMap(`${prefix}-${i}`))) }),
  });
}

/** HTTP/1.1 GETs of one path through the lean TLS load generator. */
function getRate1(port: number, creds: TlsCredentials, path: string, total: number): Promise<number> {
  return tlsLoad({ port, credentials: creds, concurrency: 16, total, expectStatus: 200, request: () => ({ method: 'GET', path }) });
}

const PATCH_TARGET = 'bench-patch';

/**
 * The PATCH row's object: the 2 KiB payload and the one field `k` both sides
 * change. What a PUT sends whole: without resourceVersion, so it is an
 * unconditional update and the 16 writers in flight on one object never get a 409.
 */
function patchTarget(k: string): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: PATCH_TARGET, namespace: 'default' }, data: { payload: VALUE, k } };
}

/**
 * Writes to the PATCH row's object, 16 in flight through the lean TLS load
 * generator: the whole object by PUT, or `{"data":{"k":…}}` as a JSON merge
 * patch. Each write sets a value no earlier write set, so none is a no-op the
 * server could skip. Answers other than 200 are counted, not thrown.
 */
function updateRate1(opts: { port: number; creds: TlsCredentials; verb: 'PUT' | 'PATCH'; total: number }): Promise<LoadResult> {
  const stamp = tag();
  const path = `${CONFIGMAPS}/${PATCH_TARGET}`;
  return tlsLoadCounted({
    port: opts.port,
    credentials: opts.creds,
    concurrency: 16,
    total: opts.total,
    expectStatus: 200,
    countErrors: true,
    request: (i) =>
      opts.verb === 'PUT'
        ? { method: 'PUT', path, body: Buffer.from(JSON.stringify(patchTarget(`${stamp}-${i}`))) }
        : { method: 'PATCH', path, body: Buffer.from(JSON.stringify({ data: { k: `${stamp}-${i}` } })), contentType: 'application/merge-patch+json' },
  });
}

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

/**
 * POSTs of ConfigMaps or Deployments through kapi, 16 in flight; answers other
 * than 201 are counted. The bodies are made before the clock starts: the load
 * generator shares this machine's two cores with kapi, and building and
 * serializing a Deployment per request (about twice a ConfigMap's cost) would
 * count the client's JSON.stringify against the server.
 */
function createRate1(opts: { port: number; creds: TlsCredentials; kind: 'ConfigMap' | 'Deployment'; total: number }): Promise<LoadResult> {
  const prefix = `${opts.kind === 'ConfigMap' ? 'k' : 'w'}${tag()}`;
  const path = opts.kind === 'ConfigMap' ? CONFIGMAPS : DEPLOYMENTS;
  const make = opts.kind === 'ConfigMap' ? configMap : deployment;
  const bodies = Array.from({ length: opts.total }, (_, i) => Buffer.from(JSON.stringify(make(`${prefix}-${i}`))));
  return tlsLoadCounted({
    port: opts.port,
    credentials: opts.creds,
    concurrency: 16,
    total: opts.total,
    expectStatus: 201,
    countErrors: true,
    request: (i) => ({ method: 'POST', path, body: bodies[i]! }),
  });
}

/**
 * POST of a realistic Deployment against POST of the 2 KiB ConfigMap, same kapi,
 * in turns. Earlier rows have warmed kapi's ConfigMap path for thousands of
 * requests; the Deployment path (defaults, pod-spec validation) gets one
 * unmeasured run of each kind first, so both sides are measured warm: on a
 * fresh kapi a Deployment POST cost 1,380, 970, 780, 450 and 410 µs of server
 * CPU over its first five thousand, in phases of 1,000 (docs/performance.md).
 */
async function deploymentRow(opts: { port: number; creds: TlsCredentials; total: number }): Promise<BenchRow> {
  const { port, creds, total } = opts;
  const errors = { ConfigMap: 0, Deployment: 0 };
  const side = (kind: 'ConfigMap' | 'Deployment') => async (): Promise<number> => {
    const r = await createRate1({ port, creds, kind, total });
    errors[kind] += r.errors;
    if (r.firstError !== undefined) process.stderr.write(`bench http: ${r.errors} of ${total} ${kind} POSTs ${r.firstError.slice(0, 300)}\n`);
    return r.rate;
  };
  await side('ConfigMap')();
  await side('Deployment')();
  const rates = await paired(3, side('ConfigMap'), side('Deployment'));
  return ratioRow({
    area: 'http/sqlite',
    name: `POST of a realistic Deployment (3 containers, probes, resources), 16 in flight, HTTP/1.1 TLS, after one unmeasured run of each (non-201 answers: ConfigMap ${errors.ConfigMap}, Deployment ${errors.Deployment})`,
    baselineName: 'POST of the 2 KiB ConfigMap, same kapi',
    baseline: rates.baseline,
    measured: rates.measured,
    unit: 'ops/s',
    minRatio: 0.8,
    errors: errors.ConfigMap + errors.Deployment,
  });
}

/** PATCH of one field against PUT of the whole object, same object, same kapi, in turns. */
async function patchRow(opts: { port: number; creds: TlsCredentials; total: number }): Promise<BenchRow> {
  const { port, creds, total } = opts;
  const errors = { PUT: 0, PATCH: 0 };
  const side = (verb: 'PUT' | 'PATCH') => async (): Promise<number> => {
    const r = await updateRate1({ port, creds, verb, total });
    errors[verb] += r.errors;
    if (r.firstError !== undefined) process.stderr.write(`bench http: ${r.errors} of ${total} ${verb}s ${r.firstError.slice(0, 300)}\n`);
    return r.rate;
  };
  const rates = await paired(2, side('PUT'), side('PATCH'));
  return ratioRow({
    area: 'http/sqlite',
    name: `PATCH (merge patch of one field) of one 2 KiB ConfigMap, 16 in flight, HTTP/1.1 TLS (non-200 answers: PUT ${errors.PUT}, PATCH ${errors.PATCH})`,
    baselineName: 'PUT of the whole object without resourceVersion, same object, same kapi',
    baseline: rates.baseline,
    measured: rates.measured,
    unit: 'ops/s',
    minRatio: 0.8,
    errors: errors.PUT + errors.PATCH,
  });
}

/**
 * GETs of one path over `concurrency` keep-alive HTTP/1.1 TLS connections, each
 * request one prebuilt buffer, answers read by Content-Length (support/tls-load.ts's
 * method, plus what it cannot do yet: extra headers, and no client certificate).
 * Both sides of the service-account row use it, so the transport is the same.
 */
export async function authGetRate(opts: { port: number; tls: { ca: Buffer; cert?: Buffer; key?: Buffer }; headers: string; path: string; total: number }): Promise<number> {
  const bytes = Buffer.from(`GET ${opts.path} HTTP/1.1\r\nHost: 127.0.0.1:${opts.port}\r\nAccept: application/json\r\n${opts.headers}\r\n`);
  const open = (): Promise<TLSSocket> =>
    new Promise((ok, fail) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: opts.port, ...opts.tls, ALPNProtocols: ['http/1.1'], servername: 'localhost' });
      socket.once('secureConnect', () => ok(socket));
      socket.once('error', fail);
    });
  const sockets = await Promise.all(Array.from({ length: 16 }, open));
  let next = 0;
  const drive = (socket: TLSSocket): Promise<void> =>
    new Promise((done, fail) => {
      let pending: Buffer = Buffer.alloc(0);
      const send = (): void => {
        if (next >= opts.total) return done();
        next++;
        socket.write(bytes);
      };
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        const complete = end + 4 + Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < complete) return;
        if (head.slice(9, 12) !== '200') return fail(new Error(`GET answered ${head.slice(9, 12)}: ${pending.subarray(end + 4, complete).toString()}`));
        pending = pending.subarray(complete);
        send();
      });
      socket.once('error', fail);
      send();
    });
  const started = process.hrtime.bigint();
  try {
    await Promise.all(sockets.map(drive));
  } finally {
    for (const s of sockets) s.destroy();
  }
  return opts.total / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** CPU seconds (user + system) a process has used so far (/proc/<pid>/stat, USER_HZ = 100). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * GET with a service-account token against GET with the admin certificate, same
 * object, same kapi, in turns: the server's CPU microseconds per request, the
 * least of two rounds each (exported so it can run alone).
 */
export async function serviceAccountGetRow(opts: { port: number; pid: number; dataDir: string; h2: Client; creds: TlsCredentials; path: string; total: number }): Promise<BenchRow> {
  const sa = await opts.h2.request('POST', '/api/v1/namespaces/default/serviceaccounts', Buffer.from(JSON.stringify({ metadata: { name: 'bench-reader' } })));
  if (sa.status !== 201) throw new Error(`could not create the service account: ${sa.status} ${sa.body.toString()}`);
  // Under RBAC (the default) both sides read the object through the same view
  // binding, so the row compares authentication alone: the account's token against
  // a certificate user of no privileged group (the admin is decided before RBAC).
  const rb = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'bench-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'ServiceAccount', name: 'bench-reader', namespace: 'default' }, { kind: 'User', name: 'bench-cert-reader', apiGroup: 'rbac.authorization.k8s.io' }],
  };
  const bound = await opts.h2.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', Buffer.from(JSON.stringify(rb)));
  if (bound.status !== 201) throw new Error(`could not bind the service account: ${bound.status} ${bound.body.toString()}`);
  const tr = await opts.h2.request('POST', '/api/v1/namespaces/default/serviceaccounts/bench-reader/token', Buffer.from(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} })));
  const token = (JSON.parse(tr.body.toString()) as { status?: { token?: string } }).status?.token;
  if (tr.status !== 201 || token === undefined) throw new Error(`could not get a token: ${tr.status} ${tr.body.toString()}`);
  const { ca } = opts.creds;
  const pki = { certPem: readFileSync(join(opts.dataDir, 'pki/ca.crt'), 'utf8'), keyPem: readFileSync(join(opts.dataDir, 'pki/ca.key'), 'utf8') };
  const reader = await issueClientCertificate({ ca: pki, commonName: 'bench-cert-reader', organizations: [], validityDays: 1 });
  const rates = { cert: 0, token: 0 };
  const cost = async (side: 'cert' | 'token'): Promise<number> => {
    const tls = side === 'cert' ? { ca, cert: Buffer.from(reader.certPem), key: Buffer.from(reader.keyPem) } : { ca };
    const headers = side === 'cert' ? '' : `Authorization: Bearer ${token}\r\n`;
    const before = cpuSeconds(opts.pid);
    rates[side] = Math.max(rates[side], await authGetRate({ port: opts.port, tls, headers, path: opts.path, total: opts.total }));
    return ((cpuSeconds(opts.pid) - before) * 1e6) / opts.total;
  };
  // In turns (certificate, token, three times each), the least cost of each side: a
  // difference of a few µs in ~100 must not be decided by one noisy round.
  let baseline = Infinity;
  let measured = Infinity;
  for (let round = 0; round < 3; round++) {
    baseline = Math.min(baseline, await cost('cert'));
    measured = Math.min(measured, await cost('token'));
  }
  const ratio = baseline === 0 ? 0 : measured / baseline;
  return {
    area: 'http/get',
    name: `GET one object authenticated by a service-account token, server CPU per request, 16 in flight, HTTP/1.1 TLS (rates: certificate ${rates.cert.toFixed(0)}/s, token ${rates.token.toFixed(0)}/s)`,
    baselineName: 'the same GET by a client-certificate user with the same RBAC binding, same kapi',
    baseline,
    measured,
    unit: 'µs CPU',
    ratio,
    target: '<= 1.10',
    pass: ratio <= 1.1,
  };
}

async function postRate(client: Client, prefix: string, total: number): Promise<number> {
  return throughput({
    total,
    concurrency: 16,
    op: async (i) => {
      const res = await client.request('POST', CONFIGMAPS, Buffer.from(JSON.stringify(configMap(`${prefix}-${i}`))));
      if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${res.body.toString()}`);
    },
  });
}

async function getRate(client: Client, path: string, total: number, concurrency: number): Promise<number> {
  return throughput({
    total,
    concurrency,
    op: async () => {
      const res = await client.request('GET', path);
      if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
    },
  });
}

/** A bare Fastify child (support/bare-fastify.ts); `store` is `sqlite:<dir>` or `etcd:<endpoint>`. */
async function startBareFastify(certDir: string, body: Buffer, store?: 'sqlite' | { etcd: string }): Promise<{ port: number; stop(): void }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'kapi-bare-'));
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, body);
  const spec = store === undefined ? [] : store === 'sqlite' ? [`sqlite:${dir}`] : [`etcd:${store.etcd}`];
  const args = [join(import.meta.dirname, 'support/bare-fastify.js'), String(port), certDir, bodyFile, ...spec];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ok, fail) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && ok());
    child.once('exit', (code) => fail(new Error(`bare fastify exited ${code}`)));
  });
  return {
    port,
    stop: () => {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A POST row against the storage layer behind the same transport (the target),
 * and the same kapi figure against the storage layer in-process (report only).
 */
function postRows(opts: { area: string; name: string; backend: string; post: { baseline: number; measured: number }; inProcess: number }): BenchRow[] {
  const { area, name, backend, post, inProcess } = opts;
  return [
    ratioRow({ area, name, baselineName: `storage create behind bare Fastify, same TLS${backend}`, baseline: post.baseline, measured: post.measured, unit: 'ops/s', minRatio: 0.5 }),
    ratioRow({ area, name: `${name} (report: no transport on the baseline side)`, baselineName: `storage create in-process${backend}`, baseline: inProcess, measured: post.measured, unit: 'ops/s' }),
  ];
}

const tag = (): string => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** Request counts: the full run's, or a fifth of them for `--quick` (enough to prove a row works). */
type Sizer = (full: number) => number;

/** POST through kapi on etcd against the storage layer's create on the same etcd behind the same transport. */
async function etcdRows(n: Sizer): Promise<BenchRow[]> {
  if (!etcdAvailable()) {
    process.stderr.write('bench http: no etcd binary, etcd rows skipped\n');
    return [];
  }
  const etcd = await startEtcd();
  try {
    const storage = createObjectStore({ kv: openEtcdKv({ endpoints: [etcd.endpoint], prefix: '/bench-store', compactionIntervalMs: 0 }) });
    const inProcess = await bestOf(2, () => storageCreateRate(storage, `s${tag()}`, n(2000)));
    await storage.close();
    const kapi = await startKapiProcess(['--storage-backend=etcd3', `--etcd-servers=${etcd.endpoint}`]);
    const stored = await startBareFastify(join(kapi.dataDir, 'pki'), Buffer.from('{}'), { etcd: etcd.endpoint });
    try {
      const post = await paired(
        2,
        () => postRate1(stored.port, kapi.credentials, `c${tag()}`, n(3000)),
        () => postRate1(kapi.port, kapi.credentials, `p${tag()}`, n(3000)),
      );
      return postRows({ area: 'http/etcd', name: 'POST 2 KiB ConfigMap, 16 in flight, HTTP/1.1 TLS', backend: ', same etcd', post, inProcess });
    } finally {
      stored.stop();
      await kapi.stop();
    }
  } finally {
    await etcd.stop();
  }
}

async function run(opts: RunOptions): Promise<BenchRow[]> {
  const n: Sizer = opts.quick ? (full) => Math.ceil(full / 5) : (full) => full;
  return [...(await sqliteRows(n)), ...(await etcdRows(n))];
}

async function sqliteRows(n: Sizer): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const kapi = await startKapiProcess();
  try {
    rows.push({ area: 'server', name: 'cold start to kapi ready (empty data dir)', baselineName: 'target', baseline: 1500, measured: kapi.readyMs, unit: 'ms', target: '< 1500 ms', pass: kapi.readyMs < 1500 });
    const rss = residentMb(kapi.pid);
    rows.push({ area: 'server', name: 'resident memory after start', baselineName: 'target', baseline: 150, measured: rss, unit: 'MB', target: '< 150 MB', pass: rss < 150 });

    // Report only: the storage layer's create in-process, same objects and SQLite settings, no transport.
    const dir = mkdtempSync(join(tmpdir(), 'kapi-bench-store-'));
    const storage = createObjectStore({ kv: openSqliteKv({ path: join(dir, 'kapi.db') }) });
    const inProcess = await bestOf(2, () => storageCreateRate(storage, `s${tag()}`, n(3000)));
    await storage.close();
    rmSync(dir, { recursive: true, force: true });

    const h2 = http2Client(kapi.port, kapi.credentials);
    const target = await h2.request('POST', CONFIGMAPS, Buffer.from(JSON.stringify(configMap('bench-get'))));
    const path = `${CONFIGMAPS}/bench-get`;
    const bytes = (await h2.request('GET', path)).body;
    if (target.status !== 201 || bytes.length === 0) throw new Error('could not create the GET target');
    const pki = join(kapi.dataDir, 'pki');
    const bare = await startBareFastify(pki, bytes);
    const stored = await startBareFastify(pki, bytes, 'sqlite');
    // HTTP/2 sessions are opened where they are used: a server (kapi's and Fastify's
    // default alike) closes a session idle for 72 s, and the rows between take longer.
    let storedH2: Client | undefined;
    let bareH2: Client | undefined;
    let kapiH2 = h2;
    try {
      const post1 = await paired(
        2,
        () => postRate1(stored.port, kapi.credentials, `c${tag()}`, n(6000)),
        () => postRate1(kapi.port, kapi.credentials, `p${tag()}`, n(6000)),
      );
      rows.push(...postRows({ area: 'http/sqlite', name: 'POST 2 KiB ConfigMap, 16 in flight, HTTP/1.1 TLS', backend: '', post: post1, inProcess }));
      // Report only: what the transport itself allows, with and without the storage layer behind it.
      rows.push(ratioRow({ area: 'http/sqlite', name: 'bare Fastify POST + storage create, HTTP/1.1 TLS (the baseline above)', baselineName: 'storage create in-process', baseline: inProcess, measured: post1.baseline, unit: 'ops/s' }));
      const bareRate = await bestOf(2, () => postRate1(bare.port, kapi.credentials, `b${tag()}`, n(6000)));
      rows.push(ratioRow({ area: 'http/sqlite', name: 'bare Fastify POST, fixed answer, no storage, HTTP/1.1 TLS', baselineName: 'storage create in-process', baseline: inProcess, measured: bareRate, unit: 'ops/s' }));

      const get1 = await paired(
        2,
        () => getRate1(bare.port, kapi.credentials, path, n(10000)),
        () => getRate1(kapi.port, kapi.credentials, path, n(10000)),
      );
      rows.push(ratioRow({ area: 'http/get', name: 'GET one object, 16 in flight, HTTP/1.1 TLS', baselineName: 'bare Fastify, same bytes', baseline: get1.baseline, measured: get1.measured, unit: 'ops/s', minRatio: 0.4 }));
      rows.push(await serviceAccountGetRow({ port: kapi.port, pid: kapi.pid, dataDir: kapi.dataDir, h2, creds: kapi.credentials, path, total: n(20000) }));

      const created = await h2.request('POST', CONFIGMAPS, Buffer.from(JSON.stringify(patchTarget('0'))));
      if (created.status !== 201) throw new Error(`could not create the PATCH target: ${created.status} ${created.body.toString()}`);
      rows.push(await patchRow({ port: kapi.port, creds: kapi.credentials, total: n(3000) }));
      rows.push(await deploymentRow({ port: kapi.port, creds: kapi.credentials, total: n(3000) }));
      bareH2 = http2Client(bare.port, kapi.credentials);
      kapiH2 = http2Client(kapi.port, kapi.credentials);
      const get2 = await paired(
        2,
        () => getRate(bareH2!, path, n(8000), 16),
        () => getRate(kapiH2, path, n(8000), 16),
      );
      rows.push(ratioRow({ area: 'http/get', name: 'GET one object, 16 streams, HTTP/2 TLS', baselineName: 'bare Fastify, same bytes', baseline: get2.baseline, measured: get2.measured, unit: 'ops/s', minRatio: 0.4 }));

      storedH2 = http2Client(stored.port, kapi.credentials);
      const post2 = await paired(
        2,
        () => postRate(storedH2!, `d${tag()}`, n(3000)),
        () => postRate(kapiH2, `q${tag()}`, n(3000)),
      );
      rows.push(...postRows({ area: 'http/sqlite', name: 'POST 2 KiB ConfigMap, 16 streams, HTTP/2 TLS', backend: '', post: post2, inProcess }));
    } finally {
      bareH2?.close();
      storedH2?.close();
      if (kapiH2 !== h2) kapiH2.close();
      bare.stop();
      stored.stop();
      h2.close();
    }
  } finally {
    await kapi.stop();
  }
  return rows;
}

export const bench: Bench = { name: 'http', run };
