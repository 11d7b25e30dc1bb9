// --authorization-mode and the --authorization-webhook-* flags as the
// AuthorizationConfiguration kube-apiserver makes of them
// (BuiltInAuthorizationOptions.buildAuthorizationConfiguration), so both ways of
// configuring authorization are built by one function (build.ts). The flags'
// webhook is named "default", waits 30s, fails open (NoOpinion), and a TTL of 0
// turns its cache off. kube does not validate the result as it validates a file.
import type { AuthorizationConfiguration, AuthorizerConfiguration } from './authorization-config.js';
import { AuthorizationConfigError } from './load.js';

export interface AuthorizationFlags {
  /** --authorization-mode, in order. */
  readonly modes: readonly string[];
  /** --authorization-webhook-config-file. */
  readonly webhookConfigFile?: string;
  /** --authorization-webhook-version (default v1beta1). */
  readonly webhookVersion?: string;
  /** --authorization-webhook-cache-authorized-ttl in milliseconds (default 5m). */
  readonly webhookCacheAuthorizedTtlMs?: number;
  /** --authorization-webhook-cache-unauthorized-ttl in milliseconds (default 30s). */
  readonly webhookCacheUnauthorizedTtlMs?: number;
}

/** kube-apiserver's defaultWebhookName. */
export const FLAG_WEBHOOK_NAME = 'default';

export function authorizationConfigurationFromFlags(flags: AuthorizationFlags): AuthorizationConfiguration {
  if (new Set(flags.modes).size !== flags.modes.length) throw new AuthorizationConfigError('modes should not be repeated in --authorization-mode');
  const authorizedTTL = flags.webhookCacheAuthorizedTtlMs ?? 5 * 60_000;
  const unauthorizedTTL = flags.webhookCacheUnauthorizedTtlMs ?? 30_000;
  const authorizers = flags.modes.map((mode): AuthorizerConfiguration => {
    if (mode !== 'Webhook') return { type: mode, name: mode.toLowerCase() };
    return {
      type: 'Webhook',
      name: FLAG_WEBHOOK_NAME,
      webhook: {
        authorizedTTL,
        cacheAuthorizedRequests: authorizedTTL !== 0,
        unauthorizedTTL,
        cacheUnauthorizedRequests: unauthorizedTTL !== 0,
        // Required in a file; the flags have always meant these.
        timeout: 30_000,
        failurePolicy: 'NoOpinion',
        subjectAccessReviewVersion: flags.webhookVersion ?? 'v1beta1',
        matchConditionSubjectAccessReviewVersion: '',
        connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: flags.webhookConfigFile ?? '' },
        matchConditions: [],
      },
    };
  });
  return { authorizers };
}
