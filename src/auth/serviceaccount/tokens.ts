// Service-account tokens as kube-apiserver issues them for TokenRequest
// (`kubectl create token`): JWTs signed with --service-account-signing-key-file
// (ES256 for an EC P-256 key, RS256 for RSA), claims iss, sub, aud, exp, iat,
// nbf, jti and the private `kubernetes.io` claim naming the namespace, the
// account and any bound object. Verification accepts every key of
// --service-account-key-file as well (key rotation), checks issuer and time (with
// go-jose's one-minute leeway, as kube does), and leaves the audience (which
// depends on the request: tokenAudiences) and the "does the account still exist"
// check to the authenticator.
// The key id is kube's: base64url(SHA-256(public key DER)), so the JWKS kapi
// publishes matches the `kid` of its tokens.
// Legacy tokens (the `token` of kubernetes.io/service-account-token Secrets, made by
// the serviceaccount-token-controller) are kube's LegacyClaims: issuer
// `kubernetes/serviceaccount`, no audience and no expiry, and four flat private
// claims naming the namespace, the account (name and uid) and the Secret.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, compactVerify, decodeJwt, decodeProtectedHeader, exportJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { createFileExclusiveSync, readIfExistsSync, removeIfUnchangedSync, writeFileAtomicSync } from '../pki/files.js';

/** jwt.DefaultLeeway of go-jose, in seconds: exp, nbf and iat are judged with this much slack. */
const JWT_LEEWAY_SECONDS = 60;

/** The claim under which kube keeps what a token is bound to. */
export const KUBERNETES_CLAIM = 'kubernetes.io';

/** The issuer of legacy (Secret-held) tokens (pkg/serviceaccount LegacyIssuer). */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';

/** kube's legacyPrivateClaims' JSON names. */
export const LEGACY_CLAIMS = {
  namespace: 'kubernetes.io/serviceaccount/namespace',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUid: 'kubernetes.io/serviceaccount/service-account.uid',
} as const;

/** What a legacy token says; '' for a claim that is absent or not a string (the validator names it missing). */
export interface LegacyClaims {
  readonly subject: string;
  readonly namespace: string;
  readonly secretName: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUid: string;
}

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
  /** The token's `aud`, in its order; judged per request against the audiences asked for (tokenAudiences). */
  readonly audiences: readonly string[];
}

export interface TokenKeys {
  readonly issuer: string;
  /** What a token must be for to reach this API (--api-audiences; the issuer by default). */
  readonly apiAudiences: readonly string[];
  issue(opts: { claims: ServiceAccountClaims; audiences: readonly string[]; now: Date; expirationSeconds: number; jti: string }): Promise<string>;
  /**
   * undefined: not a token of this issuer (another authenticator may know it).
   * Throws for ours whose signature or times fail. The audiences are not judged
   * here: what a token must be for depends on the request (a TokenReview names
   * its own), while this answer is cached by token (see tokenAudiences).
   */
  verify(token: string, now: Date): Promise<VerifiedToken | undefined>;
  /** A legacy token for a Secret of the account (the token controller's signer). */
  issueLegacy(claims: Omit<LegacyClaims, 'subject'>): Promise<string>;
  /**
   * undefined: not a legacy token. Throws for a legacy token whose signature or
   * audiences fail; claims are not judged here (the authenticator's validator does).
   */
  verifyLegacy(token: string): Promise<LegacyClaims | undefined>;
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
            algorithms: [candidate.alg],
            currentDate: now,
            // go-jose's Claims.Validate, which kube's validator calls, allows jwt.DefaultLeeway.
            clockTolerance: JWT_LEEWAY_SECONDS,
          }));
          break;
        } catch (err) {
          lastError = err;
        }
      }
      if (verified === undefined) {
        const code = (lastError as { code?: string } | undefined)?.code;
        if (code === 'ERR_JWT_EXPIRED') throw new TokenError('service account token has expired');
        const claim = (lastError as { claim?: string } | undefined)?.claim;
        if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'nbf') throw new TokenError('service account token is not valid yet');
        throw new TokenError('invalid bearer token');
      }
      // kube's validateSATimes: a token without exp has expired; one issued past the leeway ahead is refused.
      if (typeof verified.exp !== 'number') throw new TokenError('service account token has expired');
      if (typeof verified.iat === 'number' && verified.iat > now.getTime() / 1000 + JWT_LEEWAY_SECONDS) throw new TokenError('service account token is issued in the future');
      const claims = boundClaims(verified[KUBERNETES_CLAIM]);
      if (claims === undefined) throw new TokenError('token lacks the kubernetes.io service account claims');
      if (verified.sub !== `system:serviceaccount:${claims.namespace}:${claims.serviceaccount.name}`) {
        throw new TokenError('token subject does not match its service account claims');
      }
      return { claims, jti: verified.jti, expiresAt: new Date(verified.exp * 1000), audiences: audiencesOf(verified.aud) };
    },
    async issueLegacy(c) {
      // Go marshals the merged claims as a map, so keys come out sorted; so do ours.
      const payload = {
        iss: LEGACY_ISSUER,
        [LEGACY_CLAIMS.namespace]: c.namespace,
        [LEGACY_CLAIMS.secretName]: c.secretName,
        [LEGACY_CLAIMS.serviceAccountName]: c.serviceAccountName,
        [LEGACY_CLAIMS.serviceAccountUid]: c.serviceAccountUid,
        sub: `system:serviceaccount:${c.namespace}:${c.serviceAccountName}`,
      };
      return new SignJWT(payload).setProtectedHeader({ alg, kid }).sign(signing);
    },
    async verifyLegacy(token) {
      const parts = token.split('.');
      if (parts.length !== 3 || unverifiedIssuer(parts[1]!) !== LEGACY_ISSUER) return undefined;
      let kidHint: string | undefined;
      try {
        const header = decodeProtectedHeader(token);
        kidHint = typeof header.kid === 'string' && header.kid !== '' ? header.kid : undefined;
      } catch {
        return undefined; // kube: a token go-jose cannot parse is no answer
      }
      // kube's static key getter: a named key id picks that key only, none picks all.
      const candidates = kidHint === undefined ? [...verifiers.values()] : verifiers.has(kidHint) ? [verifiers.get(kidHint)!] : [];
      if (candidates.length === 0) throw new TokenError('invalid signature, no keys found');
      let payload: Uint8Array | undefined;
      for (const candidate of candidates) {
        try {
          ({ payload } = await compactVerify(token, candidate.key, { algorithms: [candidate.alg] }));
          break;
        } catch {
          // the next key may be the one (rotation)
        }
      }
      if (payload === undefined) throw new TokenError('go-jose/go-jose: error in cryptographic primitive');
      const claims = parseObject(Buffer.from(payload).toString('utf8'));
      if (claims === undefined) throw new TokenError('invalid bearer token');
      // kube: a token naming audiences must name one of the API's (legacy ones name none).
      const audiences = audiencesOf(claims['aud']);
      if (audiences.length > 0 && !audiences.some((a) => apiAudiences.includes(a))) {
        throw new TokenError(`token audiences ${goQuoted(audiences)} is invalid for the target audiences ${goQuoted(apiAudiences)}`);
      }
      return {
        subject: stringClaim(claims, 'sub'),
        namespace: stringClaim(claims, LEGACY_CLAIMS.namespace),
        secretName: stringClaim(claims, LEGACY_CLAIMS.secretName),
        serviceAccountName: stringClaim(claims, LEGACY_CLAIMS.serviceAccountName),
        serviceAccountUid: stringClaim(claims, LEGACY_CLAIMS.serviceAccountUid),
      };
    },
    async jwks() {
      const keys: JWK[] = [];
      for (const v of verifiers.values()) keys.push({ ...(await exportJWK(v.key)), kid: v.kid, alg: v.alg, use: 'sig' });
      return { keys };
    },
  };
}

/** A JSON object, or undefined for anything else (the payload is client bytes until verified). */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The `iss` of an unverified payload (kube's hasCorrectIssuer); undefined when it has none. */
function unverifiedIssuer(payloadPart: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(payloadPart)) return undefined;
  const iss = parseObject(Buffer.from(payloadPart, 'base64url').toString('utf8'))?.['iss'];
  return typeof iss === 'string' ? iss : undefined;
}

/** An own string member, '' otherwise (`__proto__` or a number is no claim). */
function stringClaim(obj: Record<string, unknown>, key: string): string {
  const value = Object.hasOwn(obj, key) ? obj[key] : undefined;
  return typeof value === 'string' ? value : '';
}

/**
 * The `aud` claim as go-jose's jwt.Audience reads it (kube's claims type): absent is
 * none, a string is a list of that one string (`""` too, which meets no audience),
 * an array must hold only strings. Anything else (null included: Go's decoder hands
 * it to Audience.UnmarshalJSON, which refuses it) fails the token's claims.
 */
function audiencesOf(aud: unknown): string[] {
  if (aud === undefined) return [];
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud as string[];
  throw new TokenError('go-jose/go-jose/jwt: expected string or array value to unmarshal to Audience');
}

/**
 * kube's JWT authenticator's audience rule: the token's audiences that the
 * request asks for (TokenReview's spec.audiences; the API audiences otherwise),
 * in the token's order; none is a refusal. A token naming no audience (legacy
 * ones) counts as naming the API audiences.
 */
export function tokenAudiences(tokenAuds: readonly string[], requested: readonly string[], apiAudiences: readonly string[]): string[] {
  const own = tokenAuds.length > 0 ? tokenAuds : apiAudiences;
  const auds = own.filter((a) => requested.includes(a));
  if (auds.length === 0) throw new TokenError(`token audiences ${goQuoted(own)} is invalid for the target audiences ${goQuoted(requested)}`);
  return auds;
}

/** Go's %q of a []string: `["a" "b"]`. */
function goQuoted(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

function refClaim(value: unknown): ObjectRefClaim | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const ref = value as Record<string, unknown>;
  const name = Object.hasOwn(ref, 'name') ? ref['name'] : undefined;
  const uid = Object.hasOwn(ref, 'uid') ? ref['uid'] : undefined;
  return typeof name === 'string' && typeof uid === 'string' ? { name, uid } : undefined;
}

/**
 * The `kubernetes.io` claim of a verified token, with every member type-checked:
 * only our key signs these, but what reaches a storage lookup is a string, always.
 */
function boundClaims(value: unknown): ServiceAccountClaims | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const c = value as Record<string, unknown>;
  const namespace = Object.hasOwn(c, 'namespace') ? c['namespace'] : undefined;
  const serviceaccount = refClaim(Object.hasOwn(c, 'serviceaccount') ? c['serviceaccount'] : undefined);
  if (typeof namespace !== 'string' || serviceaccount === undefined) return undefined;
  const claims: { -readonly [K in keyof ServiceAccountClaims]: ServiceAccountClaims[K] } = { namespace, serviceaccount };
  for (const kind of ['pod', 'secret', 'node'] as const) {
    if (!Object.hasOwn(c, kind) || c[kind] === undefined || c[kind] === null) continue;
    const ref = refClaim(c[kind]);
    if (ref === undefined) return undefined;
    claims[kind] = ref;
  }
  return claims;
}
