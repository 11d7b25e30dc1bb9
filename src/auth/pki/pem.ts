// PEM helpers that need only node:crypto, so the request path (client-certificate
// authentication) can use them without loading the X.509 generation library.
import { X509Certificate } from 'node:crypto';

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Every certificate in a PEM bundle, in file order. A CA file (`--client-ca-file`)
 * may hold several roots; text outside the blocks (comments) is ignored, as Go's
 * pem decoder does. Throws when there is no certificate at all.
 */
export function parseCertificateBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) throw new Error('no PEM certificate found');
  return blocks.map((block) => new X509Certificate(block));
}

/** DER bytes to a PEM block with 64-column lines (RFC 7468). */
export function toPem(label: string, der: Uint8Array): string {
  const base64 = Buffer.from(der).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
