// The authorizer kube-apiserver builds from --authorization-mode: the
// privileged-group authorizer first (system:masters may do everything), then one
// mode per name in the order given, in a union. Modes that keep state (RBAC's
// index, Node's graph, ABAC's file, a webhook's client) are built by main.ts and
// handed in; naming a mode without handing it in is a bug of the caller.
import { alwaysAllowMode, alwaysDenyMode, NOTHING } from './always.js';
import { SYSTEM_PRIVILEGED_GROUP, type AuthorizerMode } from './authorizer.js';
import { anonymousPolicyAuthorizer } from './anonymous-policy.js';
import { privilegedGroupsAuthorizer } from './privileged-groups.js';
import { unionModes } from './union.js';
import { instrumented, type DecisionRecorder } from './decisions.js';

export type AuthorizationMode = 'AlwaysAllow' | 'AlwaysDeny' | 'RBAC' | 'Node' | 'ABAC' | 'Webhook';

export const AUTHORIZATION_MODES: readonly AuthorizationMode[] = ['AlwaysAllow', 'AlwaysDeny', 'RBAC', 'Node', 'ABAC', 'Webhook'];

/** `npm start`'s modes when the flag is absent (kube-apiserver's own default is AlwaysAllow). */
export const DEFAULT_AUTHORIZATION_MODES: readonly AuthorizationMode[] = ['Node', 'RBAC'];

export function isAuthorizationMode(mode: string): mode is AuthorizationMode {
  return (AUTHORIZATION_MODES as readonly string[]).includes(mode);
}

export interface CreateAuthorizerOptions {
  readonly modes: readonly AuthorizationMode[];
  /** The stateful modes, required when named in `modes`. */
  readonly rbac?: AuthorizerMode;
  readonly node?: AuthorizerMode;
  readonly abac?: AuthorizerMode;
  readonly webhook?: AuthorizerMode;
  /** Counts each mode's terminal decisions (apiserver_authorization_decisions_total). */
  readonly record?: DecisionRecorder;
}

/** Members of system:masters are allowed everything; kube's privileged-group authorizer enumerates no rules. */
const privileged: AuthorizerMode = { authorize: privilegedGroupsAuthorizer([SYSTEM_PRIVILEGED_GROUP]), rulesFor: async () => NOTHING };

function modeOf(mode: AuthorizationMode, opts: CreateAuthorizerOptions): AuthorizerMode {
  const stateful = { RBAC: opts.rbac, Node: opts.node, ABAC: opts.abac, Webhook: opts.webhook };
  if (mode === 'AlwaysAllow') return alwaysAllowMode;
  if (mode === 'AlwaysDeny') return alwaysDenyMode;
  const built = stateful[mode];
  if (built === undefined) throw new Error(`authorization mode ${mode} was named but not built`);
  return built;
}

/** A configured chain (an AuthorizationConfiguration file's) behind the privileged-group authorizer. */
export function withPrivilegedGroups(mode: AuthorizerMode): AuthorizerMode {
  return unionModes(privileged, mode);
}

export function createAuthorizer(opts: CreateAuthorizerOptions): AuthorizerMode {
  // kube names the flags' authorizers after their type in lower case, the webhook "default".
  const modes = opts.modes.map((m) => instrumented(modeOf(m, opts), { type: m, name: m === 'Webhook' ? 'default' : m.toLowerCase() }, opts.record));
  // kapi's own guard: under AlwaysAllow anonymous requests still reach only the
  // public paths (anonymous-policy.ts), where kube would let them do everything.
  // Under RBAC the default policy's bindings say what anonymous may do, as in kube.
  if (opts.modes.includes('AlwaysAllow')) {
    return unionModes(privileged, { authorize: anonymousPolicyAuthorizer(), rulesFor: async () => NOTHING }, ...modes);
  }
  return unionModes(privileged, ...modes);
}
