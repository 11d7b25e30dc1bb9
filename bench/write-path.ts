// The write path in-process (issue #10's Deployment row, without TLS or sockets):
// POST of the http bench's realistic Deployment against POST of its 2 KiB
// ConfigMap through the real installer and handlers (Fastify inject: codec
// decode, the typed walk, the registry's write pipeline over the memory backend,
// storage encode, response encode), and the same two creates straight through
// the registry. Both kinds run in turns in one process and each figure is this
// process's CPU time per operation (the memory backend never waits), so the
// ratios hold on a shared machine where wall-clock time measures the neighbours. `node dist/bench/write-path.js` runs it alone (add `--cpu-prof`
// to profile, `--kind=Deployment` to drive one kind only, `--registry` for its
// registry creates only).
import { pathToFileURL } from 'node:url';
import fastify, { type FastifyInstance } from 'fastify';
import { createAdmissionChain, defaultAdmissionPlugins } from '../src/admission/chain.js';
import { deployments } from '../src/apis/apps/v1/deployments.js';
import { configMaps } from '../src/apis/core/v1/config-maps.js';
import { namespaces } from '../src/apis/core/v1/namespaces.js';
import { installResources } from '../src/endpoints/installer.js';
import { resolveRequestInfo } from '../src/endpoints/request-info.js';
import { createRegistry, type Registry } from '../src/registry/registry.js';
import type { KubeObject } from '../src/schema/object.js';
import { openMemoryKv } from '../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../src/storage/object-store.js';
import { formatTable, paired, ratioRow, type Bench, type BenchRow } from './lib.js';
import { benchDeployment } from './support/deployment-body.js';

const AREA = 'write path (in-process)';
const ADMIN = { username: 'bench', groups: ['system:masters', 'system:authenticated'] };

/** The http bench's ConfigMap (bench/http.ts). */
function configMap(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { payload: 'x'.repeat(2000) } };
}

/** The http bench's Deployment (bench/support/deployment-body.ts). */
function deployment(name: string): KubeObject {
  return benchDeployment(name) as KubeObject;
}

type Kind = 'ConfigMap' | 'Deployment';

const KINDS: Record<Kind, { path: string; body: (name: string) => KubeObject; def: typeof configMaps }> = {
  ConfigMap: { path: '/api/v1/namespaces/default/configmaps', body: configMap, def: configMaps },
  Deployment: { path: '/apis/apps/v1/namespaces/default/deployments', body: deployment, def: deployments },
};

interface Driver {
  readonly app: FastifyInstance;
  readonly registry: Registry;
  close(): Promise<void>;
}

/** The kinds served as main.ts serves them (installer, default admission), over the memory backend, no filter chain. */
async function openDriver(): Promise<Driver> {
  const storage = createObjectStore({ kv: openMemoryKv() });
  const registry = createRegistry({
    storage,
    resources: [namespaces, configMaps, deployments],
    admission: createAdmissionChain({ plugins: defaultAdmissionPlugins() }),
    clock: () => new Date(),
  });
  await registry.store(namespaces).create({ metadata: { name: 'default' } });
  const app = fastify();
  app.addHook('onRequest', async (request) => {
    request.kapi = { info: resolveRequestInfo(request.method, request.url), user: ADMIN, auditId: 'bench', warnings: [] };
  });
  installResources(app, { registry });
  await app.ready();
  return { app, registry, close: async () => { await app.close(); await storage.close(); } };
}

let serial = 0;

/** CPU µs (user + system) this process spent since `start`. */
function cpuMicros(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return d.user + d.system;
}

/** µs per POST of `kind` through the installer (bodies prebuilt as the load generator sends them). */
async function postMicros(driver: Driver, kind: Kind, n: number): Promise<number> {
  const stamp = `${kind === 'ConfigMap' ? 'k' : 'w'}${++serial}`;
  const bodies = Array.from({ length: n }, (_, i) => Buffer.from(JSON.stringify(KINDS[kind].body(`${stamp}-${i}`))));
  const t0 = process.cpuUsage();
  for (const payload of bodies) {
    const res = await driver.app.inject({ method: 'POST', url: KINDS[kind].path, payload, headers: { 'content-type': 'application/json', accept: 'application/json' } });
    if (res.statusCode !== 201) throw new Error(`POST ${kind}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  }
  return cpuMicros(t0) / n;
}

/** µs per registry create of `kind` (no HTTP, no codec: the write pipeline and storage only). */
async function registryMicros(driver: Driver, kind: Kind, n: number): Promise<number> {
  const stamp = `${kind === 'ConfigMap' ? 'rk' : 'rw'}${++serial}`;
  const objects = Array.from({ length: n }, (_, i) => KINDS[kind].body(`${stamp}-${i}`));
  const store = driver.registry.store(KINDS[kind].def);
  const t0 = process.cpuUsage();
  for (const obj of objects) await store.create(obj, { namespace: 'default', user: ADMIN });
  return cpuMicros(t0) / n;
}

/** Lower µs is better: the ratio is ConfigMap µs / Deployment µs, i.e. Deployment throughput over ConfigMap's. */
async function pairedMicros(rounds: number, measure: (kind: Kind) => Promise<number>): Promise<{ configMap: number; deployment: number }> {
  // paired() keeps the best (highest) of each side; rates make µs fit it.
  const best = await paired(rounds, async () => 1e6 / (await measure('ConfigMap')), async () => 1e6 / (await measure('Deployment')));
  return { configMap: 1e6 / best.baseline, deployment: 1e6 / best.measured };
}

export const bench: Bench = {
  name: 'write-path',
  async run({ quick }): Promise<BenchRow[]> {
    const n = quick ? 300 : 3000;
    const rounds = quick ? 2 : 4;
    const driver = await openDriver();
    try {
      // Warm the JIT and the per-kind compiled schemas before timing.
      await postMicros(driver, 'ConfigMap', n / 3);
      await postMicros(driver, 'Deployment', n / 3);
      const post = await pairedMicros(rounds, (kind) => postMicros(driver, kind, n));
      const registry = await pairedMicros(rounds, (kind) => registryMicros(driver, kind, n));
      const row = (name: string, m: { configMap: number; deployment: number }, minRatio?: number): BenchRow =>
        ratioRow({
          area: AREA,
          name: `${name} (CPU µs per op: ConfigMap ${m.configMap.toFixed(1)}, Deployment ${m.deployment.toFixed(1)})`,
          baselineName: 'same for the 2 KiB ConfigMap',
          baseline: 1e6 / m.configMap,
          measured: 1e6 / m.deployment,
          unit: 'ops/s',
          ...(minRatio === undefined ? {} : { minRatio }),
        });
      return [row('POST realistic Deployment, installer + registry over memory, no transport', post), row('create realistic Deployment, registry over memory', registry)];
    } finally {
      await driver.close();
    }
  },
};

/** `--kind=Deployment`: POST only that kind, `n` times (the profiling driver); `--registry`: registry creates instead. */
async function driveOne(kind: Kind, n: number, viaRegistry = false): Promise<void> {
  const driver = await openDriver();
  try {
    const measure = viaRegistry ? registryMicros : postMicros;
    await measure(driver, kind, Math.min(n, 500));
    const micros = await measure(driver, kind, n);
    process.stdout.write(`${kind}: ${micros.toFixed(1)} CPU µs per ${viaRegistry ? 'registry create' : 'POST'}\n`);
  } finally {
    await driver.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const only = process.argv.find((a) => a.startsWith('--kind='))?.slice('--kind='.length);
  if (only === 'ConfigMap' || only === 'Deployment') await driveOne(only, 20_000, process.argv.includes('--registry'));
  else process.stdout.write(`${formatTable(await bench.run({ quick: process.argv.includes('--quick') }))}\n`);
}
