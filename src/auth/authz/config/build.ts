// One AuthorizerMode from a validated AuthorizationConfiguration, as kube-
// apiserver's newForConfig builds it: the authorizers in file order, the first
// Allow or Deny deciding (union.New) and every member's rules listed together
// (union.NewRuleResolvers). RBAC, Node and ABAC are the server's own, built once
// at start and handed in; a file that names one the server did not start with is
// refused in kube's words. The caller puts system:masters' authorizer in front.
import type { AuthorizerMode } from '../authorizer.js';
import { unionModes } from '../union.js';
import { instrumented, type DecisionRecorder } from '../decisions.js';
import { createWebhookAuthorizer, WebhookConfigError, type WebhookAuthorizer, type WebhookAuthorizerOptions } from '../webhook/webhook.js';
import type { AuthorizationConfiguration, AuthorizerConfiguration } from './authorization-config.js';
import { AuthorizationConfigError } from './load.js';

export interface ConfiguredAuthorizerDeps {
  readonly alwaysAllow: AuthorizerMode;
  readonly alwaysDeny: AuthorizerMode;
  /** Present when the server runs RBAC (it must have been in the start's configuration). */
  readonly rbac?: AuthorizerMode;
  readonly node?: AuthorizerMode;
  readonly abac?: AuthorizerMode;
  /** What every webhook shares: time, retry waits, metrics (tests inject these). */
  readonly webhook?: Pick<WebhookAuthorizerOptions, 'clock' | 'sleep' | 'random' | 'metrics' | 'retryBackoff'>;
  /** Counts each authorizer's terminal decisions (apiserver_authorization_decisions_total). */
  readonly record?: DecisionRecorder;
}

export interface ConfiguredAuthorizer extends AuthorizerMode {
  /** Closes the webhooks' idle connections. */
  close(): void;
}

function notStarted(type: string): AuthorizationConfigError {
  return new AuthorizationConfigError(`authorizer type ${type} is not allowed if it was not enabled at initial server startup`);
}

function webhookOf(a: AuthorizerConfiguration, deps: ConfiguredAuthorizerDeps): WebhookAuthorizer {
  const w = a.webhook!;
  if (w.connectionInfo.type !== 'KubeConfigFile' || w.connectionInfo.kubeConfigFile === undefined) {
    throw new AuthorizationConfigError(`authorizer ${JSON.stringify(a.name)}: connectionInfo type ${w.connectionInfo.type} is not allowed for kube-apiserver`);
  }
  const version = w.subjectAccessReviewVersion;
  // Reachable from the flags (--authorization-webhook-version), which validation does not see.
  if (version !== 'v1' && version !== 'v1beta1') throw new AuthorizationConfigError(`unsupported webhook authorizer version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`);
  try {
    return createWebhookAuthorizer({
      ...deps.webhook,
      name: a.name,
      kubeconfig: w.connectionInfo.kubeConfigFile,
      subjectAccessReviewVersion: version,
      timeoutMs: w.timeout,
      // A cache that is off is a TTL of 0, as kube's newForConfig passes it.
      authorizedTtlMs: w.cacheAuthorizedRequests ? w.authorizedTTL : 0,
      unauthorizedTtlMs: w.cacheUnauthorizedRequests ? w.unauthorizedTTL : 0,
      failurePolicy: w.failurePolicy === 'Deny' ? 'Deny' : 'NoOpinion',
      matchConditions: w.matchConditions.map((c) => c.expression),
    });
  } catch (err) {
    if (err instanceof WebhookConfigError) throw new AuthorizationConfigError(err.message);
    throw err;
  }
}

/** Throws AuthorizationConfigError when a member cannot be built (closing the webhooks already made). */
export function buildConfiguredAuthorizer(config: AuthorizationConfiguration, deps: ConfiguredAuthorizerDeps): ConfiguredAuthorizer {
  if (config.authorizers.length === 0) throw new AuthorizationConfigError('at least one authorization mode must be passed');
  const members: AuthorizerMode[] = [];
  const webhooks: WebhookAuthorizer[] = [];
  const close = () => webhooks.forEach((w) => w.close());
  try {
    for (const a of config.authorizers) {
      switch (a.type) {
        case 'AlwaysAllow':
          members.push(deps.alwaysAllow);
          break;
        case 'AlwaysDeny':
          members.push(deps.alwaysDeny);
          break;
        case 'RBAC':
        case 'Node':
        case 'ABAC': {
          const mode = a.type === 'RBAC' ? deps.rbac : a.type === 'Node' ? deps.node : deps.abac;
          if (mode === undefined) throw notStarted(a.type);
          members.push(mode);
          break;
        }
        case 'Webhook': {
          const webhook = webhookOf(a, deps);
          webhooks.push(webhook);
          members.push(webhook);
          break;
        }
        default:
          throw new AuthorizationConfigError(`unknown authorization mode ${a.type} specified`);
      }
    }
  } catch (err) {
    close();
    throw err;
  }
  return { ...unionModes(...members.map((m, i) => instrumented(m, { type: config.authorizers[i]!.type, name: config.authorizers[i]!.name }, deps.record))), close };
}
