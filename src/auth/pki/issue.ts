// Certificate issuance: a self-signed CA, and leaf certificates (serving, client)
// signed by it. Extensions follow what Go's crypto/x509 verifier and kube's own
// certificate helpers expect: CA with basicConstraints + keyCertSign, leaves with
// an extended key usage (serverAuth or clientAuth) and, for serving, SANs (Go
// ignores the CN for hostname checks).
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { x509 } from './x509-lib.js';
import { generateKeyPair, importSigningKey } from './keys.js';

export type Clock = () => Date;

export interface CertificateAndKey {
  readonly certPem: string;
  readonly keyPem: string;
}

/** Certificates start a little in the past so a peer whose clock lags still accepts them. */
const BACKDATE_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** 16 random bytes, first byte 0x01..0x7f: positive and minimally DER-encoded, as Go demands. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! % 0x7f) + 1;
  return bytes.toString('hex');
}

function validity(clock: Clock, days: number): { notBefore: Date; notAfter: Date } {
  const now = clock().getTime();
  return { notBefore: new Date(now - BACKDATE_MS), notAfter: new Date(now + days * DAY_MS) };
}

/**
 * A subject name. Values are given as explicit UTF8Strings: the library parses
 * plain strings as RFC 4514 text, which would split a group like `a,b` or `a+b`.
 * O before CN as Go's pkix.Name writes it, one RDN per O so group order survives
 * (a multi-valued RDN is a DER SET, which sorts its members).
 */
/** The subject attribute kube-apiserver reads a certificate user's uid from (asn1util.X509UID). */
export const X509_UID_OID = '1.3.6.1.4.1.57683.2';

function nameOf(opts: { commonName: string; organizations: readonly string[]; uids?: readonly string[] }): InstanceType<typeof x509.Name> {
  const rdns: Array<Record<string, Array<{ utf8String: string }>>> = opts.organizations.map((o) => ({ O: [{ utf8String: o }] }));
  for (const uid of opts.uids ?? []) rdns.push({ [X509_UID_OID]: [{ utf8String: uid }] });
  rdns.push({ CN: [{ utf8String: opts.commonName }] });
  return new x509.Name(rdns);
}

export interface CreateCaOptions {
  readonly commonName: string;
  readonly validityDays: number;
  readonly clock: Clock;
}

export async function createCertificateAuthority(opts: CreateCaOptions): Promise<CertificateAndKey> {
  const pair = await generateKeyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: nameOf({ commonName: opts.commonName, organizations: [] }),
    ...validity(opts.clock, opts.validityDays),
    keys: pair.keys,
    signingAlgorithm: pair.algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(pair.keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: pair.privateKeyPem };
}

export type CertificateUsage = 'server' | 'client';

export interface IssueCertificateOptions {
  readonly ca: CertificateAndKey;
  readonly commonName: string;
  readonly organizations?: readonly string[];
  /** Subject attributes 1.3.6.1.4.1.57683.2: the user's uid (one; more only to test kube's refusal). */
  readonly uids?: readonly string[];
  readonly usage: CertificateUsage;
  /** DNS names and IP addresses for the SAN extension (serving certificates). */
  readonly hosts?: readonly string[];
  readonly validityDays: number;
  readonly clock: Clock;
}

export async function issueCertificate(opts: IssueCertificateOptions): Promise<CertificateAndKey> {
  const caCert = new x509.X509Certificate(opts.ca.certPem);
  const signer = await importSigningKey(opts.ca.keyPem);
  const pair = await generateKeyPair();
  const subject = nameOf({ commonName: opts.commonName, organizations: opts.organizations ?? [], uids: opts.uids ?? [] });
  const extensions: InstanceType<typeof x509.Extension>[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension(
      [opts.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth],
      false,
    ),
    await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
  ];
  const hosts = opts.hosts ?? [];
  if (hosts.length > 0) {
    const names = hosts.map((host) => ({ type: isIP(host) === 0 ? ('dns' as const) : ('ip' as const), value: host }));
    extensions.push(new x509.SubjectAlternativeNameExtension(names, false));
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject,
    issuer: caCert.subjectName,
    ...validity(opts.clock, opts.validityDays),
    publicKey: pair.keys.publicKey,
    signingKey: signer.privateKey,
    signingAlgorithm: signer.algorithm,
    extensions,
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: pair.privateKeyPem };
}

export interface IssueClientCertificateOptions {
  readonly ca: CertificateAndKey;
  /** Becomes the user name (x509 authentication maps CN to the user). */
  readonly commonName: string;
  /** Each becomes a group. */
  readonly organizations: readonly string[];
  readonly validityDays: number;
  readonly clock?: Clock;
}

export function issueClientCertificate(opts: IssueClientCertificateOptions): Promise<CertificateAndKey> {
  return issueCertificate({ ...opts, usage: 'client', clock: opts.clock ?? (() => new Date()) });
}
