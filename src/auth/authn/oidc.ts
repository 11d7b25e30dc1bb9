// OpenID Connect ID tokens from kube-apiserver's --oidc-* flags. As kube does
// (pkg/kubeapiserver/options/authentication.go, ToAuthenticationConfig), the flags
// become one JWT authenticator configuration: the issuer URL and client id (its
// one audience), the username claim with the legacy prefix rule (the issuer URL
// and `#` unless the claim is `email` or a prefix is given; `-` for none), the
// groups claim and prefix, the CA file's certificates and each required claim as
// a claim validation rule. jwt.ts verifies and maps the tokens.
import { path } from '../../schema/field-errors.js';
import type { Authenticator } from './authenticator.js';
import type { JwtAuthenticatorConfig } from './authentication-config.js';
import { aggregateMessage, validateJwtAuthenticator } from './authentication-config-validation.js';
import { createJwtAuthenticator } from './jwt.js';

export interface OidcOptions {
  readonly issuerUrl: string;
  readonly clientId: string;
  /** Default `sub`. */
  readonly usernameClaim: string;
  /** undefined: kube's default (issuer URL + `#`, none for `email`); '-' disables. */
  readonly usernamePrefix: string | undefined;
  readonly groupsClaim: string | undefined;
  readonly groupsPrefix: string;
  /** PEM bundle the issuer's certificate must chain to; undefined: the system's roots. */
  readonly caPem: string | undefined;
  /** Each claim must be present and equal to the value. */
  readonly requiredClaims: ReadonlyMap<string, string>;
  /** Default ['RS256']. */
  readonly signingAlgs: readonly string[];
  readonly clock?: () => Date;
  /** The least time between two fetches of the keys (a flood of unknown key ids cannot hammer the issuer). */
  readonly refreshIntervalMs?: number;
}

/** The JWT authenticator configuration kube builds from the --oidc-* flags. */
export function oidcFlagsToJwtConfig(opts: OidcOptions): JwtAuthenticatorConfig {
  const prefix = opts.usernamePrefix === '-' ? '' : (opts.usernamePrefix ?? (opts.usernameClaim === 'email' ? '' : `${opts.issuerUrl}#`));
  return {
    issuer: { url: opts.issuerUrl, discoveryURL: '', certificateAuthority: opts.caPem ?? '', audiences: [opts.clientId], audienceMatchPolicy: '', egressSelectorType: '' },
    claimValidationRules: [...opts.requiredClaims].map(([claim, requiredValue]) => ({ claim, requiredValue, expression: '', message: '' })),
    claimMappings: {
      username: { claim: opts.usernameClaim, prefix, expression: '' },
      groups: opts.groupsClaim === undefined ? { claim: '', prefix: undefined, expression: '' } : { claim: opts.groupsClaim, prefix: opts.groupsPrefix, expression: '' },
      uid: { claim: '', expression: '' },
      extra: [],
    },
    userValidationRules: [],
  };
}

export function createOidcAuthenticator(opts: OidcOptions): Authenticator {
  const config = oidcFlagsToJwtConfig(opts);
  // options.ts has checked the flags; what it cannot have got wrong still gets kube's check.
  const { errors, mapper } = validateJwtAuthenticator(config, path(), []);
  if (errors.length > 0) throw new Error(`invalid authentication configuration: ${aggregateMessage(errors)}`);
  return createJwtAuthenticator({
    config,
    mapper,
    signingAlgs: opts.signingAlgs,
    ...(opts.clock === undefined ? {} : { clock: opts.clock }),
    ...(opts.refreshIntervalMs === undefined ? {} : { refreshIntervalMs: opts.refreshIntervalMs }),
  }).authenticate;
}
