// One etcd3 client per KV: channel options, TLS files, fault policy and the retry
// rule every request goes through. Reads are retried while etcd is unreachable
// (they are repeatable); writes only when they certainly never left this process
// (see isNeverSent), so a write is never applied twice. The bound on both is
// dialTimeoutMs: after it, the caller gets StorageError 'Unavailable'.
import { readFileSync } from 'node:fs';
import { Etcd3, type IOptions } from 'etcd3';
import { isNeverSent, isUnavailable, toStorageError } from './errors.js';
import { createHostBreaker, createPassThrough } from './policy.js';

export interface EtcdTlsOptions {
  /** PEM CA bundle that signed etcd's serving certificate (--etcd-cafile). */
  readonly caFile?: string;
  /** PEM client certificate and key (--etcd-certfile, --etcd-keyfile). */
  readonly certFile?: string;
  readonly keyFile?: string;
}

export interface EtcdClientOptions {
  readonly endpoints: readonly string[];
  readonly tls?: EtcdTlsOptions;
  /** How long a request may wait for a connection to etcd. */
  readonly dialTimeoutMs: number;
  /** Deadline of each unary call; 0 for none (grpc keepalive still detects dead peers). */
  readonly requestTimeoutMs: number;
}

export type RequestKind = 'read' | 'write';

export interface EtcdConnection {
  readonly client: Etcd3;
  /** Runs one etcd request under the retry rule of its kind; errors come out mapped. */
  run<T>(kind: RequestKind, key: string | undefined, fn: () => Promise<T>): Promise<T>;
  close(): void;
}

// kube-apiserver's values: keepalive every 30 s with a 10 s timeout, and no cap on
// received messages (its MaxCallRecvMsgSize is MaxInt32). grpc-js caps at 4 MiB by
// default, which a list of 10k × 2 KiB values exceeds.
const grpcOptions = {
  'grpc.max_receive_message_length': 2_147_483_647,
  'grpc.max_send_message_length': 2_147_483_647,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
} as const;

export function connectEtcd(opts: EtcdClientOptions): EtcdConnection {
  const options: IOptions = {
    hosts: [...opts.endpoints],
    grpcOptions,
    defaultCallOptions: (context) =>
      context.isStream || opts.requestTimeoutMs <= 0 ? {} : { deadline: Date.now() + opts.requestTimeoutMs },
    faultHandling: {
      host: () => createHostBreaker({ failureThreshold: 3, halfOpenAfterMs: 500 }),
      global: createPassThrough(),
    },
  };
  const credentials = readCredentials(opts.tls);
  if (credentials !== undefined) options.credentials = credentials;
  const client = new Etcd3(options);

  // The first attempt is a plain promise chain: this wraps every etcd call, and
  // on the hot path an extra async frame per call shows in the bench.
  const run = <T>(kind: RequestKind, key: string | undefined, fn: () => Promise<T>): Promise<T> =>
    fn().catch((err: unknown) => retry({ kind, key, fn, err, deadline: Date.now() + opts.dialTimeoutMs }));

  const retry = async <T>(r: {
    kind: RequestKind;
    key: string | undefined;
    fn: () => Promise<T>;
    err: unknown;
    deadline: number;
  }): Promise<T> => {
    let err = r.err;
    let backoffMs = 25;
    for (;;) {
      const retryable = r.kind === 'read' ? isUnavailable(err) : isNeverSent(err);
      if (!retryable || Date.now() + backoffMs >= r.deadline) throw toStorageError(err, r.key);
      await new Promise((resolve) => setTimeout(resolve, backoffMs));
      backoffMs = Math.min(backoffMs * 2, 500);
      try {
        return await r.fn();
      } catch (next) {
        err = next;
      }
    }
  };
  return { client, run, close: () => client.close() };
}

function readCredentials(tls: EtcdTlsOptions | undefined): IOptions['credentials'] {
  if (tls === undefined) return undefined;
  if ((tls.certFile === undefined) !== (tls.keyFile === undefined)) {
    throw new Error('etcd TLS: certFile and keyFile must be given together');
  }
  return {
    // etcd3 types rootCertificate as required, but grpc's createSsl takes null to
    // mean "the system roots", which is what a missing caFile should do.
    rootCertificate: tls.caFile === undefined ? (null as unknown as Buffer) : readFileSync(tls.caFile),
    ...(tls.certFile === undefined ? {} : { certChain: readFileSync(tls.certFile) }),
    ...(tls.keyFile === undefined ? {} : { privateKey: readFileSync(tls.keyFile) }),
  };
}
