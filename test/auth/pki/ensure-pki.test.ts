import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ensurePki, PkiError } from '../../../src/auth/pki/ensure-pki.js';
import { subjectAltNames } from '../../../src/auth/pki/inspect.js';

const DAY = 24 * 60 * 60 * 1000;
const START = new Date('2030-01-01T00:00:00Z');
const at = (offsetMs: number) => () => new Date(START.getTime() + offsetMs);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kapi-pki-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ensurePki on an empty directory', () => {
  test('creates a CA and a serving certificate for the default names and the bind address', async () => {
    const pki = await ensurePki({ dir, hosts: ['10.1.2.3', 'api.example.test', '0.0.0.0'], clock: at(0) });
    expect(pki.generated).toMatchObject({ ca: true, serving: true });

    const ca = new X509Certificate(pki.caCertPem);
    const serving = new X509Certificate(pki.servingCertPem);
    expect(ca.ca).toBe(true);
    expect(serving.ca).toBe(false);
    expect(serving.checkIssued(ca)).toBe(true);
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(serving.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']); // serverAuth
    expect([...subjectAltNames(serving)].sort()).toEqual(
      [
        'dns:localhost',
        'dns:kubernetes',
        'dns:kubernetes.default',
        'dns:kubernetes.default.svc',
        'dns:kubernetes.default.svc.cluster.local',
        'dns:api.example.test',
        'ip:127.0.0.1',
        'ip:[::1]',
        'ip:10.1.2.3',
      ].sort(),
    );
    // Go rejects negative serial numbers.
    expect(Number.parseInt(serving.serialNumber.slice(0, 2), 16)).toBeLessThan(0x80);
    expect(new Date(serving.validFrom).getTime()).toBeLessThanOrEqual(START.getTime());
  });

  test('writes keys 0600 and the files it reports', async () => {
    const pki = await ensurePki({ dir, hosts: [], clock: at(0) });
    const files = [
      { path: join(dir, 'ca.key'), mode: 0o600 },
      { path: join(dir, 'apiserver.key'), mode: 0o600 },
      { path: pki.caFile, mode: 0o644 },
      { path: pki.servingCertFile, mode: 0o644 },
    ];
    for (const file of files) expect({ path: file.path, mode: (await stat(file.path)).mode & 0o777 }).toEqual(file);
    expect(pki.servingKeyFile).toBe(join(dir, 'apiserver.key'));
  });
});

describe('ensurePki on later starts', () => {
  const cases: Array<{
    name: string;
    hosts: string[];
    clock: () => Date;
    want: { ca: boolean; serving: boolean; reason?: RegExp };
  }> = [
    { name: 'reuses everything unchanged', hosts: ['10.0.0.1'], clock: at(DAY), want: { ca: false, serving: false } },
    { name: 'reuses when the host is spelt differently', hosts: ['0:0:0:0:0:0:0:1', 'LOCALHOST'], clock: at(DAY), want: { ca: false, serving: false } },
    { name: 'reissues serving for an uncovered host', hosts: ['10.0.0.2'], clock: at(DAY), want: { ca: false, serving: true, reason: /do not cover 10\.0\.0\.2/ } },
    { name: 'reissues serving close to expiry', hosts: [], clock: at(350 * DAY), want: { ca: false, serving: true, reason: /expires soon/ } },
    { name: 'recreates an expired CA and its serving certificate', hosts: [], clock: at(3651 * DAY), want: { ca: true, serving: true, reason: /CA .*expires soon/ } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const first = await ensurePki({ dir, hosts: ['10.0.0.1'], clock: at(0) });
      const before = await stat(first.servingCertFile);
      const caBefore = await stat(first.caFile);
      const again = await ensurePki({ dir, hosts: c.hosts, clock: c.clock });
      expect(again.generated.ca).toBe(c.want.ca);
      expect(again.generated.serving).toBe(c.want.serving);
      if (c.want.reason !== undefined) expect(again.generated.reason).toMatch(c.want.reason);
      expect(again.caCertPem === first.caCertPem).toBe(!c.want.ca);
      expect(again.servingCertPem === first.servingCertPem).toBe(!c.want.serving);
      // No rewrite at all when reused: same inode, same mtime.
      const after = await stat(first.servingCertFile);
      const caAfter = await stat(first.caFile);
      expect(after.ino === before.ino && after.mtimeMs === before.mtimeMs).toBe(!c.want.serving);
      expect(caAfter.ino === caBefore.ino && caAfter.mtimeMs === caBefore.mtimeMs).toBe(!c.want.ca);
    });
  }

  test('reissues a serving certificate whose key was replaced', async () => {
    await ensurePki({ dir, hosts: [], clock: at(0) });
    const other = join(dir, 'other');
    const second = await ensurePki({ dir: other, hosts: [], clock: at(0) });
    await writeFile(join(dir, 'apiserver.key'), second.servingKeyPem);
    const again = await ensurePki({ dir, hosts: [], clock: at(0) });
    expect(again.generated).toMatchObject({ ca: false, serving: true, reason: 'serving certificate key does not match certificate' });
  });

  test('refuses a CA certificate without its key', async () => {
    await ensurePki({ dir, hosts: [], clock: at(0) });
    await unlink(join(dir, 'ca.key'));
    await expect(ensurePki({ dir, hosts: [], clock: at(0) })).rejects.toThrow(PkiError);
  });
});
