// --feature-gates through a real server: what the flag sets is what /metrics
// reports (kubernetes_feature_enabled{name,stage}), a gated behaviour follows it
// over HTTP, and a bad value stops the start with kube's one line. Each server is
// stopped by the test that started it.
import { afterEach, describe, expect, test } from 'vitest';
import { spawnKapi, startKapi, type RunningKapi } from './support/server.js';
import { adminCredentials, call } from './support/http.js';

let server: RunningKapi | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

function metricLine(metrics: string, name: string): string | undefined {
  return metrics.split('\n').find((l) => l.startsWith('kubernetes_feature_enabled{') && l.includes(`name="${name}"`));
}

const WATCH = '/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1';

describe('a server started with --feature-gates', () => {
  test('WatchList=false: /metrics says 0 (beta) and a streaming-list watch is refused with kube\'s cause', async () => {
    server = await startKapi({ args: ['--feature-gates=WatchList=false, AllAlpha=false'] });
    const creds = adminCredentials(server.kubeconfig);
    const metrics = (await call(server, creds, { path: '/metrics' })).body.toString();
    expect(metricLine(metrics, 'WatchList')).toBe('kubernetes_feature_enabled{name="WatchList",stage="BETA"} 0');
    const watch = await call(server, creds, { path: WATCH });
    expect(watch.status).toBe(422);
    expect(watch.json().details.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'sendInitialEvents', message: 'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled' }]);
  });

  test('by default: WatchList is on (1) and the same watch streams its initial events', async () => {
    server = await startKapi();
    const creds = adminCredentials(server.kubeconfig);
    const metrics = (await call(server, creds, { path: '/metrics' })).body.toString();
    expect(metricLine(metrics, 'WatchList')).toBe('kubernetes_feature_enabled{name="WatchList",stage="BETA"} 1');
    const watch = await call(server, creds, { path: WATCH });
    expect(watch.status).toBe(200);
    expect(watch.body.toString()).toContain('"k8s.io/initial-events-end":"true"');
  });
});

describe('a bad --feature-gates stops the start with one line', () => {
  const cases = [
    { name: 'an unknown gate', flag: '--feature-gates=NoSuchGate=true', want: 'unrecognized feature gate: NoSuchGate' },
    { name: 'a value that is not a boolean', flag: '--feature-gates=WatchList=maybe', want: 'invalid value of WatchList=maybe' },
    { name: 'a prototype name', flag: '--feature-gates=__proto__=true', want: 'unrecognized feature gate: __proto__' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const spawned = await spawnKapi({ args: [c.flag] });
      const exit = await spawned.exited;
      expect(exit.code).not.toBe(0);
      expect(spawned.logs()).toContain(c.want);
      expect(spawned.logs()).toContain('--feature-gates');
      await spawned.stop();
    });
  }
});
