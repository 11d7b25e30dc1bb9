// The server's authorization, assembled from the flags or the --authorization-config
// file: RBAC's policy index and the Node graph (both kept from the watch cache), the
// ABAC policy, webhooks, the union in the configured order behind the privileged
// group, and the escalation guard the RBAC kinds' writes go through. A configuration
// file is re-read while the server runs (kube's reloader): a valid change applies, an
// invalid one is logged, counted, and the last good chain keeps deciding.
import { Counter, type Registry as MetricsRegistry } from 'prom-client';
import type { DecisionRecorder } from '../auth/authz/decisions.js';
import type { Logger } from 'pino';
import { createAbacAuthorizer } from '../auth/authz/abac/abac.js';
import { alwaysAllowMode, alwaysDenyMode } from '../auth/authz/always.js';
import type { AuthorizerMode } from '../auth/authz/authorizer.js';
import { buildConfiguredAuthorizer } from '../auth/authz/config/build.js';
import { AuthorizationConfigError, nonWebhookTypes, parseAuthorizationConfiguration } from '../auth/authz/config/load.js';
import { promAuthorizationConfigMetrics } from '../auth/authz/config/metrics.js';
import { createAuthorizationConfigReloader } from '../auth/authz/config/reload.js';
import { createAuthorizer, withPrivilegedGroups } from '../auth/authz/create.js';
import { createNodeAuthorization, type NodeAuthorization } from '../auth/authz/node/index.js';
import { createEscalationGuard, type EscalationGuard } from '../auth/authz/rbac/escalation.js';
import { createRbacPolicy } from '../auth/authz/rbac/policy.js';
import { createWebhookAuthorizer, WebhookConfigError } from '../auth/authz/webhook/webhook.js';
import { KubeconfigError, readWebhookKubeconfig } from '../auth/authz/webhook/kubeconfig.js';
import { promWebhookMetrics } from '../auth/authz/webhook/metrics.js';
import { pods } from '../apis/core/v1/pods.js';
import { persistentVolumes } from '../apis/core/v1/persistent-volumes.js';
import { CLUSTER_ROLES } from '../apis/rbac/bootstrap-policy-cluster-roles.js';
import { clusterRoleBindings, clusterRoles, roleBindings, roles } from '../apis/rbac/v1/index.js';
import { resourceSlices } from '../apis/resource/v1/kinds.js';
import { volumeAttachments } from '../apis/storage/v1/volume-attachments.js';
import { collectionPrefix } from '../registry/keys.js';
import type { Storage } from '../storage/storage.js';
import type { Options } from './options.js';
import { OptionsError } from './options.js';
import type { ValidatedFiles } from './options/validate-files.js';
import { readFileSync } from 'node:fs';

export interface ServerAuthorization {
  /** The chain: the filter's decisions, the access reviews, `kubectl auth can-i --list`. */
  readonly mode: AuthorizerMode;
  readonly escalation: EscalationGuard;
  /** Node is in the chain (NodeRestriction admission goes with it). */
  readonly nodeEnabled: boolean;
  /** Resolves once RBAC (and Node) have listed what they decide from. */
  readonly synced: Promise<void>;
  close(): void;
}

export interface ServerAuthorizationOptions {
  readonly options: Options;
  readonly files: ValidatedFiles;
  readonly storage: Storage;
  readonly logger: Logger;
  readonly metrics: MetricsRegistry;
  /** kube's APIServerID, for apiserver_id_hash. */
  readonly apiServerId: string;
}

/** apiserver_authorization_decisions_total as kube names it; one counter child per label set, made once. */
function decisionRecorder(registry: MetricsRegistry): DecisionRecorder {
  const counter = new Counter({
    name: 'apiserver_authorization_decisions_total',
    help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
    labelNames: ['type', 'name', 'decision'],
    registers: [registry],
  });
  const children = new Map<string, Counter.Internal>();
  return (labels, decision) => {
    const key = `${labels.type}\u0000${labels.name}\u0000${decision}`;
    let child = children.get(key);
    if (child === undefined) children.set(key, (child = counter.labels(labels.type, labels.name, decision)));
    child.inc();
  };
}

/** The start's configuration file, or one line naming what is wrong with it. */
function readConfiguration(file: string): { text: Buffer; types: string[] } {
  try {
    const text = readFileSync(file);
    return { text, types: nonWebhookTypes(parseAuthorizationConfiguration(text)) };
  } catch (err) {
    if (err instanceof AuthorizationConfigError || (err as NodeJS.ErrnoException).code !== undefined) {
      throw new OptionsError([`--authorization-config ${JSON.stringify(file)}: ${(err as Error).message}`]);
    }
    throw err;
  }
}

/** The flags' webhook, or one line naming what is wrong with its kubeconfig. */
function flagWebhook(file: string, opts: Omit<Parameters<typeof createWebhookAuthorizer>[0], 'kubeconfig'>): AuthorizerMode {
  try {
    return createWebhookAuthorizer({ ...opts, kubeconfig: file });
  } catch (err) {
    if (err instanceof WebhookConfigError || (err as NodeJS.ErrnoException).code !== undefined) {
      throw new OptionsError([`--authorization-webhook-config-file ${JSON.stringify(file)}: ${(err as Error).message}`]);
    }
    throw err;
  }
}

/** Throws OptionsError (one line) for an unreadable or invalid --authorization-config or webhook kubeconfig. */
export function checkAuthorizationFiles(options: Options): void {
  if (options.authorizationConfigFile !== undefined) readConfiguration(options.authorizationConfigFile);
  const file = options.authorizationWebhook.configFile;
  if (file === undefined) return;
  try {
    readWebhookKubeconfig(file);
  } catch (err) {
    if (err instanceof KubeconfigError || (err as NodeJS.ErrnoException).code !== undefined) {
      throw new OptionsError([`--authorization-webhook-config-file ${JSON.stringify(file)}: ${(err as Error).message}`]);
    }
    throw err;
  }
}

export async function createServerAuthorization(opts: ServerAuthorizationOptions): Promise<ServerAuthorization> {
  const { options, files, storage, logger } = opts;
  const configFile = options.authorizationConfigFile;
  const start = configFile === undefined ? undefined : readConfiguration(configFile);
  const types = start?.types ?? options.authorizationModes;
  // RBAC's index feeds the escalation checks whatever the modes are, as kube's rule resolver reads RBAC's listers.
  const rbacPolicy = createRbacPolicy({
    storage,
    prefixes: { roles: collectionPrefix(roles, {}), clusterRoles: collectionPrefix(clusterRoles, {}), roleBindings: collectionPrefix(roleBindings, {}), clusterRoleBindings: collectionPrefix(clusterRoleBindings, {}) },
    onError: (err) => logger.warn({ err }, 'rbac policy: watch ended, re-listing'),
  });
  // The Node graph watches every pod: kept only when Node decides.
  const node: NodeAuthorization | undefined = types.includes('Node')
    ? createNodeAuthorization({
        storage,
        prefixes: { pods: collectionPrefix(pods, {}), persistentVolumes: collectionPrefix(persistentVolumes, {}), volumeAttachments: collectionPrefix(volumeAttachments, {}), resourceSlices: collectionPrefix(resourceSlices, {}) },
        // What every node may do besides its graph: the system:node role's rules, as kube's node authorizer has them.
        nodeRules: CLUSTER_ROLES.find((r) => r.name === 'system:node')!.rules,
        onError: (err) => logger.warn({ err }, 'node authorizer: watch ended, re-listing'),
      })
    : undefined;
  const abac = files.abacPolicies === undefined ? undefined : createAbacAuthorizer(files.abacPolicies);
  const webhookMetrics = promWebhookMetrics(opts.metrics);
  const record = decisionRecorder(opts.metrics);
  const stateful = { rbac: rbacPolicy.mode, ...(node === undefined ? {} : { node: node.mode }), ...(abac === undefined ? {} : { abac }) };

  let mode: AuthorizerMode;
  let stopReloading: () => void = () => {};
  if (configFile !== undefined && start !== undefined) {
    const metrics = promAuthorizationConfigMetrics({ registry: opts.metrics, apiServerId: opts.apiServerId });
    const reloader = await createAuthorizationConfigReloader({
      path: configFile,
      parse: (data) => parseAuthorizationConfiguration(data, { requireNonWebhookTypes: start.types }),
      build: (config) => buildConfiguredAuthorizer(config, { alwaysAllow: alwaysAllowMode, alwaysDeny: alwaysDenyMode, ...stateful, webhook: { metrics: webhookMetrics }, record }),
      onError: (message) => logger.error({ reason: message }, 'authorization config not reloaded'),
      onReload: (status, at, data) => {
        metrics.recordReload(status, at);
        if (data !== undefined) metrics.recordConfig(data);
        if (status === 'success') logger.info('reloaded authorization config');
      },
    });
    metrics.recordConfig(reloader.data());
    stopReloading = () => reloader.stop();
    mode = withPrivilegedGroups(reloader.authorizer);
  } else {
    const hook = options.authorizationWebhook;
    const webhook =
      hook.configFile === undefined
        ? undefined
        : flagWebhook(hook.configFile, {
            // The flags' webhook as kube-apiserver makes it: named "default", 30 s, fails open.
            name: 'default',
            subjectAccessReviewVersion: hook.version,
            timeoutMs: 30_000,
            authorizedTtlMs: hook.authorizedTtlMs,
            unauthorizedTtlMs: hook.unauthorizedTtlMs,
            failurePolicy: 'NoOpinion',
            metrics: webhookMetrics,
          });
    mode = createAuthorizer({ modes: options.authorizationModes, ...stateful, ...(webhook === undefined ? {} : { webhook }), record });
  }
  return {
    mode,
    escalation: createEscalationGuard({ authorizer: mode.authorize, index: rbacPolicy.index }),
    nodeEnabled: node !== undefined,
    synced: Promise.all([rbacPolicy.synced, node?.synced]).then(() => undefined),
    close() {
      stopReloading();
      rbacPolicy.close();
      node?.close();
    },
  };
}
