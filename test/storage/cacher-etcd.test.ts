// The Storage conformance suite through the watch cache over etcd (skipped
// without an etcd binary unless KAPI_REQUIRE_ETCD=1).
import { randomBytes } from 'node:crypto';
import { openEtcdKv } from '../../src/storage/etcd/index.js';
import { cacherUnderTest } from '../../src/storage/testing/cacher-under-test.js';
import { describeStorageConformance } from '../../src/storage/testing/storage.suite.js';
import { describeWithEtcd } from '../support/etcd.js';

// resourceVersion "0" is kube's "Any": served from a cache that etcd's watch feeds
// asynchronously, it may be a moment behind the write just made, as on
// kube-apiserver. These cases assert the latest state at once, which only a
// synchronously fed cache (memory, SQLite) gives. "Any" reads are otherwise
// covered on etcd by the cacher's own tests.
const LAGS = 'resourceVersion "0" (Any) reads from a cache fed by etcd\'s asynchronous watch may lag the last write, as kube-apiserver\'s do';
const ANY_READS = [
  'crud > get resourceVersion: "0" reads the latest',
  'crud > get resourceVersion: "0" with NotOlderThan reads the latest',
  'list > list resourceVersion: "0" lists the latest',
  'list > list resourceVersion: "0" with NotOlderThan lists the latest',
  'list > list resourceVersion with a limit: "0" pages the latest',
  'list > list resourceVersion with a limit: NotOlderThan pages the latest',
  'watch > resourceVersion "0" sends the state as ADDED, then later changes',
  'watch > resourceVersion "0" without initial events starts from now',
].map((test) => ({ test, reason: LAGS }));
// "Not older than N" is met by any state at or after N; these cases assert the
// latest one, which a cache fed asynchronously by etcd may not have reached yet.
const NOT_OLDER = 'a read "not older than N" may be served by a cache state after N that lacks the last write, as on kube-apiserver';
const NOT_OLDER_READS = [
  'crud > get resourceVersion: N reads not older than N',
  'crud > get resourceVersion: N with NotOlderThan reads the latest',
  'list > list resourceVersion: NotOlderThan lists the latest',
  'list > list resourceVersion: unset match without limit lists the latest',
].map((test) => ({ test, reason: NOT_OLDER }));

describeWithEtcd('etcd', (ctx) => {
  describeStorageConformance('watch cache over etcd', async () => {
    const kv = await openEtcdKv({
      endpoints: [ctx.etcd.endpoint],
      prefix: `/cacher-${randomBytes(4).toString('hex')}`,
      compactionIntervalMs: 0,
    });
    // As main.ts runs it on etcd: consistent reads go to etcd (etcd issue 15220).
    return cacherUnderTest(kv, { consistentReadsFromCache: false });
  }, { skip: [...ANY_READS, ...NOT_OLDER_READS] });
});
