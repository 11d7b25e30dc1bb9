// events.k8s.io/v1 Events with real kubectl (the one on PATH): kube's strict create
// rules for that version, and kube's Invalid text as kubectl prints it.
import { afterAll, beforeAll, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binary = kubectlBinaries([])[0];
let server: RunningKapi;
let k: Kubectl;

beforeAll(async () => {
  server = await startKapi();
  if (binary !== undefined) k = kubectl(binary, server.kubeconfig);
}, 60_000);
afterAll(async () => server?.stop());

const event = (name: string, extra: Record<string, unknown> = {}) =>
  yaml.dump({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: 'default' },
    eventTime: '2026-01-01T00:00:00.000000Z',
    regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
    reportingController: 'example.com/ctl',
    reportingInstance: 'ctl-1',
    action: 'Pulled',
    reason: 'Pulled',
    note: 'image pulled',
    type: 'Normal',
    ...extra,
  });

test.skipIf(binary === undefined)('kubectl create -f: a deprecatedCount is refused with kube\'s text; a valid event is created', () => {
  const res = k.run(['create', '-f', '-'], { input: event('bad', { deprecatedCount: 3 }) });
  expect(res.code).not.toBe(0);
  expect(res.stderr).toContain('The Event "bad" is invalid: count: Invalid value: "": needs to be unset');
  expect(ok(k, ['create', '-f', '-'], event('good'))).toContain('event.events.k8s.io/good created');
});
