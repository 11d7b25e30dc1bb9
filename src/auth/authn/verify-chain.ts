// Client certificate chain verification with node:crypto, following what Go's
// x509.Certificate.Verify checks for kube-apiserver's x509 authenticator: a path
// from the leaf through the presented intermediates to one of the client CA
// roots, every signature valid, every certificate inside its validity period at
// the (injected) current time, every issuer a CA, and no certificate on the path
// whose extended key usage excludes client authentication.
import type { X509Certificate } from 'node:crypto';
import { AuthenticationError } from './authenticator.js';

const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const EKU_ANY = '2.5.29.37.0';
/** Go's limit on intermediates is generous; real chains are one or two deep. */
const MAX_DEPTH = 8;

export interface VerifyChainOptions {
  readonly leaf: X509Certificate;
  /** Candidates the client sent beside the leaf; not trusted by themselves. */
  readonly intermediates: readonly X509Certificate[];
  readonly roots: readonly X509Certificate[];
  readonly now: Date;
}

export interface VerifiedChain {
  /** Leaf first, root last. */
  readonly chain: readonly X509Certificate[];
  /** The window in which every certificate of the chain is valid: a verification may be reused inside it. */
  readonly notBefore: Date;
  readonly notAfter: Date;
}

function isCurrent(cert: X509Certificate, now: Date): boolean {
  const t = now.getTime();
  return t >= new Date(cert.validFrom).getTime() && t <= new Date(cert.validTo).getTime();
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  // checkIssued matches names and key identifiers; verify checks the signature.
  return issuer.ca && cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

function allowsClientAuth(cert: X509Certificate): boolean {
  // node:crypto's `keyUsage` is the extended key usage list; undefined = no limit.
  const usages = cert.keyUsage;
  return usages === undefined || usages.includes(EKU_CLIENT_AUTH) || usages.includes(EKU_ANY);
}

function findPath(opts: VerifyChainOptions, path: X509Certificate[]): X509Certificate[] | undefined {
  const current = path[path.length - 1]!;
  for (const root of opts.roots) {
    if (isCurrent(root, opts.now) && signedBy(current, root)) return [...path, root];
  }
  if (path.length > MAX_DEPTH) return undefined;
  for (const candidate of opts.intermediates) {
    if (path.includes(candidate) || !isCurrent(candidate, opts.now) || !signedBy(current, candidate)) continue;
    const found = findPath(opts, [...path, candidate]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Throws AuthenticationError with Go's wording for the first problem found. */
export function verifyClientChain(opts: VerifyChainOptions): VerifiedChain {
  const { leaf, now } = opts;
  if (!isCurrent(leaf, now)) {
    const expired = now.getTime() > new Date(leaf.validTo).getTime();
    const bound = expired ? `is after ${new Date(leaf.validTo).toISOString()}` : `is before ${new Date(leaf.validFrom).toISOString()}`;
    throw new AuthenticationError(`x509: certificate has expired or is not yet valid: current time ${now.toISOString()} ${bound}`);
  }
  const chain = findPath(opts, [leaf]);
  if (chain === undefined) throw new AuthenticationError('x509: certificate signed by unknown authority');
  if (!chain.every(allowsClientAuth)) throw new AuthenticationError('x509: certificate specifies an incompatible key usage');
  const notBefore = Math.max(...chain.map((c) => new Date(c.validFrom).getTime()));
  const notAfter = Math.min(...chain.map((c) => new Date(c.validTo).getTime()));
  return { chain, notBefore: new Date(notBefore), notAfter: new Date(notAfter) };
}
