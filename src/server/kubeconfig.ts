// The admin kubeconfig (`<data-dir>/admin.kubeconfig`) main.ts writes at every
// start, so `export KUBECONFIG=$PWD/data/admin.kubeconfig` always works: the CA
// that signed the serving certificate, the server URL, and a client certificate
// CN=kubernetes-admin, O=system:masters (allowed everything by the
// privileged-group authorizer). The client certificate is reused while valid so
// copies of the file held elsewhere keep working across restarts.
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { dirname } from 'node:path';
import yaml from 'js-yaml';
import { writeFileAtomic } from '../auth/pki/files.js';
import { checkReusable } from '../auth/pki/inspect.js';
import type { CertificateAndKey, Clock } from '../auth/pki/issue.js';

export const ADMIN_USER = 'kubernetes-admin';
export const ADMIN_GROUP = 'system:masters';
const DAY_MS = 24 * 60 * 60 * 1000;
export const ADMIN_CERT_VALIDITY_DAYS = 365;
/** An admin certificate this close to expiry is replaced at start. */
export const ADMIN_CERT_RENEW_BEFORE_MS = 30 * DAY_MS;

export interface KubeconfigContent {
  readonly serverUrl: string;
  readonly caPem: string;
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
  readonly clusterName?: string;
  readonly userName?: string;
  /** Default `<user>@<cluster>`, kubeadm's convention. */
  readonly contextName?: string;
}

export interface WriteAdminKubeconfigOptions extends KubeconfigContent {
  readonly path: string;
}

const b64 = (pem: string) => Buffer.from(pem, 'utf8').toString('base64');

/** The kubeconfig text (YAML, kubectl's own layout); pure. */
export function kubeconfigYaml(opts: KubeconfigContent): string {
  const cluster = opts.clusterName ?? 'kapi';
  const user = opts.userName ?? ADMIN_USER;
  const context = opts.contextName ?? `${user}@${cluster}`;
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ cluster: { 'certificate-authority-data': b64(opts.caPem), server: opts.serverUrl }, name: cluster }],
    contexts: [{ context: { cluster, user }, name: context }],
    'current-context': context,
    preferences: {},
    users: [{ name: user, user: { 'client-certificate-data': b64(opts.clientCertPem), 'client-key-data': b64(opts.clientKeyPem) } }],
  };
  // lineWidth -1: base64 data stays on one line instead of being folded.
  return yaml.dump(config, { lineWidth: -1, noRefs: true });
}

/** Written atomically with mode 0600: it holds a cluster-admin private key. */
export async function writeAdminKubeconfig(opts: WriteAdminKubeconfigOptions): Promise<void> {
  await mkdir(dirname(opts.path), { recursive: true, mode: 0o700 });
  await writeFileAtomic({ path: opts.path, data: kubeconfigYaml(opts), mode: 0o600 });
}

/**
 * The URL a local client dials: a wildcard bind address is reachable on loopback
 * (and is not in the serving certificate); IPv6 goes in brackets.
 */
export function serverUrlFor(opts: { bindAddress: string; port: number }): string {
  let host = opts.bindAddress;
  if (host === '0.0.0.0' || host === '') host = '127.0.0.1';
  else if (host === '::') host = '::1';
  return `https://${isIP(host) === 6 ? `[${host}]` : host}:${opts.port}`;
}

/** The admin client certificate of an existing kubeconfig, if the file holds one. */
async function existingClientCert(opts: { path: string; userName: string }): Promise<CertificateAndKey | undefined> {
  let text: string;
  try {
    text = await readFile(opts.path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const config = yaml.load(text) as { users?: Array<{ name?: string; user?: Record<string, unknown> }> } | undefined;
    const entry = config?.users?.find((u) => u.name === opts.userName)?.user;
    const cert = entry?.['client-certificate-data'];
    const key = entry?.['client-key-data'];
    if (typeof cert !== 'string' || typeof key !== 'string') return undefined;
    return { certPem: Buffer.from(cert, 'base64').toString('utf8'), keyPem: Buffer.from(key, 'base64').toString('utf8') };
  } catch {
    // A hand-edited or damaged file is simply replaced; it is ours and rewritten each start.
    return undefined;
  }
}

function isAdminCert(certPem: string, userName: string): boolean {
  const subject = new X509Certificate(certPem).toLegacyObject().subject as unknown as Record<string, string | string[] | undefined>;
  const orgs = ([] as string[]).concat(subject['O'] ?? []);
  return subject['CN'] === userName && orgs.includes(ADMIN_GROUP);
}

export interface EnsureAdminKubeconfigOptions {
  readonly path: string;
  readonly serverUrl: string;
  /** The CA clients trust for the serving certificate. */
  readonly caPem: string;
  /** The CA that signs the admin client certificate (x509 authentication must trust it). */
  readonly signer: CertificateAndKey;
  readonly clock?: Clock;
}

export interface EnsureAdminKubeconfigResult {
  readonly path: string;
  /** False when a new admin client certificate was issued. */
  readonly reusedClientCert: boolean;
}

export async function ensureAdminKubeconfig(opts: EnsureAdminKubeconfigOptions): Promise<EnsureAdminKubeconfigResult> {
  const clock = opts.clock ?? (() => new Date());
  const existing = await existingClientCert({ path: opts.path, userName: ADMIN_USER });
  const reusable =
    existing !== undefined &&
    checkReusable({ ...existing, caPem: opts.signer.certPem, now: clock(), renewBeforeMs: ADMIN_CERT_RENEW_BEFORE_MS }).reusable &&
    isAdminCert(existing.certPem, ADMIN_USER);
  // Loaded only when issuing (see ensure-pki.ts): the X.509 library is a slow import.
  const client = reusable
    ? existing
    : await (await import('../auth/pki/issue.js')).issueClientCertificate({ ca: opts.signer, commonName: ADMIN_USER, organizations: [ADMIN_GROUP], validityDays: ADMIN_CERT_VALIDITY_DAYS, clock });
  await writeAdminKubeconfig({ path: opts.path, serverUrl: opts.serverUrl, caPem: opts.caPem, clientCertPem: client.certPem, clientKeyPem: client.keyPem });
  return { path: opts.path, reusedClientCert: reusable };
}
