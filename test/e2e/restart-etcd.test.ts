// Restarting on etcd (issue 8): the same stop-and-start checks as on SQLite
// (restart.test.ts), and replicas: two servers started at the same moment on one
// etcd with a shared cert dir (the docker-compose layout) both come up, serve the
// same objects, accept each other's service-account tokens, and do it again
// after both are killed at once. KAPI_RESTART_SEED=<n> replays a run's kill points.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openEtcdKv } from '../../src/storage/etcd/index.js';
import { describeWithEtcd } from '../support/etcd.js';
import {
  allocationRecords,
  checkKubernetesService,
  checkWritesWork,
  create,
  get,
  heldValues,
  restartSeed,
  seededRandom,
  snapshot,
  writeFixtures,
} from './support/cluster-state.js';
import { adminCredentials, call } from './support/http.js';
import { eventually, freePort, spawnKapi, startKapi, type RunningKapi } from './support/server.js';

let dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-restart-etcd-'));
  dirs.push(dir);
  return dir;
}
beforeEach(() => {
  dirs = [];
});
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

let prefixes = 0;

describeWithEtcd('restart on etcd', (ctx) => {
  const args = (prefix: string, extra: string[] = []) => ['--storage-backend=etcd3', `--etcd-servers=${ctx.etcd.endpoint}`, `--etcd-prefix=${prefix}`, ...extra];
  const records = (prefix: string) => allocationRecords(openEtcdKv({ endpoints: [ctx.etcd.endpoint], prefix, compactionIntervalMs: 0 }));

  test('SIGKILL during start and while serving, SIGTERM: every start comes up with everything', async () => {
    const seed = restartSeed();
    const random = seededRandom(seed);
    const context = `seed ${seed} (KAPI_RESTART_SEED=${seed} replays it)`;
    const prefix = `/restart-${++prefixes}-${seed}`;
    const dataDir = tempDir();
    const port = await freePort();

    // The first start on an empty etcd is killed part way.
    const early = await spawnKapi({ dataDir, port, args: args(prefix) });
    const afterMs = Math.floor(random() * 1500);
    await new Promise((r) => setTimeout(r, afterMs));
    early.kill('SIGKILL');
    expect((await early.exited).signal, `${context}: killed at ${afterMs} ms\n${early.logs()}`).toBe('SIGKILL');

    const first = await startKapi({ dataDir, port, args: args(prefix) });
    await writeFixtures(first, 'restart');
    const before = await snapshot(first);
    first.kill('SIGKILL');
    await first.exited;
    expect(await records(prefix)).toEqual(heldValues(before));

    const second = await startKapi({ dataDir, port, args: args(prefix) });
    try {
      expect(await snapshot(second)).toEqual(before);
      await checkKubernetesService(second);
      await checkWritesWork(second, 'restart', 'etcd');
      expect(await records(prefix)).toEqual(heldValues(await snapshot(second)));
    } finally {
      expect(await second.stop()).toEqual({ code: 0, signal: null });
    }
  }, 90_000);

  test('two replicas started at the same moment both come up and serve the same objects, twice', async () => {
    const seed = restartSeed();
    const prefix = `/replicas-${++prefixes}-${seed}`;
    const certDir = tempDir();
    const dataDirs = [tempDir(), tempDir()];
    const ports = [await freePort(), await freePort()];
    const startBoth = async (): Promise<RunningKapi[]> =>
      Promise.all(dataDirs.map((dataDir, i) => startKapi({ dataDir, port: ports[i]!, args: args(prefix, [`--cert-dir=${certDir}`]) })));

    let replicas = await startBoth();
    try {
      const [a, b] = replicas as [RunningKapi, RunningKapi];
      await writeFixtures(a, 'shared');
      const fromA = await snapshot(a);
      // B reads through its own watch of etcd: it catches up within a bound.
      await eventually('replica b serves what a wrote', async () => JSON.stringify(await snapshot(b)) === JSON.stringify(await snapshot(a)));
      expect(Object.keys(fromA)).toContain('pods/shared/runner');
      const svc = await get(a, '/api/v1/namespaces/default/services/kubernetes');
      expect(svc.spec.clusterIP).toBe('10.0.0.1');
      expect(await records(prefix)).toEqual(heldValues(await snapshot(a)));

      // One signing key in the shared cert dir: a token from A is accepted by B.
      const request = await create(a, '/api/v1/namespaces/shared/serviceaccounts/builder/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
      const token = (request as unknown as { status: { token: string } }).status.token;
      // Discovery: what every authenticated user may read under RBAC.
      const onB = await call(b, { ca: adminCredentials(b.kubeconfig).ca }, { path: '/api', headers: { authorization: `Bearer ${token}` } });
      expect(onB.status, onB.body.toString()).toBe(200);
    } finally {
      // Both crash at once, and come back at once.
      for (const r of replicas) r.kill('SIGKILL');
      await Promise.all(replicas.map((r) => r.exited));
    }
    const before = await records(prefix);
    replicas = await startBoth();
    try {
      const [a, b] = replicas as [RunningKapi, RunningKapi];
      await eventually('both replicas serve the same objects after the restart', async () => JSON.stringify(await snapshot(b)) === JSON.stringify(await snapshot(a)));
      const state = await snapshot(a);
      expect(state['configmaps/shared/settings']).toBeDefined();
      expect(await records(prefix)).toEqual(heldValues(state));
      expect((await records(prefix)).ips).toEqual(before.ips);
      await checkWritesWork(b, 'shared', 'replica-b');
    } finally {
      const exits = await Promise.all(replicas.map((r) => r.stop()));
      expect(exits).toEqual([{ code: 0, signal: null }, { code: 0, signal: null }]);
    }
  }, 90_000);
});
