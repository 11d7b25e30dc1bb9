// The authenticator kube-apiserver would build for kapi's flags: the union of
// x509, the static token file, service-account tokens, bootstrap tokens and
// OIDC/JWT (kube's order), followed by the authenticated-group adder.
import type { X509Certificate } from 'node:crypto';
import { parseCertificateBundle } from '../pki/pem.js';
import { AuthenticationError, bearerToken, type Authenticator } from './authenticator.js';
import { unionAuthenticator, withAuthenticatedGroup } from './union.js';
import { createX509Authenticator } from './x509.js';
import { createTokenFileAuthenticator } from './token-file.js';
import type { UserInfo } from '../../schema/user.js';

export interface CreateAuthenticatorOptions {
  /** PEM bundle of the client CA: `--client-ca-file`'s contents, or the generated CA. */
  readonly clientCaPem: string;
  readonly clock?: () => Date;
  /** Service-account bearer tokens (createServiceAccountAuthenticator); absent: none accepted. */
  readonly serviceAccountTokens?: Authenticator;
  /** --token-auth-file's users by token; absent: no static tokens. */
  readonly staticTokens?: ReadonlyMap<string, UserInfo>;
  /** Bootstrap tokens (createBootstrapTokenAuthenticator); absent: none accepted. */
  readonly bootstrapTokens?: Authenticator;
  /** OpenID Connect ID tokens (createOidcAuthenticator); absent: none accepted. */
  readonly oidc?: Authenticator;
}

export function createAuthenticator(opts: CreateAuthenticatorOptions): Authenticator {
  const roots: X509Certificate[] = parseCertificateBundle(opts.clientCaPem);
  const x509 = createX509Authenticator({ roots, ...(opts.clock === undefined ? {} : { clock: opts.clock }) });
  // kube's order: client certificates, then the bearer-token authenticators (token file first).
  const members = [
    x509,
    ...(opts.staticTokens === undefined ? [] : [createTokenFileAuthenticator(opts.staticTokens)]),
    ...(opts.serviceAccountTokens === undefined ? [] : [opts.serviceAccountTokens]),
    ...(opts.bootstrapTokens === undefined ? [] : [opts.bootstrapTokens]),
    ...(opts.oidc === undefined ? [] : [opts.oidc]),
  ];
  return withAuthenticatedGroup(refuseUnknownBearerTokens(unionAuthenticator(...members)));
}

/**
 * A bearer token nobody accepts is refused (kube's bearertoken authenticator:
 * "invalid bearer token"), so it is a 401 and never an anonymous request.
 */
function refuseUnknownBearerTokens(authenticate: Authenticator): Authenticator {
  return async (req) => {
    const result = await authenticate(req);
    if (result !== undefined) return result;
    if (bearerToken(req.headers) !== undefined) throw new AuthenticationError('invalid bearer token');
    return undefined;
  };
}
