// Services with real kubectl: the default/kubernetes service and its endpoints,
// cluster IPs and node ports from the ranges (`expose`, `create service`), kube's
// errors for a taken or out-of-range value, `apply` of a manifest without the
// allocated values, a type change by `patch`, and values going back on delete.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let server: RunningKapi;

beforeAll(async () => {
  // A small range so the test can name addresses inside and outside it.
  server = await startKapi({ args: ['--service-cluster-ip-range=10.44.0.0/24', '--service-node-port-range=31000-31999', '--advertise-address=192.0.2.10'] });
}, 60_000);
afterAll(async () => server?.stop());


function fails(k: Kubectl, args: string[]): string {
  const res = k.run(args);
  expect(res.code, `${args.join(' ')} should fail`).not.toBe(0);
  return res.stderr;
}

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

test('default/kubernetes is the first IP of the range, port 443 to the secure port, with endpoints', () => {
  const k = kubectl(binaries[0]!, server.kubeconfig);
  const svc = JSON.parse(ok(k, ['-n', 'default', 'get', 'service', 'kubernetes', '-o', 'json']));
  expect(svc.spec).toMatchObject({ type: 'ClusterIP', clusterIP: '10.44.0.1', clusterIPs: ['10.44.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: server.port }] });
  expect(svc.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
  const ep = JSON.parse(ok(k, ['-n', 'default', 'get', 'endpoints', 'kubernetes', '-o', 'json']));
  expect(ep.subsets).toEqual([{ addresses: [{ ip: '192.0.2.10' }], ports: [{ name: 'https', port: server.port, protocol: 'TCP' }] }]);
});

for (const binary of binaries) {
  describe(`services with ${binary.name}`, () => {
    let k: Kubectl;
    const ns = `svc-${binary.name.replace(/\W/g, '')}`;
    // Each kubectl gets its own addresses and ports in the shared range.
    const n = binaries.indexOf(binary);
    const fixedIP = `10.44.0.${5 + n}`;
    // In the lower band (31000-31030 of this range), which random allocation leaves to
    // services that name their port (kube's KEP-3070): a random port cannot take it first.
    const fixedPort = 31010 + n;
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
      ok(k, ['create', 'ns', ns]);
      ok(k, ['-n', ns, 'run', 'web', '--image=nginx']);
    });

    test('expose gives a ClusterIP service an IP from the range; get shows it', () => {
      expect(ok(k, ['-n', ns, 'expose', 'pod', 'web', '--port=80'])).toContain('service/web exposed');
      const ip = ok(k, ['-n', ns, 'get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP}']);
      expect(ip).toMatch(/^10\.44\.0\.\d+$/);
      const table = ok(k, ['-n', ns, 'get', 'svc', 'web']);
      expect(table).toContain(ip);
    });

    test('NodePort services get node ports from their range; a taken one is refused with kube text', () => {
      ok(k, ['-n', ns, 'create', 'service', 'nodeport', 'np', '--tcp=80:8080']);
      const port = Number(ok(k, ['-n', ns, 'get', 'svc', 'np', '-o', 'jsonpath={.spec.ports[0].nodePort}']));
      expect(port).toBeGreaterThanOrEqual(31000);
      expect(port).toBeLessThanOrEqual(31999);
      ok(k, ['-n', ns, 'create', 'service', 'nodeport', 'fixed-port', '--tcp=81:81', `--node-port=${fixedPort}`]);
      const err = fails(k, ['-n', ns, 'create', 'service', 'nodeport', 'again-port', '--tcp=82:82', `--node-port=${fixedPort}`]);
      expect(err).toContain(`Service "again-port" is invalid: spec.ports[0].nodePort: Invalid value: ${fixedPort}: provided port is already allocated`);
    });

    test('a named clusterIP is taken once, an outside one refused; delete gives it back', () => {
      ok(k, ['-n', ns, 'create', 'service', 'clusterip', 'fixed', '--tcp=80', `--clusterip=${fixedIP}`]);
      expect(fails(k, ['-n', ns, 'create', 'service', 'clusterip', 'dup', '--tcp=80', `--clusterip=${fixedIP}`])).toContain(
        `spec.clusterIPs: Invalid value: ["${fixedIP}"]: failed to allocate IP ${fixedIP}: provided IP is already allocated`,
      );
      expect(fails(k, ['-n', ns, 'create', 'service', 'clusterip', 'out', '--tcp=80', '--clusterip=10.45.0.5'])).toContain(
        'the provided IP (10.45.0.5) is not in the valid range. The range of valid IPs is 10.44.0.0/24',
      );
      ok(k, ['-n', ns, 'delete', 'service', 'fixed']);
      ok(k, ['-n', ns, 'create', 'service', 'clusterip', 'dup', '--tcp=80', `--clusterip=${fixedIP}`]);
      expect(ok(k, ['-n', ns, 'get', 'svc', 'dup', '-o', 'jsonpath={.spec.clusterIP}'])).toBe(fixedIP);
      ok(k, ['-n', ns, 'delete', 'service', 'dup']);
    });

    test('apply of a manifest without the allocated values keeps them', () => {
      const manifest = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'applied', namespace: ns }, spec: { type: 'NodePort', selector: { run: 'web' }, ports: [{ port: 80 }] } };
      ok(k, ['apply', '-f', '-'], yaml.dump(manifest));
      const first = JSON.parse(ok(k, ['-n', ns, 'get', 'svc', 'applied', '-o', 'json']));
      manifest.spec.ports = [{ port: 80, targetPort: 8080 } as { port: number }];
      ok(k, ['apply', '-f', '-'], yaml.dump(manifest));
      const second = JSON.parse(ok(k, ['-n', ns, 'get', 'svc', 'applied', '-o', 'json']));
      expect(second.spec.clusterIP).toBe(first.spec.clusterIP);
      expect(second.spec.ports[0].nodePort).toBe(first.spec.ports[0].nodePort);
      expect(second.spec.ports[0].targetPort).toBe(8080);
    });

    test('patching NodePort to ClusterIP drops the node port; ExternalName drops the IP', () => {
      ok(k, ['-n', ns, 'patch', 'svc', 'np', '-p', '{"spec":{"type":"ClusterIP"}}']);
      const spec = JSON.parse(ok(k, ['-n', ns, 'get', 'svc', 'np', '-o', 'jsonpath={.spec}']));
      expect(spec.type).toBe('ClusterIP');
      expect(spec.ports[0].nodePort).toBeUndefined();
      ok(k, ['-n', ns, 'patch', 'svc', 'np', '-p', '{"spec":{"type":"ExternalName","externalName":"example.com"}}']);
      const ext = JSON.parse(ok(k, ['-n', ns, 'get', 'svc', 'np', '-o', 'jsonpath={.spec}']));
      expect(ext.clusterIP).toBeUndefined();
      expect(ok(k, ['-n', ns, 'get', 'svc', 'np'])).toMatch(/np\s+ExternalName\s+<none>\s+example\.com/);
    });
  });
}
