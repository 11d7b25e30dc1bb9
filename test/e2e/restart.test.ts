// Restarting on the same SQLite data (issue 8): a clean stop (SIGTERM) and
// crashes (SIGKILL) at random moments — during start, before `kapi ready`, and
// under write traffic — are followed by a start that comes up, serves every
// object as it was (compared whole, over HTTP), keeps every acknowledged write,
// holds exactly the allocation records its services need, and takes new writes.
// KAPI_RESTART_SEED=<n> replays a run's kill points.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import {
  allocationRecords,
  checkKubernetesService,
  checkWritesWork,
  get,
  heldValues,
  restartSeed,
  seededRandom,
  snapshot,
  writeFixtures,
  writeUntilGone,
} from './support/cluster-state.js';
import { freePort, spawnKapi, startKapi } from './support/server.js';

let dataDir: string;
let port: number;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kapi-restart-'));
  port = await freePort();
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** The records on disk; the server must be stopped (the database is then ours alone). */
function recordsOnDisk() {
  return allocationRecords(openSqliteKv({ path: join(dataDir, 'kapi.db') }));
}

test('SIGTERM, then start again: everything is there unchanged and writes work', async () => {
  const first = await startKapi({ dataDir, port });
  await writeFixtures(first, 'restart');
  const before = await snapshot(first);
  expect(await first.stop()).toEqual({ code: 0, signal: null });
  expect(await recordsOnDisk()).toEqual(heldValues(before));

  // Twice in a row, as the README's start command is run.
  const second = await startKapi({ dataDir, port });
  let final;
  try {
    // Whole objects, resourceVersions included: a start rewrites nothing that was right.
    expect(await snapshot(second)).toEqual(before);
    await checkKubernetesService(second);
    await checkWritesWork(second, 'restart', 'sigterm');
    final = await snapshot(second);
  } finally {
    expect(await second.stop()).toEqual({ code: 0, signal: null });
  }
  expect(await recordsOnDisk()).toEqual(heldValues(final));
}, 60_000);

test('SIGKILL and SIGTERM at random moments during start, SIGKILL under writes: the next start has every acknowledged object', async () => {
  const seed = restartSeed();
  const random = seededRandom(seed);
  const context = `seed ${seed} (KAPI_RESTART_SEED=${seed} replays it)`;

  // Stops during the very first start and the next ones: keys, certificates,
  // namespaces and the kubernetes service each half made at some point. SIGKILL is
  // a crash; SIGTERM during start must exit 0 at once, after ready gracefully.
  const stops: NodeJS.Signals[] = ['SIGKILL', 'SIGTERM', 'SIGKILL'];
  for (const [i, signal] of stops.entries()) {
    const spawned = await spawnKapi({ dataDir, port });
    const afterMs = Math.floor(random() * 1500);
    await new Promise((r) => setTimeout(r, afterMs));
    spawned.kill(signal);
    const exit = await spawned.exited;
    // A start that failed on its own before the signal would show here as code 1.
    // SIGTERM before main() has run (node still loading modules) has its default effect.
    const loading = spawned.logs() === '';
    const want = signal === 'SIGKILL' || loading ? { code: null, signal } : { code: 0, signal: null };
    expect(exit, `${context}: ${signal} ${i} at ${afterMs} ms\n${spawned.logs()}`).toEqual(want);
  }

  const serving = await startKapi({ dataDir, port });
  await writeFixtures(serving, 'crash');
  const before = await snapshot(serving);
  // Four writers in parallel, so writes are in flight when the kill lands.
  const writers = [0, 1, 2, 3].map((w) => writeUntilGone(serving, 'crash', `load-${w}`));
  await new Promise((r) => setTimeout(r, 100 + Math.floor(random() * 400)));
  serving.kill('SIGKILL');
  const acked = (await Promise.all(writers)).flat();
  expect(acked.length, context).toBeGreaterThan(0);

  const after = await startKapi({ dataDir, port });
  let final;
  try {
    const state = await snapshot(after);
    for (const [key, item] of Object.entries(before)) expect(state[key], `${context}: ${key}`).toEqual(item);
    for (const name of acked) expect(state[`configmaps/crash/${name}`], `${context}: acknowledged ${name}`).toBeDefined();
    await checkKubernetesService(after);
    await checkWritesWork(after, 'crash', 'sigkill');
    expect((await get(after, '/api/v1/namespaces/crash/serviceaccounts/default')).metadata.name).toBe('default');
    final = await snapshot(after);
  } finally {
    expect(await after.stop()).toEqual({ code: 0, signal: null });
  }
  expect(await recordsOnDisk(), context).toEqual(heldValues(final));
}, 90_000);
