// The authorizer kube-apiserver builds from --authorization-mode: the
// privileged-group authorizer first, then one authorizer per mode in the order
// given, in a union. TODO(#3): RBAC, Node and Webhook join AUTHORIZATION_MODES as
// they are implemented; until then the flag parser rejects them by name.
import { alwaysAllow, alwaysDeny } from './always.js';
import { SYSTEM_PRIVILEGED_GROUP, type Authorizer } from './authorizer.js';
import { privilegedGroupsAuthorizer } from './privileged-groups.js';
import { anonymousPolicyAuthorizer } from './anonymous-policy.js';
import { unionAuthorizer } from './union.js';

export type AuthorizationMode = 'AlwaysAllow' | 'AlwaysDeny';

const BY_MODE: Readonly<Record<AuthorizationMode, Authorizer>> = {
  AlwaysAllow: alwaysAllow,
  AlwaysDeny: alwaysDeny,
};

export const AUTHORIZATION_MODES: readonly AuthorizationMode[] = Object.keys(BY_MODE) as AuthorizationMode[];

/** kube-apiserver modes kapi does not offer yet: named in the flag error so the user knows why. */
export const UNSUPPORTED_AUTHORIZATION_MODES: readonly string[] = ['ABAC', 'Webhook', 'RBAC', 'Node'];

export function isAuthorizationMode(mode: string): mode is AuthorizationMode {
  return Object.hasOwn(BY_MODE, mode);
}

export interface CreateAuthorizerOptions {
  readonly modes: readonly AuthorizationMode[];
}

export function createAuthorizer(opts: CreateAuthorizerOptions): Authorizer {
  // Anonymous requests are held to the public paths before any mode is asked (auth/authz/anonymous-policy.ts).
  return unionAuthorizer(privilegedGroupsAuthorizer([SYSTEM_PRIVILEGED_GROUP]), anonymousPolicyAuthorizer(), ...opts.modes.map((mode) => BY_MODE[mode]));
}
