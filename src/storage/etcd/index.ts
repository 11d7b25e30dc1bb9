// The etcd3 storage backend: openEtcdKv gives the byte-level KV contract over an
// etcd cluster (see etcd-kv.ts; operations notes in docs/etcd.md).
export { openEtcdKv, type EtcdKvOptions } from './etcd-kv.js';
export type { EtcdTlsOptions } from './client.js';
export type { EtcdLogger } from './compactor.js';
