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
}

export interface AuthnResult {
  readonly user: UserInfo;
}

/**
 * Answers a user for credentials it recognises and accepts; undefined when the
 * request carries none of its kind; throws AuthenticationError for credentials of
 * its kind that are invalid (bad signature, expired, unknown CA). kube-apiserver
 * answers 401 for such a request unless another authenticator accepts it.
 */
export type Authenticator = (req: AuthnRequest) => Promise<AuthnResult | undefined>;

/** The token of an `Authorization: Bearer <token>` header (kube's bearertoken authenticator); undefined without one. */
export function bearerToken(headers: AuthnRequest['headers']): string | undefined {
  const header = headers['authorization'];
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(value)?.[1];
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
