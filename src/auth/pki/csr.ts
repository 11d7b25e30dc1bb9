// What the certificates API and admission read of a PKCS#10 request: its subject's
// CommonName, as kube's certificates ParseCSR gives it (a PEM block of type
// CERTIFICATE REQUEST; anything else is an error naming what was wrong).
import { x509 } from './x509-lib.js';

const CN_OID = '2.5.4.3';

export function csrCommonName(pem: Buffer): string {
  const text = pem.toString('utf8');
  if (!text.includes('-----BEGIN CERTIFICATE REQUEST-----')) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const csr = new x509.Pkcs10CertificateRequest(text);
  return csr.subjectName.getField(CN_OID)[0] ?? '';
}
