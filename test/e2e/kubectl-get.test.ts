// `kubectl get` human output from server-side Tables, with real kubectl: the one on
// PATH, 1.27 and 1.33. Columns and cells must read as they do against kube-apiserver.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let server: RunningKapi;

beforeAll(async () => {
  server = await startKapi();
}, 60_000);
afterAll(async () => server?.stop());


/** The header line split on runs of 2+ spaces, and each row likewise. */
function table(out: string): { header: string[]; rows: string[][] } {
  const [head = '', ...rest] = out.trimEnd().split('\n');
  const split = (line: string) => line.trim().split(/\s{2,}/);
  return { header: split(head), rows: rest.map(split) };
}

const pod = (name: string) => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: name } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
});

test('kubectl binaries are present', () => {
  expect(binaries.map((b) => b.name)).toEqual(['kubectl', 'kubectl.1.27', 'kubectl.1.33']);
});

for (const binary of binaries) {
  describe(`kubectl get with ${binary.name}`, () => {
    let k: Kubectl;
    const ns = `get-${binary.name.replace(/\W/g, '')}`;
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
      ok(k, ['create', 'ns', ns]);
      ok(k, ['-n', ns, 'create', 'configmap', 'cfg', '--from-literal=a=1', '--from-literal=b=2']);
      ok(k, ['-n', ns, 'create', 'secret', 'generic', 'sec', '--from-literal=k=v']);
      for (const name of ['web-b', 'web-a']) ok(k, ['-n', ns, 'create', '-f', '-'], pod(name));
    });

    test('get ns: NAME STATUS AGE with Active', () => {
      const t = table(ok(k, ['get', 'ns']));
      expect(t.header).toEqual(['NAME', 'STATUS', 'AGE']);
      expect(t.rows.find((r) => r[0] === ns)?.[1]).toBe('Active');
      expect(t.rows.find((r) => r[0] === 'default')?.[2]).toMatch(/^\d+(s|m\d*s?)$/);
    });

    test('get pods: READY, STATUS, RESTARTS', () => {
      const t = table(ok(k, ['-n', ns, 'get', 'pods']));
      expect(t.header).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
      expect(t.rows.map((r) => r.slice(0, 4))).toEqual([['web-a', '0/1', 'Pending', '0'], ['web-b', '0/1', 'Pending', '0']]);
    });

    test('get pods -o wide adds the priority-1 columns', () => {
      const t = table(ok(k, ['-n', ns, 'get', 'pods', '-o', 'wide']));
      expect(t.header).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
      expect(t.rows[0]!.slice(5)).toEqual(['<none>', '<none>', '<none>', '<none>']);
    });

    test('get pods --show-labels reads labels from the row objects', () => {
      const t = table(ok(k, ['-n', ns, 'get', 'pods', '--show-labels']));
      expect(t.header).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'LABELS']);
      expect(t.rows.map((r) => [r[0], r[5]])).toEqual([['web-a', 'app=web-a'], ['web-b', 'app=web-b']]);
    });

    test('get pods --sort-by sorts on the full objects', () => {
      const t = table(ok(k, ['-n', ns, 'get', 'pods', '--sort-by=.metadata.labels.app']));
      expect(t.rows.map((r) => r[0])).toEqual(['web-a', 'web-b']);
      const byName = table(ok(k, ['-n', ns, 'get', 'pods', '--sort-by=.metadata.name']));
      expect(byName.rows.map((r) => r[0])).toEqual(['web-a', 'web-b']);
    });

    test('get one pod', () => {
      const t = table(ok(k, ['-n', ns, 'get', 'pod', 'web-b']));
      expect(t.rows.map((r) => r.slice(0, 3))).toEqual([['web-b', '0/1', 'Pending']]);
    });

    test('get cm: DATA column', () => {
      const t = table(ok(k, ['-n', ns, 'get', 'cm', 'cfg']));
      expect(t.header).toEqual(['NAME', 'DATA', 'AGE']);
      expect(t.rows[0]!.slice(0, 2)).toEqual(['cfg', '2']);
    });

    test('get secrets: TYPE and DATA', () => {
      const t = table(ok(k, ['-n', ns, 'get', 'secrets', 'sec']));
      expect(t.header).toEqual(['NAME', 'TYPE', 'DATA', 'AGE']);
      expect(t.rows[0]!.slice(0, 3)).toEqual(['sec', 'Opaque', '1']);
    });

    test('get limitranges: the default NAME CREATED AT', () => {
      ok(k, ['-n', ns, 'create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } }));
      const t = table(ok(k, ['-n', ns, 'get', 'limitranges']));
      expect(t.header).toEqual(['NAME', 'CREATED AT']);
      expect(t.rows[0]![1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    test('get with --chunk-size pages through continue', () => {
      const t = table(ok(k, ['-n', ns, 'get', 'pods', '--chunk-size=1']));
      expect(t.rows.map((r) => r[0])).toEqual(['web-a', 'web-b']);
    });
  });
}
