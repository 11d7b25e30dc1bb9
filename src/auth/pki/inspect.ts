// Checks on existing certificates, with node:crypto only: whether a certificate on
// disk can be reused (right issuer, matching key, valid long enough, SANs cover
// the hosts asked for). Each check answers with a reason so the caller can log why
// it regenerated.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/** node:crypto prints dates as `Jan  1 00:00:00 2025 GMT`, which Date parses. */
export function notBeforeOf(cert: X509Certificate): Date {
  return new Date(cert.validFrom);
}

export function notAfterOf(cert: X509Certificate): Date {
  return new Date(cert.validTo);
}

/**
 * One spelling per address, so `::1` and `0:0:0:0:0:0:0:1` (OpenSSL's form) compare
 * equal; the WHATWG URL parser canonicalizes both families.
 */
export function canonicalIp(ip: string): string {
  return isIP(ip) === 6 ? new URL(`http://[${ip}]`).hostname : new URL(`http://${ip}`).hostname;
}

/** The certificate's SANs as a set of `dns:<name>` and `ip:<canonical address>`. */
export function subjectAltNames(cert: X509Certificate): Set<string> {
  const names = new Set<string>();
  // Our own hosts never contain ", ", so the printed form splits safely.
  for (const entry of (cert.subjectAltName ?? '').split(', ')) {
    if (entry.startsWith('DNS:')) names.add(`dns:${entry.slice(4).toLowerCase()}`);
    else if (entry.startsWith('IP Address:')) names.add(`ip:${canonicalIp(entry.slice(11))}`);
  }
  return names;
}

export function hostKey(host: string): string {
  return isIP(host) === 0 ? `dns:${host.toLowerCase()}` : `ip:${canonicalIp(host)}`;
}

export interface ReuseCheckOptions {
  readonly certPem: string;
  readonly keyPem: string;
  /** The CA that must have issued it; omitted for the CA itself (self-signed). */
  readonly caPem?: string;
  /** Hosts its SANs must cover. */
  readonly hosts?: readonly string[];
  readonly now: Date;
  /** Treat the certificate as unusable when it expires within this window. */
  readonly renewBeforeMs: number;
}

export type ReuseCheck = { readonly reusable: true } | { readonly reusable: false; readonly reason: string };

export function checkReusable(opts: ReuseCheckOptions): ReuseCheck {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(opts.certPem);
    if (!cert.checkPrivateKey(createPrivateKey(opts.keyPem))) return { reusable: false, reason: 'key does not match certificate' };
  } catch (err) {
    return { reusable: false, reason: `unreadable: ${(err as Error).message}` };
  }
  const issuer = new X509Certificate(opts.caPem ?? opts.certPem);
  if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) return { reusable: false, reason: 'not issued by the CA' };
  const now = opts.now.getTime();
  if (now < notBeforeOf(cert).getTime()) return { reusable: false, reason: 'not yet valid' };
  if (now + opts.renewBeforeMs >= notAfterOf(cert).getTime()) return { reusable: false, reason: 'expires soon' };
  const have = subjectAltNames(cert);
  const missing = (opts.hosts ?? []).filter((host) => !have.has(hostKey(host)));
  if (missing.length > 0) return { reusable: false, reason: `SANs do not cover ${missing.join(', ')}` };
  return { reusable: true };
}
