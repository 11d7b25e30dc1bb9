// Key material in a cert dir that crashes and other replicas share: starts that
// race on an empty dir agree on one CA and serving pair; what a crash leaves (a
// key without its certificate, temp files) never stops the next start.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ensurePair } from '../../../src/auth/pki/ensure-pair.js';
import { ensurePki } from '../../../src/auth/pki/ensure-pki.js';
import { createCertificateAuthority } from '../../../src/auth/pki/issue.js';
import { checkReusable } from '../../../src/auth/pki/inspect.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kapi-pair-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const issue = () => createCertificateAuthority({ commonName: 'test-ca', validityDays: 10, clock: () => new Date() });
const check = (pair: { certPem: string; keyPem: string }) => {
  const result = checkReusable({ ...pair, now: new Date(), renewBeforeMs: 0 });
  return result.reusable ? undefined : result.reason;
};
const pairOptions = { certName: 'ca.crt', keyName: 'ca.key', label: 'CA', check, halfWrittenWaitMs: 200 };

test('starts racing on an empty cert dir all use the one pair that was published', async () => {
  const all = await Promise.all([0, 1, 2, 3].map(() => ensurePki({ dir, hosts: ['10.0.0.1'] })));
  const onDisk = { ca: await readFile(join(dir, 'ca.crt'), 'utf8'), serving: await readFile(join(dir, 'apiserver.crt'), 'utf8') };
  for (const pki of all) expect({ ca: pki.caCertPem, serving: pki.servingCertPem }).toEqual(onDisk);
  expect(all.filter((p) => p.generated.ca)).toHaveLength(1);
  // No temp files left behind by the losers.
  expect((await readdir(dir)).sort()).toEqual(['apiserver.crt', 'apiserver.key', 'ca.crt', 'ca.key']);
});

test('a key left without its certificate by a crash is replaced after the wait', async () => {
  const orphan = await issue();
  await writeFile(join(dir, 'ca.key'), orphan.keyPem, { mode: 0o600 });
  const got = await ensurePair({ dir, ...pairOptions, issue });
  expect(got.generated).toBe(true);
  expect(got.pair.keyPem).not.toBe(orphan.keyPem);
  expect(await readFile(join(dir, 'ca.key'), 'utf8')).toBe(got.pair.keyPem);
  expect(check(got.pair)).toBeUndefined();
});

test('a key whose certificate another writer publishes within the wait is used as is', async () => {
  const theirs = await issue();
  await writeFile(join(dir, 'ca.key'), theirs.keyPem, { mode: 0o600 });
  let issued = 0;
  const pending = ensurePair({
    dir,
    ...pairOptions,
    halfWrittenWaitMs: 5000,
    issue: async () => {
      issued++;
      return issue();
    },
  });
  await writeFile(join(dir, 'ca.crt'), theirs.certPem);
  const got = await pending;
  expect({ generated: got.generated, issued, pair: got.pair }).toEqual({ generated: false, issued: 0, pair: theirs });
});

test('temp files a crash left mid-write are ignored', async () => {
  await writeFile(join(dir, '.ca.key.0123456789ab.tmp'), '-----BEGIN PRIVATE KEY-----\ntrunc');
  const got = await ensurePair({ dir, ...pairOptions, issue });
  expect(got.generated).toBe(true);
  expect(check(got.pair)).toBeUndefined();
});
