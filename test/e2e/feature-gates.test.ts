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

describe('HPAScaleToZero (alpha, off by default)', () => {
  const hpa = (name: string) => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 0,
      maxReplicas: 3,
      metrics: [{ type: 'Object', object: { describedObject: { apiVersion: 'v1', kind: 'Service', name: 'web' }, metric: { name: 'hits' }, target: { type: 'Value', value: '10' } } }],
    },
  });
  const cases = [
    { name: 'off: minReplicas 0 is refused as kube refuses it', args: [] as string[], want: 422 },
    { name: 'on: minReplicas 0 is accepted', args: ['--feature-gates=HPAScaleToZero=true'], want: 201 },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      server = await startKapi({ args: c.args });
      const creds = adminCredentials(server.kubeconfig);
      const answer = await call(server, creds, {
        method: 'POST',
        path: '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers',
        body: JSON.stringify(hpa('zero')),
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBe(c.want);
      if (c.want === 422) expect(answer.json().details.causes.map((x: { field: string }) => x.field)).toContain('spec.minReplicas');
    });
  }
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
