// A chunked list under writes (#11): 50,000 ConfigMaps listed with limit=500 and
// continue tokens (resourceVersion unset, as kubectl and client-go page) while
// 200 writes a second (updates, creates and deletes in turn) go on, on SQLite and
// on etcd. The list must return exactly the state at its resourceVersion. The
// expected state is built from the writes' own answers: the state at a quiescent
// list taken after loading (checked to hold every loaded name), then every
// write's answered resourceVersion applied in resourceVersion order up to the
// list's. A DELETE answers a Status without the deleting revision (as
// kube-apiserver does for ConfigMaps), so deletes take theirs from a watch opened
// at the quiescent list's version (every delete must show up there), and each
// such revision is held to what timing alone proves: after the object's last
// write, at most the list's version when the DELETE was answered before the first
// chunk was asked for, above it when sent after the first chunk was answered (a
// consistent list sees every write finished before it, none started after it;
// creates and updates are held to the same). Compared by name and
// resourceVersion; also: one resourceVersion on every chunk, items in key order
// and never twice, and remainingItemCount matching what is left on every chunk
// but the last. Each name has at most one write in flight, so no write fails for
// another's.
import { connect, type ClientHttp2Session } from 'node:http2';
import { type Bench, type BenchRow, type RunOptions } from './lib.js';
import { availableBackends, startKapiOn, type Backend } from './support/kapi-backend.js';
import type { KapiProcess } from './support/kapi-process.js';
import { tlsLoad } from './support/tls-load.js';
import { request } from './support/watch-client.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const PREFIX = 'cl-';

interface Shape {
  readonly objects: number;
  readonly limit: number;
  readonly writesPerSecond: number;
}

type WriteOp = 'update' | 'create' | 'delete';

/**
 * One write and what its answer said: the resourceVersion it committed at (for a
 * delete, from the watch), or why it failed.
 */
export interface WriteResult {
  readonly op: WriteOp;
  readonly name: string;
  resourceVersion?: bigint;
  readonly error?: string;
  /** performance.now() when it was sent and when its answer arrived. */
  readonly sentAt: number;
  readonly answeredAt: number;
}

interface ListMeta {
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: Array<{ metadata: { name: string; resourceVersion: string } }>;
}

const nameOf = (i: number): string => `${PREFIX}${String(i).padStart(6, '0')}`;
const body = (name: string, gen: number): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { gen: String(gen), pad: 'x'.repeat(200) } });
/** The resourceVersion an answer's object carries; undefined for an answer without one (never thrown: writes run unawaited). */
const rvOf = (text: string): bigint | undefined => {
  try {
    return BigInt((JSON.parse(text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
  } catch {
    return undefined;
  }
};

/** What one write's answer says; a DELETE's revision comes later, from the watch. */
function outcome(o: { op: WriteOp; name: string; sentAt: number; expect: number; method: string; answer: { status: number; body: string } }): WriteResult {
  const { op, name, sentAt, method, answer } = o;
  const answeredAt = performance.now();
  if (answer.status !== o.expect) return { op, name, error: `${method} ${name} answered ${answer.status}: ${answer.body.slice(0, 200)}`, sentAt, answeredAt };
  if (op === 'delete') return { op, name, sentAt, answeredAt };
  const resourceVersion = rvOf(answer.body);
  if (resourceVersion === undefined) return { op, name, error: `${method} ${name} answered an object without a resourceVersion`, sentAt, answeredAt };
  return { op, name, resourceVersion, sentAt, answeredAt };
}

/**
 * Writes on schedule until stopped: update, create, delete in turn, each on a
 * name no other write has in flight. Returns stop(), which resolves with every
 * write's result once all are answered.
 */
function startWriter(session: ClientHttp2Session, shape: Shape, loaded: readonly string[]): { stop(): Promise<WriteResult[]> } {
  const alive = [...loaded];
  const busy = new Set<string>();
  const results: WriteResult[] = [];
  const inFlight: Promise<void>[] = [];
  let nextCreate = shape.objects;
  let gen = 0;
  let stopped = false;
  // A random live name no write has in flight, taken out of `alive` when `remove`.
  const pick = (remove: boolean): string | undefined => {
    for (let tries = 0; tries < 20 && alive.length > 0; tries++) {
      const at = Math.floor(Math.random() * alive.length);
      const name = alive[at]!;
      if (busy.has(name)) continue;
      if (remove) {
        alive[at] = alive[alive.length - 1]!;
        alive.pop();
      }
      return name;
    }
    return undefined;
  };
  const send = (op: WriteOp, name: string, expect: number, method: string, path: string, text?: string): void => {
    busy.add(name);
    const sentAt = performance.now();
    inFlight.push(
      request(session, method, path, text)
        .then(
          (r) => outcome({ op, name, sentAt, expect, method, answer: r }),
          (err: unknown): WriteResult => ({ op, name, error: `${method} ${name}: ${String(err)}`, sentAt, answeredAt: performance.now() }),
        )
        .then((result) => {
          results.push(result);
          busy.delete(name);
          if (op === 'create' && result.error === undefined) alive.push(name);
        }),
    );
  };
  const tick = (i: number): void => {
    const op: WriteOp = (['update', 'create', 'delete'] as const)[i % 3]!;
    if (op === 'create') {
      const name = nameOf(nextCreate++);
      send(op, name, 201, 'POST', CMS, body(name, ++gen));
      return;
    }
    const name = pick(op === 'delete');
    if (name === undefined) return;
    if (op === 'update') send(op, name, 200, 'PUT', `${CMS}/${name}`, body(name, ++gen));
    else send(op, name, 200, 'DELETE', `${CMS}/${name}`);
  };
  const done = (async () => {
    const start = performance.now();
    for (let i = 0; !stopped; i++) {
      const wait = start + (i * 1000) / shape.writesPerSecond - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      if (!stopped) tick(i);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      await Promise.all(inFlight);
      return results;
    },
  };
}

/** The DELETED events of a watch: name -> the deleting revision; ERROR events and stream faults as text. */
interface DeleteWatch {
  readonly deleted: Map<string, bigint>;
  readonly faults: string[];
  close(): void;
}

function watchDeletes(session: ClientHttp2Session, fromRv: string): Promise<DeleteWatch> {
  return new Promise((ok, fail) => {
    const stream = session.request({ ':path': `${CMS}?watch=true&resourceVersion=${fromRv}&timeoutSeconds=900`, accept: 'application/json' });
    let closing = false;
    let events = 0;
    let lastRv = fromRv;
    const w: DeleteWatch = {
      deleted: new Map(),
      faults: [],
      close: () => {
        closing = true;
        stream.close();
      },
    };
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => (Number(h[':status']) === 200 ? ok(w) : fail(new Error(`watch answered ${h[':status']}`))));
    stream.on('data', (chunk: string) => {
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const e = JSON.parse(pending.slice(0, nl)) as { type: string; object: { metadata?: { name?: string; resourceVersion?: string }; message?: string } };
        pending = pending.slice(nl + 1);
        events++;
        lastRv = e.object.metadata?.resourceVersion ?? lastRv;
        if (e.type === 'DELETED') w.deleted.set(e.object.metadata!.name!, BigInt(e.object.metadata!.resourceVersion!));
        else if (e.type === 'ERROR') w.faults.push(`the watch for deletes got ERROR: ${e.object.message}`);
      }
    });
    stream.on('close', () => {
      if (!closing) w.faults.push(`the watch for deletes ended early, after ${events} events (last rv ${lastRv})`);
    });
    stream.on('error', (err) => w.faults.push(`the watch for deletes failed: ${String(err)}`));
  });
}

/**
 * What timing alone proves about a write's revision against a consistent list's
 * `at`: answered before the first chunk was asked for -> at most `at`; sent after
 * the first chunk was answered -> above it.
 */
export function timingFaults(writes: readonly WriteResult[], list: { at: bigint; firstSent: number; firstAnswered: number }): string[] {
  const faults: string[] = [];
  for (const w of writes) {
    if (w.resourceVersion === undefined) continue;
    if (w.answeredAt < list.firstSent && w.resourceVersion > list.at) faults.push(`${w.op} ${w.name} finished before the list began, yet its rv ${w.resourceVersion} is above the list's ${list.at}`);
    if (w.sentAt > list.firstAnswered && w.resourceVersion <= list.at) faults.push(`${w.op} ${w.name} began after the first chunk, yet its rv ${w.resourceVersion} is not above the list's ${list.at}`);
  }
  return faults;
}

async function getList(session: ClientHttp2Session, path: string): Promise<ListMeta> {
  const r = await request(session, 'GET', path);
  if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${r.body.slice(0, 300)}`);
  return JSON.parse(r.body) as ListMeta;
}

export interface ChunkedList {
  readonly resourceVersion: bigint;
  readonly items: Array<{ name: string; resourceVersion: bigint }>;
  readonly pages: number;
  readonly ms: number;
  /** Chunk-level faults: another resourceVersion, a wrong remainingItemCount. */
  readonly faults: string[];
  /** performance.now() when the first chunk was asked for and when it was answered. */
  readonly firstSent: number;
  readonly firstAnswered: number;
}

async function chunkedList(session: ClientHttp2Session, limit: number): Promise<ChunkedList> {
  const started = performance.now();
  const items: Array<{ name: string; resourceVersion: bigint }> = [];
  const remaining: Array<{ page: number; seen: number; remaining: number | undefined; last: boolean }> = [];
  const faults: string[] = [];
  let rv: string | undefined;
  let token: string | undefined;
  let pages = 0;
  let firstAnswered = 0;
  do {
    const page = await getList(session, `${CMS}?limit=${limit}${token === undefined ? '' : `&continue=${encodeURIComponent(token)}`}`);
    pages++;
    if (pages === 1) firstAnswered = performance.now();
    rv ??= page.metadata.resourceVersion;
    if (page.metadata.resourceVersion !== rv) faults.push(`chunk ${pages} carried resourceVersion ${page.metadata.resourceVersion}, the first ${rv}`);
    for (const item of page.items) items.push({ name: item.metadata.name, resourceVersion: BigInt(item.metadata.resourceVersion) });
    token = page.metadata.continue;
    remaining.push({ page: pages, seen: items.length, remaining: page.metadata.remainingItemCount, last: token === undefined });
  } while (token !== undefined);
  // remainingItemCount: what follows this chunk in the same snapshot, so seen + remaining = the total.
  for (const r of remaining) {
    if (r.last && r.remaining !== undefined) faults.push(`the last chunk carried remainingItemCount ${r.remaining}`);
    if (!r.last && r.remaining !== items.length - r.seen) faults.push(`chunk ${r.page} said remainingItemCount ${r.remaining}, ${items.length - r.seen} followed`);
  }
  if (rv === undefined) throw new Error('the list carried no resourceVersion');
  return { resourceVersion: BigInt(rv), items, pages, ms: performance.now() - started, faults, firstSent: started, firstAnswered };
}

/** The state at `at`: `start` (taken at `startRv`) with every write up to `at` applied in resourceVersion order. */
export function stateAt(opts: { start: ReadonlyMap<string, bigint>; startRv: bigint; writes: readonly WriteResult[]; at: bigint }): { state: Map<string, bigint>; faults: string[] } {
  const state = new Map(opts.start);
  const faults: string[] = [];
  const ordered = opts.writes.filter((w) => w.resourceVersion !== undefined).sort((a, b) => (a.resourceVersion! < b.resourceVersion! ? -1 : 1));
  for (const w of ordered) {
    const rv = w.resourceVersion!;
    if (rv <= opts.startRv) faults.push(`${w.op} ${w.name} answered resourceVersion ${rv}, not after the quiescent list's ${opts.startRv}`);
    if (rv > opts.at) break;
    const previous = state.get(w.name);
    if (w.op === 'delete') {
      if (previous !== undefined && rv <= previous) faults.push(`DELETE ${w.name} answered resourceVersion ${rv}, not after the object's ${previous}`);
      state.delete(w.name);
    } else state.set(w.name, rv);
  }
  return { state, faults };
}

/** Every way `listed` differs from `expected`, plus key-order faults; only our names count. */
export function compare(listed: ChunkedList['items'], expected: ReadonlyMap<string, bigint>): string[] {
  const faults: string[] = [];
  const seen = new Set<string>();
  let previous = '';
  for (const item of listed) {
    if (item.name <= previous) faults.push(`${item.name} came after ${previous} (not key order)`);
    previous = item.name;
    if (!item.name.startsWith(PREFIX)) continue;
    if (seen.has(item.name)) faults.push(`${item.name} listed twice`);
    seen.add(item.name);
    const want = expected.get(item.name);
    if (want === undefined) faults.push(`${item.name} (rv ${item.resourceVersion}) listed but absent at the list's resourceVersion`);
    else if (want !== item.resourceVersion) faults.push(`${item.name} listed at rv ${item.resourceVersion}, the state has rv ${want}`);
  }
  for (const [name, rv] of expected) if (!seen.has(name)) faults.push(`${name} (rv ${rv}) missing`);
  return faults;
}

function openSession(kapi: KapiProcess): Promise<ClientHttp2Session> {
  const { ca, cert, key } = kapi.credentials;
  const session = connect(`https://127.0.0.1:${kapi.port}`, { ca, cert, key });
  return new Promise((ok, fail) => {
    session.once('error', fail);
    session.once('connect', () => ok(session));
  });
}

async function runOn(kapi: KapiProcess, shape: Shape): Promise<{ list: ChunkedList; faults: string[]; writes: WriteResult[]; during: number; expected: number }> {
  const loaded = Array.from({ length: shape.objects }, (_, i) => nameOf(i));
  await tlsLoad({
    port: kapi.port,
    credentials: kapi.credentials,
    concurrency: 16,
    total: shape.objects,
    expectStatus: 201,
    request: (i) => ({ method: 'POST', path: CMS, body: Buffer.from(body(loaded[i]!, 0)) }),
  });
  const writerSession = await openSession(kapi);
  const listSession = await openSession(kapi);
  const watchSession = await openSession(kapi);
  try {
    // The starting state: a consistent list with nothing writing.
    const quiet = await getList(listSession, CMS);
    const start = new Map(quiet.items.filter((i) => i.metadata.name.startsWith(PREFIX)).map((i) => [i.metadata.name, BigInt(i.metadata.resourceVersion)]));
    const missing = loaded.filter((n) => !start.has(n));
    if (missing.length > 0 || start.size !== loaded.length) throw new Error(`the quiescent list after loading had ${start.size} of ${loaded.length} objects (missing e.g. ${missing.slice(0, 3).join(', ')})`);
    const deletes = await watchDeletes(watchSession, quiet.metadata.resourceVersion!);
    const writer = startWriter(writerSession, shape, loaded);
    // Writes flowing before the first chunk and after the last: every chunk is read under writes.
    await new Promise((r) => setTimeout(r, 1000));
    const listStart = performance.now();
    const list = await chunkedList(listSession, shape.limit);
    const listEnd = performance.now();
    await new Promise((r) => setTimeout(r, 500));
    const writes = await writer.stop();
    const errors = writes.filter((w) => w.error !== undefined).map((w) => w.error!);
    // Every answered delete's revision, from the watch (bounded wait for the last ones).
    const answered = writes.filter((w) => w.op === 'delete' && w.error === undefined);
    const deadline = performance.now() + 15_000;
    while (answered.some((w) => !deletes.deleted.has(w.name)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const unseen = answered.filter((w) => !deletes.deleted.has(w.name)).map((w) => `DELETE ${w.name} answered 200 but the watch never showed it`);
    for (const w of answered) w.resourceVersion = deletes.deleted.get(w.name);
    deletes.close();
    const at = stateAt({ start, startRv: BigInt(quiet.metadata.resourceVersion!), writes, at: list.resourceVersion });
    const timing = timingFaults(writes, { at: list.resourceVersion, firstSent: list.firstSent, firstAnswered: list.firstAnswered });
    const faults = [...errors, ...unseen, ...deletes.faults, ...list.faults, ...at.faults, ...timing, ...compare(list.items, at.state)];
    const during = writes.filter((w) => w.answeredAt >= listStart && w.answeredAt <= listEnd).length;
    return { list, faults, writes, during, expected: at.state.size };
  } finally {
    writerSession.close();
    listSession.close();
    watchSession.close();
  }
}

async function run(opts: RunOptions): Promise<BenchRow[]> {
  const shape: Shape = opts.quick ? { objects: 2_000, limit: 100, writesPerSecond: 100 } : { objects: 50_000, limit: 500, writesPerSecond: 200 };
  const out: BenchRow[] = [];
  for (const backend of availableBackends() as Backend[]) {
    const server = await startKapiOn(backend);
    try {
      const r = await runOn(server.kapi, shape);
      for (const f of r.faults.slice(0, 10)) process.stderr.write(`bench watch-cache-chunked-list (${backend}): ${f}\n`);
      for (const f of r.faults.filter((f) => f.startsWith('the watch'))) process.stderr.write(`bench watch-cache-chunked-list (${backend}): ${f}\n`);
      const area = `watch-cache/chunked-list/${backend}`;
      const what = `${shape.objects} ConfigMaps, limit=${shape.limit} + continue, ${shape.writesPerSecond} writes/s (update/create/delete)`;
      out.push(
        {
          area,
          name: `${what}: items differing from the state at the list's resourceVersion (${r.faults.length === 0 ? 'none' : `first: ${r.faults[0]}`})`,
          baselineName: 'items expected',
          baseline: r.expected,
          measured: r.faults.length,
          unit: 'faults',
          target: '= 0 (with writes during the list)',
          pass: r.faults.length === 0 && r.during > 0,
        },
        {
          area,
          name: `${what}: list time, ${r.list.pages} chunks (${r.during} writes answered during it, ${r.writes.length} in all)`,
          baselineName: 'writes during the list',
          baseline: r.during,
          measured: r.list.ms,
          unit: 'ms',
        },
      );
    } finally {
      await server.stop();
    }
  }
  return out;
}

export const bench: Bench = { name: 'watch-cache-chunked-list', run };
