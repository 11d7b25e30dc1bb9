// The shared KV conformance suite against a private etcd. One etcd serves the
// whole file; each case gets a fresh KV over a fresh random key prefix, so cases
// never see each other's keys (compaction is etcd-wide, which the compaction
// cases tolerate: they only assert on revisions they wrote themselves).
import { randomBytes } from 'node:crypto';
import { openEtcdKv } from '../../src/storage/etcd/index.js';
import { describeKvConformance } from '../../src/storage/testing/kv.suite.js';
import { describeWithEtcd } from '../support/etcd.js';

describeWithEtcd('etcd', (ctx) => {
  describeKvConformance('etcd', () =>
    openEtcdKv({
      endpoints: [ctx.etcd.endpoint],
      prefix: `/kvc-${randomBytes(4).toString('hex')}`,
      compactionIntervalMs: 0,
    }),
  );
});
