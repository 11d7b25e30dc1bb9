// Service-account tokens as kube-apiserver issues them for TokenRequest
// (`kubectl create token`): JWTs signed with --service-account-signing-key-file
// (ES256 for an EC P-256 key, RS256 for RSA), claims iss, sub, aud, exp, iat,
// nbf, jti and the private `kubernetes.io` claim naming the namespace, the
// account and any bound object. Verification accepts every key of
// --service-account-key-file as well (key rotation), checks issuer, audience and
// time, and leaves the "does the account still exist" check to the authenticator.
// The key id is kube's: base64url(SHA-256(public key DER)), so the JWKS kapi
// publishes matches the `kid` of its tokens.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { createFileExclusiveSync, readIfExistsSync, removeIfUnchangedSync, writeFileAtomicSync } from '../pki/files.js';

/** The claim under which kube keeps what a token is bound to. */
export const KUBERNETES_CLAIM = 'kubernetes.io';

export interface ObjectRefClaim {
  readonly name: string;
  readonly uid: string;
}

export interface ServiceAccountClaims {
  readonly namespace: string;
  readonly serviceaccount: ObjectRefClaim;
  readonly pod?: ObjectRefClaim;
  readonly secret?: ObjectRefClaim;
  readonly node?: ObjectRefClaim;
}

export interface VerifiedToken {
  readonly claims: ServiceAccountClaims;
  readonly jti: string | undefined;
  readonly expiresAt: Date;
}

export interface TokenKeys {
  readonly issuer: string;
  /** What a token must be for to reach this API (--api-audiences; the issuer by default). */
  readonly apiAudiences: readonly string[];
  issue(opts: { claims: ServiceAccountClaims; audiences: readonly string[]; now: Date; expirationSeconds: number; jti: string }): Promise<string>;
  /** undefined: not a token of this issuer (another authenticator may know it). Throws for ours that fail. */
  verify(token: string, now: Date): Promise<VerifiedToken | undefined>;
  /** The public keys as a JWK set (/openid/v1/jwks). */
  jwks(): Promise<{ keys: JWK[] }>;
}

export class TokenError extends Error {
  override readonly name = 'TokenError';
}

interface PublicKey {
  readonly kid: string;
  readonly alg: 'ES256' | 'RS256';
  readonly key: KeyObject;
}

function algorithmOf(key: KeyObject): 'ES256' | 'RS256' {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new TokenError(`service-account keys must be RSA or EC P-256, got ${key.asymmetricKeyType ?? 'unknown'}`);
}

function keyIdOf(key: KeyObject): string {
  return createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** Every public key in a PEM file (public keys, certificates' keys or private keys' public halves). */
export function publicKeysFromPem(pem: string): KeyObject[] {
  const blocks = pem.match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g) ?? [];
  const keys: KeyObject[] = [];
  for (const block of blocks) {
    if (block.includes('CERTIFICATE REQUEST')) continue;
    keys.push(createPublicKey(block));
  }
  return keys;
}

/**
 * The signing key: --service-account-signing-key-file when given, else `sa.key`
 * in the cert dir, generated (EC P-256) on first start and reused after.
 */
export function ensureSigningKeyPem(opts: { certDir: string; signingKeyFile?: string }): string {
  if (opts.signingKeyFile !== undefined) return readFileSync(opts.signingKeyFile, 'utf8');
  const file = join(opts.certDir, 'sa.key');
  mkdirSync(opts.certDir, { recursive: true, mode: 0o700 });
  // Replicas sharing the cert dir may get here at once: one key is published
  // (link-if-absent, never half written) and all of them sign with it, so a token
  // from one replica is accepted by every other.
  for (let round = 0; round < 5; round++) {
    const existing = readIfExistsSync(file);
    if (existing !== undefined) {
      if (isPrivateKeyPem(existing)) {
        ensurePublicKeyFile(opts.certDir, existing);
        return existing;
      }
      // Only a kapi older than atomic writes could have left this (a crash mid-write).
      // Nothing it signed can be verified anyway, so a new key replaces it.
      removeIfUnchangedSync(file, existing);
      continue;
    }
    const { privateKey } = generateKeyPairSync('ec', {
      namedCurve: 'prime256v1',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    createFileExclusiveSync({ path: file, data: privateKey, mode: 0o600 });
  }
  throw new Error(`${file}: no usable service account signing key could be written`);
}

function isPrivateKeyPem(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

/** sa.pub beside the generated key, for other verifiers; derived from the key in use, rewritten when it differs. */
function ensurePublicKeyFile(certDir: string, privateKeyPem: string): void {
  const path = join(certDir, 'sa.pub');
  const publicPem = createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
  if (readIfExistsSync(path) !== publicPem) writeFileAtomicSync({ path, data: publicPem, mode: 0o644 });
}

export function createTokenKeys(opts: {
  issuer: string;
  apiAudiences?: readonly string[];
  signingKeyPem: string;
  /** More keys that verify (--service-account-key-file), beside the signing key's own. */
  extraVerificationPem?: string;
}): TokenKeys {
  const signing = createPrivateKey(opts.signingKeyPem);
  const signingPublic = createPublicKey(signing);
  const alg = algorithmOf(signingPublic);
  const kid = keyIdOf(signingPublic);
  const verifiers = new Map<string, PublicKey>();
  verifiers.set(kid, { kid, alg, key: signingPublic });
  for (const key of publicKeysFromPem(opts.extraVerificationPem ?? '')) {
    const id = keyIdOf(key);
    verifiers.set(id, { kid: id, alg: algorithmOf(key), key });
  }
  const apiAudiences = opts.apiAudiences !== undefined && opts.apiAudiences.length > 0 ? [...opts.apiAudiences] : [opts.issuer];

  return {
    issuer: opts.issuer,
    apiAudiences,
    async issue({ claims, audiences, now, expirationSeconds, jti }) {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ [KUBERNETES_CLAIM]: claims })
        .setProtectedHeader({ alg, kid })
        .setIssuer(opts.issuer)
        .setSubject(`system:serviceaccount:${claims.namespace}:${claims.serviceaccount.name}`)
        .setAudience([...audiences])
        .setIssuedAt(iat)
        .setNotBefore(iat)
        .setExpirationTime(iat + expirationSeconds)
        .setJti(jti)
        .sign(signing);
    },
    async verify(token, now) {
      let payload: JWTPayload;
      let header: { kid?: string; alg?: string };
      try {
        payload = decodeJwt(token);
        header = decodeProtectedHeader(token);
      } catch {
        return undefined; // not a JWT at all
      }
      if (payload.iss !== opts.issuer) return undefined;
      const candidates = header.kid !== undefined && verifiers.has(header.kid) ? [verifiers.get(header.kid)!] : [...verifiers.values()];
      let verified: JWTPayload | undefined;
      let lastError: unknown;
      for (const candidate of candidates) {
        try {
          ({ payload: verified } = await jwtVerify(token, candidate.key, {
            issuer: opts.issuer,
            audience: apiAudiences,
            algorithms: [candidate.alg],
            currentDate: now,
          }));
          break;
        } catch (err) {
          lastError = err;
        }
      }
      if (verified === undefined) {
        const code = (lastError as { code?: string } | undefined)?.code;
        if (code === 'ERR_JWT_EXPIRED') throw new TokenError('service account token has expired');
        if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') throw new TokenError('token audiences do not match the API audiences');
        throw new TokenError('invalid bearer token');
      }
      const claims = verified[KUBERNETES_CLAIM] as ServiceAccountClaims | undefined;
      if (claims?.namespace === undefined || claims.serviceaccount?.name === undefined || claims.serviceaccount.uid === undefined) {
        throw new TokenError('token lacks the kubernetes.io service account claims');
      }
      if (verified.sub !== `system:serviceaccount:${claims.namespace}:${claims.serviceaccount.name}`) {
        throw new TokenError('token subject does not match its service account claims');
      }
      return { claims, jti: verified.jti, expiresAt: new Date((verified.exp ?? 0) * 1000) };
    },
    async jwks() {
      const keys: JWK[] = [];
      for (const v of verifiers.values()) keys.push({ ...(await exportJWK(v.key)), kid: v.kid, alg: v.alg, use: 'sig' });
      return { keys };
    },
  };
}
