// The server's own PKI, made on first start and reused afterwards: a CA that signs
// the serving certificate and the admin client certificate (and, by default, is the
// client CA x509 authentication trusts). main.ts calls ensurePki once before it
// listens, unless --tls-cert-file/--tls-private-key-file supply the serving pair.
// Layout in the cert dir: ca.crt, ca.key, apiserver.crt, apiserver.key (keys 0600).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readIfExists, writeFileAtomic } from './files.js';
import { checkReusable, hostKey } from './inspect.js';
import type { CertificateAndKey, Clock } from './issue.js';

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

async function writePair(opts: { certFile: string; keyFile: string; pair: CertificateAndKey }): Promise<void> {
  // Key first: a crash between the two writes leaves a certificate that no longer
  // matches its key, which the next start detects and regenerates.
  await writeFileAtomic({ path: opts.keyFile, data: opts.pair.keyPem, mode: 0o600 });
  await writeFileAtomic({ path: opts.certFile, data: opts.pair.certPem, mode: 0o644 });
}

export class PkiError extends Error {
  override readonly name = 'PkiError';
}

async function ensureCa(opts: { dir: string; clock: Clock }): Promise<{ pair: CertificateAndKey; generated: boolean; reason?: string }> {
  const certFile = join(opts.dir, 'ca.crt');
  const keyFile = join(opts.dir, 'ca.key');
  const [certPem, keyPem] = await Promise.all([readIfExists(certFile), readIfExists(keyFile)]);
  if (certPem !== undefined && keyPem === undefined) {
    // Someone placed a CA without its key; replacing it would silently break every
    // client certificate it issued.
    throw new PkiError(`${certFile} exists but ${keyFile} does not; supply the key or remove the certificate`);
  }
  let reason = 'no CA yet';
  if (certPem !== undefined && keyPem !== undefined) {
    const check = checkReusable({ certPem, keyPem, now: opts.clock(), renewBeforeMs: 0 });
    if (check.reusable) return { pair: { certPem, keyPem }, generated: false };
    reason = `CA ${check.reason}`;
  }
  const commonName = `kapi-ca@${Math.floor(opts.clock().getTime() / 1000)}`;
  const { createCertificateAuthority } = await issuing();
  const pair = await createCertificateAuthority({ commonName, validityDays: CA_VALIDITY_DAYS, clock: opts.clock });
  await writePair({ certFile, keyFile, pair });
  return { pair, generated: true, reason };
}

export async function ensurePki(opts: EnsurePkiOptions): Promise<Pki> {
  const clock = opts.clock ?? (() => new Date());
  await mkdir(opts.dir, { recursive: true, mode: 0o700 });
  const ca = await ensureCa({ dir: opts.dir, clock });
  const caFile = join(opts.dir, 'ca.crt');
  const servingCertFile = join(opts.dir, 'apiserver.crt');
  const servingKeyFile = join(opts.dir, 'apiserver.key');
  const hosts = servingHosts(opts.hosts);

  const [certPem, keyPem] = await Promise.all([readIfExists(servingCertFile), readIfExists(servingKeyFile)]);
  let servingReason: string | undefined = 'no serving certificate yet';
  if (certPem !== undefined && keyPem !== undefined) {
    const check = checkReusable({ certPem, keyPem, caPem: ca.pair.certPem, hosts, now: clock(), renewBeforeMs: SERVING_RENEW_BEFORE_MS });
    servingReason = check.reusable ? undefined : `serving certificate ${check.reason}`;
  }
  let serving: CertificateAndKey;
  if (servingReason === undefined) {
    serving = { certPem: certPem!, keyPem: keyPem! };
  } else {
    const { issueCertificate } = await issuing();
    serving = await issueCertificate({
      ca: ca.pair,
      commonName: `kapi@${Math.floor(clock().getTime() / 1000)}`,
      usage: 'server',
      hosts,
      validityDays: SERVING_VALIDITY_DAYS,
      clock,
    });
    await writePair({ certFile: servingCertFile, keyFile: servingKeyFile, pair: serving });
  }
  const reason = ca.reason ?? servingReason;
  return {
    caCertPem: ca.pair.certPem,
    caKeyPem: ca.pair.keyPem,
    servingCertPem: serving.certPem,
    servingKeyPem: serving.keyPem,
    caFile,
    servingCertFile,
    servingKeyFile,
    generated: { ca: ca.generated, serving: servingReason !== undefined, ...(reason === undefined ? {} : { reason }) },
  };
}
