import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensurePki } from '../../src/auth/pki/ensure-pki.js';
import { OptionsError, parseOptions } from '../../src/server/options.js';
import { validateFiles } from '../../src/server/options/validate-files.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kapi-options-'));
  await ensurePki({ dir: join(dir, 'a'), hosts: [] });
  await ensurePki({ dir: join(dir, 'b'), hosts: [] });
  await writeFile(join(dir, 'garbage.pem'), 'not pem at all\n');
  await writeFile(join(dir, 'unreadable.pem'), 'x');
  await chmod(join(dir, 'unreadable.pem'), 0o000);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('validateFiles', () => {
  const runningAsRoot = process.getuid?.() === 0;
  const cases: Array<{ name: string; argv: (d: string) => string[]; want: 'ok' | string[]; skip?: boolean }> = [
    { name: 'no files named', argv: () => [], want: 'ok' },
    {
      name: 'a matching TLS pair and a CA bundle',
      argv: (d) => [`--tls-cert-file=${d}/a/apiserver.crt`, `--tls-private-key-file=${d}/a/apiserver.key`, `--client-ca-file=${d}/a/ca.crt`],
      want: 'ok',
    },
    { name: 'a missing file', argv: (d) => [`--client-ca-file=${d}/nope.crt`], want: ['--client-ca-file "<d>/nope.crt": no such file or directory'] },
    { name: 'a directory', argv: (d) => [`--client-ca-file=${d}`], want: ['--client-ca-file "<d>": is a directory'] },
    { name: 'not PEM', argv: (d) => [`--etcd-cafile=${d}/garbage.pem`], want: ['--etcd-cafile "<d>/garbage.pem": no PEM certificate found'] },
    { name: 'a certificate where a key belongs', argv: (d) => [`--tls-cert-file=${d}/a/apiserver.crt`, `--tls-private-key-file=${d}/a/apiserver.crt`], want: ['--tls-private-key-file "<d>/a/apiserver.crt": no PEM private key found'] },
    {
      name: 'a key that does not match',
      argv: (d) => [`--tls-cert-file=${d}/a/apiserver.crt`, `--tls-private-key-file=${d}/b/apiserver.key`],
      want: ['--tls-private-key-file "<d>/b/apiserver.key" does not match --tls-cert-file "<d>/a/apiserver.crt"'],
    },
    {
      name: 'kubelet client pair and CA',
      argv: (d) => [`--kubelet-client-certificate=${d}/a/apiserver.crt`, `--kubelet-client-key=${d}/a/apiserver.key`, `--kubelet-certificate-authority=${d}/b/ca.crt`],
      want: 'ok',
    },
    {
      name: 'a kubelet client key that does not match, a CA that is no certificate',
      argv: (d) => [`--kubelet-client-certificate=${d}/a/apiserver.crt`, `--kubelet-client-key=${d}/b/apiserver.key`, `--kubelet-certificate-authority=${d}/garbage.pem`],
      want: ['--kubelet-certificate-authority "<d>/garbage.pem": no PEM certificate found', '--kubelet-client-key "<d>/b/apiserver.key" does not match --kubelet-client-certificate "<d>/a/apiserver.crt"'],
    },
    { name: 'service-account keys', argv: (d) => [`--service-account-signing-key-file=${d}/a/ca.key`, `--service-account-key-file=${d}/b/ca.crt`], want: 'ok' },
    {
      name: 'service-account files without keys',
      argv: (d) => [`--service-account-signing-key-file=${d}/a/ca.crt`, `--service-account-key-file=${d}/garbage.pem`],
      want: ['--service-account-signing-key-file "<d>/a/ca.crt": no PEM private key found', '--service-account-key-file "<d>/garbage.pem": no PEM public key found'],
    },
    // root reads anything, so the permission case only means something for other users.
    { name: 'no permission', argv: (d) => [`--client-ca-file=${d}/unreadable.pem`], want: ['--client-ca-file "<d>/unreadable.pem": permission denied'], skip: runningAsRoot },
    {
      name: 'every problem at once',
      argv: (d) => [`--client-ca-file=${d}/x`, `--etcd-certfile=${d}/y`, `--etcd-keyfile=${d}/a/ca.key`],
      want: ['--client-ca-file "<d>/x": no such file or directory', '--etcd-certfile "<d>/y": no such file or directory'],
    },
  ];
  for (const c of cases) {
    test.skipIf(c.skip === true)(c.name, async () => {
      const options = parseOptions(c.argv(dir), { cwd: dir });
      if (c.want === 'ok') {
        const files = await validateFiles(options);
        if (options.clientCaFile !== undefined) expect(files.clientCaPem).toContain('BEGIN CERTIFICATE');
        return;
      }
      const err = await validateFiles(options).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OptionsError);
      expect((err as OptionsError).problems.map((p) => p.replaceAll(dir, '<d>'))).toEqual(c.want);
    });
  }
});
