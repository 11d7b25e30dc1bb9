// The object-level Storage conformance suite over the etcd KV. One private etcd
// serves the file; each case gets a fresh KV over a fresh key prefix.
import { randomBytes } from 'node:crypto';
import { openEtcdKv } from '../../src/storage/etcd/index.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { describeStorageConformance } from '../../src/storage/testing/storage.suite.js';
import { describeWithEtcd } from '../support/etcd.js';

describeWithEtcd('etcd', (ctx) => {
  describeStorageConformance('object store over etcd', async () => {
    const kv = await openEtcdKv({
      endpoints: [ctx.etcd.endpoint],
      prefix: `/osc-${randomBytes(4).toString('hex')}`,
      compactionIntervalMs: 0,
    });
    return { storage: createObjectStore({ kv }), compact: (revision) => kv.compact(revision) };
  });
});
