// Authentication: the second filter of the chain turns a request's credentials
// into a UserInfo. An Authenticator sees a transport-neutral view of the request
// (headers and the TLS peer certificates) so each one is a plain function that
// tests call without sockets; server/filters/authenticate.ts maps the answers to
// "proceed", 401, or the anonymous user.
import type { X509Certificate } from 'node:crypto';
import type { UserInfo } from '../../schema/user.js';

export interface AuthnRequest {
  /** Lower-case header names, as Node delivers them. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * What the client presented in the TLS handshake, leaf first, followed by any
   * intermediates it sent. Unverified: the server requests but does not require a
   * certificate (`requestCert: true, rejectUnauthorized: false`), so the x509
   * authenticator does the verification.
   */
  readonly peerCertificateChain?: readonly X509Certificate[];
  /**
   * The audiences the credential must be good for: a TokenReview's
   * spec.audiences. Absent (every request of the filter chain): the API
   * audiences. Only audience-aware authenticators (service-account tokens) read
   * it; the others are good for the API audiences alone, and the TokenReview
   * judges that for them.
   */
  readonly audiences?: readonly string[];
}

export interface AuthnResult {
  readonly user: UserInfo;
  /** The audiences the credential was accepted for (audience-aware authenticators only). */
  readonly audiences?: readonly string[];
  /** Warning headers for the caller (kube's legacy service-account token warning). */
  readonly warnings?: readonly string[];
}

/**
 * Answers a user for credentials it recognises and accepts; undefined when the
 * request carries none of its kind; throws AuthenticationError for credentials of
 * its kind that are invalid (bad signature, expired, unknown CA). kube-apiserver
 * answers 401 for such a request unless another authenticator accepts it.
 */
export type Authenticator = (req: AuthnRequest) => Promise<AuthnResult | undefined>;

/** Go's strings.TrimSpace over header bytes: Node hands them over as latin1, so only ASCII space counts (0xA0 is a byte, not a space). */
const ASCII_SPACE_EDGES = /^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g;

/** Why a bearer header is ignored when kube warns about it; see bearerToken. */
export const EXTRA_SPACE_BEFORE_TOKEN_WARNING = 'the provided Authorization header contains extra space before the bearer token, and is ignored';

interface BearerHeader {
  readonly token?: string;
  readonly warning?: string;
}

/**
 * kube's bearertoken authenticator reads the header exactly so
 * (k8s.io/apiserver/pkg/authentication/request/bearertoken): the first
 * Authorization value, trimmed, split on single spaces into at most three parts;
 * the scheme is `bearer` in any case; the token is the second part, so anything
 * after a further space is ignored, and an empty second part (two spaces, or
 * `Bearer` alone) means no token at all (with a warning for the two spaces).
 * Tabs do not separate. A header kube ignores carries no credentials here either.
 */
function readBearerHeader(headers: AuthnRequest['headers']): BearerHeader {
  const header = headers['authorization'];
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return {};
  const auth = value.replace(ASCII_SPACE_EDGES, '');
  const first = auth.indexOf(' ');
  if (first < 0 || auth.slice(0, first).toLowerCase() !== 'bearer') return {};
  const rest = auth.slice(first + 1);
  const second = rest.indexOf(' ');
  const token = second < 0 ? rest : rest.slice(0, second);
  if (token === '') return second < 0 ? {} : { warning: EXTRA_SPACE_BEFORE_TOKEN_WARNING };
  return { token };
}

/** The token of an `Authorization: Bearer <token>` header, as kube reads it; undefined without one. */
export function bearerToken(headers: AuthnRequest['headers']): string | undefined {
  return readBearerHeader(headers).token;
}

/** The Warning kube-apiserver adds when it ignores a bearer header for a space before the token. */
export function bearerHeaderWarning(headers: AuthnRequest['headers']): string | undefined {
  return readBearerHeader(headers).warning;
}

export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
}

export function isAuthenticationError(err: unknown): err is AuthenticationError {
  return err instanceof AuthenticationError;
}

/** Well-known user and group names (k8s.io/apiserver/pkg/authentication/user). */
export const SYSTEM_AUTHENTICATED = 'system:authenticated';
export const SYSTEM_UNAUTHENTICATED = 'system:unauthenticated';
export const SYSTEM_ANONYMOUS = 'system:anonymous';
export const SYSTEM_MASTERS = 'system:masters';
/** The `extra` key naming the credential a user authenticated with (kube 1.32+). */
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';
