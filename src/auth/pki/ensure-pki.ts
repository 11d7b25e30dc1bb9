// The server's own PKI, made on first start and reused afterwards: a CA that signs
// the serving certificate and the admin client certificate (and, by default, is the
// client CA x509 authentication trusts). main.ts calls ensurePki once before it
// listens, unless --tls-cert-file/--tls-private-key-file supply the serving pair.
// Layout in the cert dir: ca.crt, ca.key, apiserver.crt, apiserver.key (keys 0600).
// Replicas sharing a cert dir may all run this at once (ensure-pair.ts).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePair, type EnsuredPair } from './ensure-pair.js';
import { checkReusable, hostKey } from './inspect.js';
import type { Clock } from './issue.js';

/**
 * The X.509 library is loaded only when something must be issued: it is the
 * slowest import of the server (~150 ms), and later starts reuse what is on disk.
 */
const issuing = () => import('./issue.js');

/** Names every kapi serving certificate carries: loopback, and the in-cluster service names. */
export const DEFAULT_SERVING_HOSTS: readonly string[] = [
  'localhost',
  '127.0.0.1',
  '::1',
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
];

const DAY_MS = 24 * 60 * 60 * 1000;
export const CA_VALIDITY_DAYS = 3650;
export const SERVING_VALIDITY_DAYS = 365;
/** A serving certificate this close to expiry is replaced at start. */
export const SERVING_RENEW_BEFORE_MS = 30 * DAY_MS;

export interface EnsurePkiOptions {
  readonly dir: string;
  /** Extra DNS names and IP addresses (the bind address, a load balancer name). */
  readonly hosts: readonly string[];
  readonly clock?: Clock;
}

export interface Pki {
  readonly caCertPem: string;
  readonly caKeyPem: string;
  readonly servingCertPem: string;
  readonly servingKeyPem: string;
  readonly caFile: string;
  readonly servingCertFile: string;
  readonly servingKeyFile: string;
  /** What this call had to (re)create; for the start log. */
  readonly generated: { readonly ca: boolean; readonly serving: boolean; readonly reason?: string };
}

/** Unspecified addresses are bind wildcards, never an address a client dials. */
const UNSPECIFIED = new Set([hostKey('0.0.0.0'), hostKey('::')]);

function servingHosts(extra: readonly string[]): string[] {
  const seen = new Set<string>(UNSPECIFIED);
  const hosts: string[] = [];
  for (const host of [...DEFAULT_SERVING_HOSTS, ...extra]) {
    if (host === '') continue;
    const key = hostKey(host);
    if (seen.has(key)) continue;
    seen.add(key);
    hosts.push(host);
  }
  return hosts;
}

export class PkiError extends Error {
  override readonly name = 'PkiError';
}

async function ensureCa(opts: { dir: string; clock: Clock }): Promise<EnsuredPair> {
  return ensurePair({
    dir: opts.dir,
    certName: 'ca.crt',
    keyName: 'ca.key',
    label: 'CA',
    check: (pair) => {
      const check = checkReusable({ ...pair, now: opts.clock(), renewBeforeMs: 0 });
      return check.reusable ? undefined : check.reason;
    },
    issue: async () => {
      const { createCertificateAuthority } = await issuing();
      const commonName = `kapi-ca@${Math.floor(opts.clock().getTime() / 1000)}`;
      return createCertificateAuthority({ commonName, validityDays: CA_VALIDITY_DAYS, clock: opts.clock });
    },
    certificateWithoutKey: ({ certFile, keyFile }) => {
      // Someone placed a CA without its key; replacing it would silently break every
      // client certificate it issued.
      throw new PkiError(`${certFile} exists but ${keyFile} does not; supply the key or remove the certificate`);
    },
  });
}

export async function ensurePki(opts: EnsurePkiOptions): Promise<Pki> {
  const clock = opts.clock ?? (() => new Date());
  await mkdir(opts.dir, { recursive: true, mode: 0o700 });
  const ca = await ensureCa({ dir: opts.dir, clock });
  const caFile = join(opts.dir, 'ca.crt');
  const servingCertFile = join(opts.dir, 'apiserver.crt');
  const servingKeyFile = join(opts.dir, 'apiserver.key');
  const hosts = servingHosts(opts.hosts);

  const serving = await ensurePair({
    dir: opts.dir,
    certName: 'apiserver.crt',
    keyName: 'apiserver.key',
    label: 'serving certificate',
    check: (pair) => {
      const check = checkReusable({ ...pair, caPem: ca.pair.certPem, hosts, now: clock(), renewBeforeMs: SERVING_RENEW_BEFORE_MS });
      return check.reusable ? undefined : check.reason;
    },
    issue: async () => {
      const { issueCertificate } = await issuing();
      return issueCertificate({
        ca: ca.pair,
        commonName: `kapi@${Math.floor(clock().getTime() / 1000)}`,
        usage: 'server',
        hosts,
        validityDays: SERVING_VALIDITY_DAYS,
        clock,
      });
    },
  });
  const reason = ca.reason ?? serving.reason;
  return {
    caCertPem: ca.pair.certPem,
    caKeyPem: ca.pair.keyPem,
    servingCertPem: serving.pair.certPem,
    servingKeyPem: serving.pair.keyPem,
    caFile,
    servingCertFile,
    servingKeyFile,
    generated: { ca: ca.generated, serving: serving.generated, ...(reason === undefined ? {} : { reason }) },
  };
}
