// What the token cleaner and the bootstrap signer read from a bootstrap token
// Secret (k8s.io/cluster-bootstrap: token/api constants, util/secrets, token/jws),
// kept apart from auth/authn/bootstrap-token.ts because controllers may not import
// auth/ (.dependency-cruiser.cjs). Every read takes the Secret as hostile data:
// own members only, strings only, and expiration parsed as Go's time.RFC3339
// (anything else counts as expired, as GetExpiration does).
import { CompactSign } from 'jose';
import { parseRfc3339 } from '../schema/go-time.js';
import type { KubeObject } from '../schema/object.js';

export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
/** Token Secrets live here (kube's TokenSecretNamespace). */
export const TOKEN_SECRET_NAMESPACE = 'kube-system';
/** bootstrapapi.ConfigMapClusterInfo in metav1.NamespacePublic. */
export const CLUSTER_INFO_NAMESPACE = 'kube-public';
export const CLUSTER_INFO_NAME = 'cluster-info';
/** bootstrapapi.KubeConfigKey: the value the signatures cover. */
export const KUBECONFIG_KEY = 'kubeconfig';
/** bootstrapapi.JWSSignatureKeyPrefix. */
export const JWS_KEY_PREFIX = 'jws-kubeconfig-';

const SECRET_NAME = /^bootstrap-token-([a-z0-9]{6})$/;
/** bootstrapapi.BootstrapTokenSecretPattern: kubeadm can only join with a secret of this shape. */
const TOKEN_SECRET = /^[a-z0-9]{16}$/;

/** A Secret's data value as text; undefined when absent or not a string (data is base64 on the wire). */
export function secretData(secret: KubeObject, key: string): string | undefined {
  const data = secret.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !Object.hasOwn(data, key)) return undefined;
  const value: unknown = (data as Record<string, unknown>)[key];
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;
}

export type Expiration = { readonly expired: true } | { readonly expired: false; readonly at: Date | undefined };

/** util/secrets.GetExpiration: no expiration never expires; an unparseable one has expired. */
export function tokenExpiration(secret: KubeObject, now: Date): Expiration {
  const text = secretData(secret, 'expiration');
  if (text === undefined || text === '') return { expired: false, at: undefined };
  const at = parseRfc3339(text);
  if (at === undefined || at <= now.getTime()) return { expired: true };
  return { expired: false, at: new Date(at) };
}

export function isTokenSecret(obj: KubeObject): boolean {
  return obj.type === BOOTSTRAP_TOKEN_SECRET_TYPE && obj.metadata.namespace === TOKEN_SECRET_NAMESPACE;
}

export interface SigningToken {
  readonly id: string;
  readonly secret: string;
  /** undefined: never expires. */
  readonly expiresAt: Date | undefined;
}

/**
 * The bootstrap signer's validateSecretForSigning: the name is bootstrap-token-<id>,
 * token-id agrees with it, the token allows signing and has not expired. Stricter
 * than kube in two ways that only refuse tokens nobody can use: the secret must be
 * 16 of [a-z0-9] (kubeadm join parses no other), and a Secret being deleted signs nothing.
 */
export function signingToken(secret: KubeObject, now: Date): SigningToken | undefined {
  if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return undefined;
  if (secret.metadata.deletionTimestamp !== undefined && secret.metadata.deletionTimestamp !== null) return undefined;
  const id = SECRET_NAME.exec(secret.metadata.name ?? '')?.[1];
  if (id === undefined || secretData(secret, 'token-id') !== id) return undefined;
  const tokenSecret = secretData(secret, 'token-secret');
  if (tokenSecret === undefined || !TOKEN_SECRET.test(tokenSecret)) return undefined;
  if (secretData(secret, 'usage-bootstrap-signing') !== 'true') return undefined;
  const expiration = tokenExpiration(secret, now);
  if (expiration.expired) return undefined;
  return { id, secret: tokenSecret, expiresAt: expiration.at };
}

/**
 * cluster-bootstrap's jws.ComputeDetachedSignature, byte for byte: an HS256 compact
 * JWS with protected header {"alg":"HS256","kid":<id>} (go-jose writes the keys
 * sorted, as JSON.stringify does here), keyed by the token secret zero-padded to 32
 * bytes, with the payload segment left out (RFC 7515 appendix F): `header..signature`.
 */
export async function detachedSignature(content: string, tokenId: string, tokenSecret: string): Promise<string> {
  const raw = Buffer.from(tokenSecret, 'utf8');
  const key = new Uint8Array(Math.max(32, raw.length));
  key.set(raw);
  const jws = await new CompactSign(new TextEncoder().encode(content)).setProtectedHeader({ alg: 'HS256', kid: tokenId }).sign(key);
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}
