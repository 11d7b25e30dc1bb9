// Leader election (server/leader-election.ts): electors on one fake lease store with
// compare-and-swap on resourceVersion, as the registry's update is.
import { expect, test } from 'vitest';
import { startLeaderElection, type LeaderElector } from '../../src/server/leader-election.js';
import { notFound } from '../../src/errors/status-error.js';
import type { Registry } from '../../src/registry/registry.js';
import type { KubeObject } from '../../src/schema/object.js';

function fakeRegistry() {
  let stored: KubeObject | undefined;
  let rv = 0;
  const down = new Set<string>();
  const registryFor = (who: string) =>
    ({
      store: () => ({
        async get() {
          if (down.has(who)) throw new Error('unavailable');
          if (stored === undefined) throw notFound({ group: 'coordination.k8s.io', resource: 'leases' }, 'x');
          return structuredClone(stored);
        },
        async create(obj: KubeObject) {
          if (down.has(who)) throw new Error('unavailable');
          if (stored !== undefined) throw new Error('exists');
          stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } };
          return { object: stored, warnings: [] };
        },
        async update(obj: KubeObject) {
          if (down.has(who)) throw new Error('unavailable');
          if (obj.metadata.resourceVersion !== stored?.metadata.resourceVersion) throw new Error('conflict');
          stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } };
          return { object: stored, warnings: [], created: false };
        },
      }),
    }) as unknown as Registry;
  return { registryFor, down, holder: () => (stored as { spec?: { holderIdentity?: string } } | undefined)?.spec?.holderIdentity };
}

const quiet = { info: () => undefined, warn: () => undefined };
const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

test('one leads; release hands over; a partitioned leader steps down and the other takes over', async () => {
  const f = fakeRegistry();
  const leading = new Set<string>();
  const make = (id: string): LeaderElector =>
    startLeaderElection({
      registry: f.registryFor(id),
      logger: quiet,
      identity: id,
      leaseDurationMs: 1000,
      renewDeadlineMs: 600,
      retryPeriodMs: 50,
      lead: () => {
        expect(leading.size, `${id} starts while ${[...leading]} lead`).toBe(0);
        leading.add(id);
        return { stop: () => leading.delete(id) };
      },
    });
  const a = make('a');
  const b = make('b');
  await until(() => leading.size === 1);
  const first = [...leading][0]!;
  const [leader, other] = first === 'a' ? [a, b] : [b, a];
  // Stays one for a while.
  await new Promise((r) => setTimeout(r, 300));
  expect([...leading]).toEqual([first]);
  await leader.stop();
  await until(() => leading.has(other.identity));
  // Partition the new leader: it stops within the renew deadline, the third takes over after the lease duration.
  const c = make('c');
  f.down.add(other.identity);
  await until(() => !leading.has(other.identity), 1500);
  await until(() => leading.has('c'), 3000);
  await Promise.all([other.stop(), c.stop()]);
  expect(leading.size).toBe(0);
});
