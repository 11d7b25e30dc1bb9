// Certificates for the authentication tests, issued once per test file through the
// same code the server uses (plus an intermediate CA, which kapi itself never issues).
import { X509Certificate } from 'node:crypto';
import { generateKeyPair, importSigningKey } from '../../../src/auth/pki/keys.js';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../../src/auth/pki/issue.js';
import { x509 } from '../../../src/auth/pki/x509-lib.js';

export const NOW = new Date('2030-06-01T00:00:00Z');
export const clock = () => NOW;
const DAY = 24 * 60 * 60 * 1000;

export async function intermediateCa(parent: CertificateAndKey): Promise<CertificateAndKey> {
  const parentCert = new x509.X509Certificate(parent.certPem);
  const signer = await importSigningKey(parent.keyPem);
  const pair = await generateKeyPair();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '0a01',
    subject: [{ CN: ['kapi-intermediate'] }],
    issuer: parentCert.subjectName,
    notBefore: new Date(NOW.getTime() - DAY),
    notAfter: new Date(NOW.getTime() + 30 * DAY),
    publicKey: pair.keys.publicKey,
    signingKey: signer.privateKey,
    signingAlgorithm: signer.algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
      await x509.SubjectKeyIdentifierExtension.create(pair.keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(parentCert.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: pair.privateKeyPem };
}

export interface Fixtures {
  readonly ca: CertificateAndKey;
  /** A different CA with the very same subject name. */
  readonly otherCa: CertificateAndKey;
  readonly intermediate: CertificateAndKey;
  readonly admin: CertificateAndKey;
  readonly multiGroup: CertificateAndKey;
  readonly noGroups: CertificateAndKey;
  readonly fromOtherCa: CertificateAndKey;
  readonly viaIntermediate: CertificateAndKey;
  readonly serverOnly: CertificateAndKey;
  readonly emptyCn: CertificateAndKey;
}

export async function makeFixtures(): Promise<Fixtures> {
  const ca = await createCertificateAuthority({ commonName: 'kapi-ca@test', validityDays: 3650, clock });
  const otherCa = await createCertificateAuthority({ commonName: 'kapi-ca@test', validityDays: 3650, clock });
  const intermediate = await intermediateCa(ca);
  const client = (opts: { ca: CertificateAndKey; commonName: string; organizations: string[] }) =>
    issueCertificate({ ...opts, usage: 'client', validityDays: 365, clock });
  return {
    ca,
    otherCa,
    intermediate,
    admin: await client({ ca, commonName: 'kubernetes-admin', organizations: ['system:masters'] }),
    multiGroup: await client({ ca, commonName: 'jane', organizations: ['dev', 'ops, "quoted"+plus', 'a\nCN=evil'] }),
    noGroups: await client({ ca, commonName: 'bob', organizations: [] }),
    fromOtherCa: await client({ ca: otherCa, commonName: 'kubernetes-admin', organizations: ['system:masters'] }),
    viaIntermediate: await client({ ca: intermediate, commonName: 'carol', organizations: ['team'] }),
    serverOnly: await issueCertificate({ ca, commonName: 'web', usage: 'server', hosts: ['localhost'], validityDays: 365, clock }),
    emptyCn: await client({ ca, commonName: '', organizations: ['x'] }),
  };
}

export const cert = (pair: CertificateAndKey) => new X509Certificate(pair.certPem);
