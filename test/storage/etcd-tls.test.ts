// TLS client options (--etcd-cafile/--etcd-certfile/--etcd-keyfile): a private
// etcd serving https with client-certificate auth, certificates made on the spot
// with the openssl CLI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { isStorageError } from '../../src/errors/storage-error.js';
import { openEtcdKv } from '../../src/storage/etcd/index.js';
import { collectWatch } from '../../src/storage/testing/kv-watch-collector.js';
import { describeWithEtcd, etcdAvailable } from '../support/etcd.js';

// Only where the tests will run: a machine without etcd may lack openssl too,
// and a skipped file runs no afterAll to remove a temp dir.
const dir = etcdAvailable() ? mkdtempSync(join(tmpdir(), 'kapi-etcd-tls-')) : undefined;
const file = (name: string): string => join(dir ?? 'etcd-unavailable', name);
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function openssl(args: string[]): void {
  const run = spawnSync('openssl', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${run.stderr}`);
}

/** A CA, a server pair valid for 127.0.0.1, and a client pair, all P-256. */
function makeCertificates(): void {
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(['req', '-x509', ...key, '-keyout', file('ca.key'), '-out', file('ca.crt'), '-subj', '/CN=kapi-test-ca', '-days', '2']);
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  for (const who of ['server', 'client']) {
    openssl(['req', ...key, '-keyout', file(`${who}.key`), '-out', file(`${who}.csr`), '-subj', `/CN=kapi-${who}`]);
    openssl([
      'x509', '-req', '-in', file(`${who}.csr`), '-CA', file('ca.crt'), '-CAkey', file('ca.key'),
      '-CAcreateserial', '-out', file(`${who}.crt`), '-days', '2',
      ...(who === 'server' ? ['-extfile', file('server.ext')] : []),
    ]);
  }
}

if (dir !== undefined) makeCertificates();

describeWithEtcd(
  'etcd KV over TLS',
  (ctx) => {
    test('with CA and client certificate files: reads, writes and watches work', async () => {
      const kv = openEtcdKv({
        endpoints: [ctx.etcd.endpoint],
        tls: { caFile: file('ca.crt'), certFile: file('client.crt'), keyFile: file('client.key') },
        compactionIntervalMs: 0,
      });
      try {
        const watch = collectWatch(kv, '/tls/', { afterRevision: await kv.currentRevision() });
        const { revision } = await kv.create('/tls/a', new TextEncoder().encode('secure'));
        const events = await watch.waitForEvents(1);
        watch.close();
        expect({
          endpoint: ctx.etcd.endpoint.startsWith('https://'),
          value: new TextDecoder().decode((await kv.get('/tls/a'))?.value),
          event: events.map((e) => [e.type, e.revision]),
        }).toEqual({ endpoint: true, value: 'secure', event: [['create', revision]] });
      } finally {
        await kv.close();
      }
    });

    test('without a client certificate etcd refuses the connection: Unavailable', async () => {
      const kv = openEtcdKv({
        endpoints: [ctx.etcd.endpoint],
        tls: { caFile: file('ca.crt') },
        compactionIntervalMs: 0,
        dialTimeoutMs: 500,
      });
      try {
        const err = await kv.get('/tls/a').then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isStorageError(err, 'Unavailable'), String(err)).toBe(true);
      } finally {
        await kv.close();
      }
    });

    test('a certificate without its key is rejected when the KV is opened', () => {
      expect(() =>
        openEtcdKv({ endpoints: [ctx.etcd.endpoint], tls: { caFile: file('ca.crt'), certFile: file('client.crt') } }),
      ).toThrow(/certFile and keyFile/);
    });
  },
  { tls: { certFile: file('server.crt'), keyFile: file('server.key'), trustedCaFile: file('ca.crt') } },
);
