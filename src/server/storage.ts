// Chooses the KV backend from the flags: the embedded SQLite file in the data dir
// (default) or etcd3. Above this point nothing knows which one it got. Each
// backend's module is loaded only when chosen: the etcd client (gRPC) costs a
// SQLite start a tenth of a second it would never use.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { KV } from '../storage/kv.js';
import type { Options } from './options.js';

export async function openKv(opts: { options: Options; logger: Logger }): Promise<KV> {
  const { options, logger } = opts;
  if (options.storageBackend === 'etcd3') {
    const { etcd } = options;
    const tls =
      etcd.caFile === undefined && etcd.certFile === undefined
        ? undefined
        : {
            ...(etcd.caFile === undefined ? {} : { caFile: etcd.caFile }),
            ...(etcd.certFile === undefined ? {} : { certFile: etcd.certFile }),
            ...(etcd.keyFile === undefined ? {} : { keyFile: etcd.keyFile }),
          };
    const { openEtcdKv } = await import('../storage/etcd/index.js');
    return openEtcdKv({
      endpoints: etcd.servers,
      prefix: etcd.prefix,
      compactionIntervalMs: etcd.compactionIntervalMs,
      // No progress requests: etcd before 3.4.31 / 3.5.13 answers them with the
      // store's revision even while a watcher still has events to send (etcd issue
      // 15220), and the watch cache would skip those events (the fan-out bench lost
      // ~1,600 of them under load). kube-apiserver also stops asking such etcd.
      progressIntervalMs: 0,
      requestTimeoutMs: options.requestTimeoutMs,
      ...(tls === undefined ? {} : { tls }),
      logger: { warn: (obj, msg) => logger.warn(obj, msg) },
    });
  }
  const { openSqliteKv } = await import('../storage/sqlite/index.js');
  return openSqliteKv({ path: join(options.dataDir, 'kapi.db'), synchronous: options.sqliteSynchronous });
}
