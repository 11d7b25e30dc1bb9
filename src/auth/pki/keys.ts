// Key pairs for the certificates kapi issues. ECDSA P-256: key generation takes
// milliseconds where RSA-2048 takes a few hundred, which matters for the cold start
// budget (1.5 s), and every TLS stack kubectl and client-go use accepts it.
// A CA key supplied by the user may also be RSA or another NIST curve; we sign with
// whatever it is.
import { createPrivateKey, type webcrypto } from 'node:crypto';
import { subtle } from './x509-lib.js';
import { toPem } from './pem.js';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

/** The WebCrypto algorithm a key signs with; also the certificate's signature algorithm. */
export type SigningAlgorithm =
  | { readonly name: 'ECDSA'; readonly namedCurve: 'P-256' | 'P-384' | 'P-521'; readonly hash: 'SHA-256' | 'SHA-384' | 'SHA-512' }
  | { readonly name: 'RSASSA-PKCS1-v1_5'; readonly hash: 'SHA-256' };

export const DEFAULT_ALGORITHM: SigningAlgorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

export interface KeyPair {
  readonly keys: CryptoKeyPair;
  readonly algorithm: SigningAlgorithm;
  /** PKCS#8 `PRIVATE KEY` PEM, what Node's tls and Go's tls.X509KeyPair both load. */
  readonly privateKeyPem: string;
}

export async function generateKeyPair(): Promise<KeyPair> {
  const keys = (await subtle.generateKey(DEFAULT_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const der = new Uint8Array(await subtle.exportKey('pkcs8', keys.privateKey));
  return { keys, algorithm: DEFAULT_ALGORITHM, privateKeyPem: toPem('PRIVATE KEY', der) };
}

const CURVES: Readonly<Record<string, { namedCurve: 'P-256' | 'P-384' | 'P-521'; hash: 'SHA-256' | 'SHA-384' | 'SHA-512' }>> = {
  prime256v1: { namedCurve: 'P-256', hash: 'SHA-256' },
  secp384r1: { namedCurve: 'P-384', hash: 'SHA-384' },
  secp521r1: { namedCurve: 'P-521', hash: 'SHA-512' },
};

export interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly algorithm: SigningAlgorithm;
}

/**
 * Loads a PEM private key (PKCS#8, or the `EC PRIVATE KEY` / `RSA PRIVATE KEY` forms
 * openssl and Go write) for signing. Throws for key types we cannot sign with.
 */
export async function importSigningKey(pem: string): Promise<SigningKey> {
  const key = createPrivateKey(pem);
  const der = key.export({ type: 'pkcs8', format: 'der' });
  let algorithm: SigningAlgorithm;
  if (key.asymmetricKeyType === 'ec') {
    const curve = CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''];
    if (curve === undefined) throw new Error(`unsupported EC curve ${key.asymmetricKeyDetails?.namedCurve ?? '?'}`);
    algorithm = { name: 'ECDSA', ...curve };
  } else if (key.asymmetricKeyType === 'rsa') {
    algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  } else {
    throw new Error(`unsupported key type ${key.asymmetricKeyType ?? '?'}`);
  }
  const privateKey = await subtle.importKey('pkcs8', der, algorithm, false, ['sign']);
  return { privateKey, algorithm };
}
