// PriorityClasses, CertificateSigningRequests, StorageClasses and the API Priority
// and Fairness configuration with real kubectl 1.27 and 1.33: `create
// priorityclass` and the refused second default, the system classes, a CSR made
// from a real PKCS#10 request approved and another denied with `kubectl
// certificate`, `get storageclass`, and the flow schemas and priority levels after
// a restart on the same data dir (ensured, not duplicated).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EC_CSR_PEM, RSA_CSR_PEM, b64 } from '../support/fixtures/csr-pems.js';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let server: RunningKapi;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kapi-e2e-sched-'));
  server = await startKapi({ dataDir });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function fails(k: Kubectl, args: string[], input?: string): string {
  const res = k.run(args, input === undefined ? {} : { input });
  expect(res.code, `${args.join(' ')} should fail`).not.toBe(0);
  return res.stderr;
}

/** `kubectl get` rows as cells split on runs of spaces, header first. */
function rows(out: string): string[][] {
  return out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
}

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

test('a fresh server has the two system priority classes', () => {
  const k = kubectl(binaries[0]!, server.kubeconfig);
  const table = rows(ok(k, ['get', 'priorityclasses']));
  expect(table[0]).toEqual(['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY']);
  expect(table.slice(1).map((r) => [r[0], r[1], r[2], r[4]])).toEqual([
    ['system-cluster-critical', '2000000000', 'false', 'PreemptLowerPriority'],
    ['system-node-critical', '2000001000', 'false', 'PreemptLowerPriority'],
  ]);
  expect(fails(k, ['delete', 'priorityclass', 'system-node-critical'])).toContain(
    'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
  );
});

test('kubectl get storageclass shows kube columns and marks the default', () => {
  const k = kubectl(binaries[0]!, server.kubeconfig);
  const manifest = (name: string, isDefault: boolean) =>
    JSON.stringify({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name, ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}) },
      provisioner: 'csi.example.com',
      allowVolumeExpansion: isDefault,
    });
  ok(k, ['create', '-f', '-'], manifest('standard', true));
  ok(k, ['create', '-f', '-'], manifest('slow', false));
  const table = rows(ok(k, ['get', 'sc']));
  expect(table[0]).toEqual(['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE']);
  expect(table.slice(1).map((r) => r.slice(0, 5))).toEqual([
    ['slow', 'csi.example.com', 'Delete', 'Immediate', 'false'],
    ['standard (default)', 'csi.example.com', 'Delete', 'Immediate', 'true'],
  ]);
  expect(fails(k, ['patch', 'sc', 'slow', '--type=merge', '-p', '{"provisioner":"other.example.com"}'])).toContain(
    'The StorageClass "slow" is invalid: provisioner: Forbidden: updates to provisioner are forbidden.',
  );
});

for (const binary of binaries) {
  describe(`priority classes and CSRs with ${binary.name}`, () => {
    let k: Kubectl;
    const suffix = binary.name.replace(/\W/g, '');
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
    });

    test('create priorityclass; a value above the user range is refused', () => {
      expect(ok(k, ['create', 'priorityclass', `batch-${suffix}`, '--value=1000', '--preemption-policy=Never', '--description=batch jobs'])).toContain(`priorityclass.scheduling.k8s.io/batch-${suffix} created`);
      const pc = JSON.parse(ok(k, ['get', 'pc', `batch-${suffix}`, '-o', 'json']));
      expect(pc).toMatchObject({ value: 1000, preemptionPolicy: 'Never', description: 'batch jobs' });
      expect(fails(k, ['create', 'priorityclass', `huge-${suffix}`, '--value=2000000000'])).toContain(
        `PriorityClass.scheduling.k8s.io "huge-${suffix}" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000`,
      );
    });

    test('certificate approve and deny; get csr shows the decisions and the requestor', () => {
      const csr = (name: string, pem: string) =>
        JSON.stringify({
          apiVersion: 'certificates.k8s.io/v1',
          kind: 'CertificateSigningRequest',
          metadata: { name },
          spec: { request: b64(pem), signerName: 'example.com/signer', usages: ['client auth'], expirationSeconds: 86400 },
        });
      ok(k, ['create', '-f', '-'], csr(`alice-${suffix}`, EC_CSR_PEM));
      ok(k, ['create', '-f', '-'], csr(`bob-${suffix}`, RSA_CSR_PEM));
      expect(ok(k, ['certificate', 'approve', `alice-${suffix}`])).toContain(`certificatesigningrequest.certificates.k8s.io/alice-${suffix} approved`);
      expect(ok(k, ['certificate', 'deny', `bob-${suffix}`])).toContain(`certificatesigningrequest.certificates.k8s.io/bob-${suffix} denied`);
      const table = rows(ok(k, ['get', 'csr', `alice-${suffix}`, `bob-${suffix}`]));
      expect(table[0]).toEqual(['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
      const me = JSON.parse(ok(k, ['get', 'csr', `alice-${suffix}`, '-o', 'json'])).spec.username as string;
      expect(me).not.toBe('');
      expect(table.slice(1).map((r) => [r[0], r[2], r[3], r[4], r[5]])).toEqual([
        [`alice-${suffix}`, 'example.com/signer', me, '24h', 'Approved'],
        [`bob-${suffix}`, 'example.com/signer', me, '24h', 'Denied'],
      ]);
      const approved = JSON.parse(ok(k, ['get', 'csr', `alice-${suffix}`, '-o', 'json']));
      expect(approved.status.conditions).toEqual([
        expect.objectContaining({ type: 'Approved', status: 'True', reason: 'KubectlApprove', lastUpdateTime: expect.stringMatching(/Z$/) }),
      ]);
      // kubectl reads the decision back: a request is not decided twice.
      expect(fails(k, ['certificate', 'deny', `alice-${suffix}`])).toContain(`certificate signing request "alice-${suffix}" is already Approved`);
    });

    test('a CSR whose request is not a PKCS#10 request is refused', () => {
      const bad = JSON.stringify({
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: `bad-${suffix}` },
        spec: { request: b64('not a request'), signerName: 'example.com/signer', usages: ['client auth'] },
      });
      expect(fails(k, ['create', '-f', '-'], bad)).toContain('spec.request: Invalid value:');
    });
  });
}

test('create priorityclass --global-default works once; a second default is refused with kube text', () => {
  const k = kubectl(binaries[0]!, server.kubeconfig);
  ok(k, ['create', 'priorityclass', 'default-one', '--value=100', '--global-default']);
  expect(fails(k, ['create', 'priorityclass', 'default-two', '--value=200', '--global-default'])).toContain(
    'priorityclasses.scheduling.k8s.io "default-two" is forbidden: PriorityClass default-one is already marked as default. Only one default can exist',
  );
  expect(ok(k, ['get', 'pc', '-o', 'name'])).not.toContain('default-two');
});

test('flow schemas and priority levels are there after a restart, not duplicated', async () => {
  const levels = ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low'];
  let k = kubectl(binaries[binaries.length - 1]!, server.kubeconfig);
  const before = JSON.parse(ok(k, ['get', 'flowschemas,prioritylevelconfigurations', '-o', 'json'])).items.map((i: { metadata: { uid: string } }) => i.metadata.uid);
  await server.stop();
  server = await startKapi({ dataDir });
  k = kubectl(binaries[binaries.length - 1]!, server.kubeconfig);
  const after = JSON.parse(ok(k, ['get', 'flowschemas,prioritylevelconfigurations', '-o', 'json'])).items.map((i: { metadata: { uid: string } }) => i.metadata.uid);
  expect(after).toEqual(before);
  const pls = rows(ok(k, ['get', 'prioritylevelconfigurations']));
  expect(pls[0]).toEqual(['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
  expect(pls.slice(1).map((r) => r[0])).toEqual(levels);
  expect(pls.find((r) => r[0] === 'exempt')!.slice(1, 6)).toEqual(['Exempt', '<none>', '<none>', '<none>', '<none>']);
  expect(pls.find((r) => r[0] === 'workload-low')!.slice(1, 6)).toEqual(['Limited', '100', '128', '6', '50']);
  const fss = rows(ok(k, ['get', 'flowschemas']));
  expect(fss[0]).toEqual(['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
  expect(fss.find((r) => r[0] === 'exempt')).toEqual(['exempt', 'exempt', '1', '<none>', expect.any(String), 'False']);
  expect(fss.find((r) => r[0] === 'catch-all')).toEqual(['catch-all', 'catch-all', '10000', 'ByUser', expect.any(String), 'False']);
  expect(fss).toHaveLength(14);
  // The system priority classes survived the restart too, once each.
  expect(ok(k, ['get', 'pc', '-o', 'name']).split('\n').filter((l) => l.startsWith('priorityclass.scheduling.k8s.io/system-'))).toHaveLength(2);
}, 60_000);
