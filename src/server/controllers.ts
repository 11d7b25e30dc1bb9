// The controllers the control plane runs in-process, started by main.ts after the
// bootstrap objects exist and stopped first on shutdown. They reach objects only
// through the registry's stores (DESIGN: the same client interface as any caller),
// so defaulting, validation, admission and finalizers apply to them too.
// Each runs on controller-runner.ts under kube-controller-manager's name, and
// --controllers picks them (controller-names.ts): namespace-controller (deleting a
// namespace's contents), serviceaccount-controller (the `default` service account
// in every namespace), root-ca-certificate-publisher-controller (kube-root-ca.crt
// in every namespace), serviceaccount-token-controller (legacy token Secrets'
// token, ca.crt and namespace; their deletion with the account); off by default, bootstrap-signer-controller (jws-kubeconfig-<id>
// in kube-public/cluster-info) and token-cleaner-controller (expired bootstrap
// tokens), which look again at an expiration through the runner's delayed
// requeue. What they decide on they read like kube's listers, from the watch
// cache (controllers/lister.ts); the namespace controller reads live, as kube's
// namespace deleter does, since it must not finalize a namespace on a stale empty
// list. The kinds they drive are looked
// up in the registry's catalog, so they drive what is served (the service
// accounts with their token subresource), and a controller whose kinds are not
// served does not start.
import { configMaps, namespaces as namespacesKind, serviceAccounts } from '../apis/core/v1/index.js';
import { createNamespaceController, type NamespaceLifecycleClient } from '../controllers/namespace-lifecycle.js';
import { isStatusError } from '../errors/status-error.js';
import { gvrOf } from '../registry/catalog.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { Registry } from '../registry/registry.js';
import { runKeyedController, type ControllerLogger, type KeyedControllerOptions, type RetryPolicy, type RunningController } from './controller-runner.js';
import { CONTROLLER_NAMES, DEFAULT_CONTROLLERS, controllerEnabled } from './controller-names.js';
import {
  DEFAULT_SERVICE_ACCOUNT,
  ROOT_CA_CONFIGMAP,
  createDefaultServiceAccountController,
  createRootCaPublisher,
  type NamespaceDefaultsClient,
} from '../controllers/namespace-defaults.js';
import { secrets as secretsKind } from '../apis/core/v1/index.js';
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE, TOKEN_SECRET_NAMESPACE, isTokenSecret } from '../controllers/bootstrap-tokens.js';
import { SIGNER_KEY as CLUSTER_INFO_KEY, createBootstrapSigner } from '../controllers/bootstrap-signer.js';
import { createTokenCleaner } from '../controllers/token-cleaner.js';
import { createClusterRoleAggregator, registryClusterRoleClient } from '../controllers/clusterrole-aggregation.js';
import { clusterRoles as clusterRolesKind } from '../apis/rbac/v1/index.js';
import { createTokensController, registryTokensClient, secretKey, serviceAccountKey, type LegacyTokenSigner } from '../controllers/serviceaccount-token.js';
import { cachedGet, cachedList } from '../controllers/lister.js';
import { requeueAt } from './controller-runner.js';

export type { ControllerLogger, RetryPolicy } from './controller-runner.js';

export interface ControllersOptions {
  /** The controllers' client; its catalog says which kinds exist. */
  readonly registry: Registry;
  readonly logger: ControllerLogger;
  readonly retry?: RetryPolicy;
  /** PEM that verifies the API server, published in every namespace as kube-root-ca.crt. */
  readonly rootCaPem?: string;
  /** --controllers; absent: `*` (those on by default). */
  readonly controllers?: readonly string[];
  /** Signs the legacy tokens of service-account-token Secrets (serviceaccount-token-controller); absent: that controller does not run. */
  readonly legacyTokenSigner?: LegacyTokenSigner;
}

export interface RunningControllers {
  stop(): void;
}

function isNotFound(err: unknown): boolean {
  return isStatusError(err) && err.reason === 'NotFound';
}

function isAlreadyExists(err: unknown): boolean {
  return isStatusError(err) && err.reason === 'AlreadyExists';
}

async function unlessNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function unlessExists(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

function namespaceClient(registry: Registry, namespaces: ResourceDefinition): NamespaceLifecycleClient {
  const store = registry.store(namespaces);
  const finalize = store.subresource('finalize');
  if (finalize === undefined) throw new Error('namespaces declare no finalize subresource');
  return {
    getNamespace: (name) => unlessNotFound(store.get({ name })),
    // A kind removed from the catalog mid-sync has nothing left to list or delete here.
    list: async (resource, namespace) => {
      const kind = registry.find(gvrOf(resource));
      return kind === undefined ? [] : (await kind.list({ namespace })).items;
    },
    delete: async (resource, namespace, name) => {
      const kind = registry.find(gvrOf(resource));
      if (kind !== undefined) await unlessNotFound(kind.delete({ namespace, name }));
    },
    finalize: async (ns) => (await unlessNotFound(finalize.update(ns, { name: ns.metadata.name ?? '' })))?.object,
    deleteNamespace: async (name) => {
      await unlessNotFound(store.delete({ name }));
    },
  };
}

function defaultsClient(registry: Registry, kinds: { namespaces: ResourceDefinition; serviceAccounts: ResourceDefinition; configMaps: ResourceDefinition }): NamespaceDefaultsClient {
  const sas = registry.store(kinds.serviceAccounts);
  const cms = registry.store(kinds.configMaps);
  return {
    getNamespace: (name) => cachedGet(registry.store(kinds.namespaces), { name }),
    getServiceAccount: (namespace, name) => cachedGet(sas, { namespace, name }),
    createServiceAccount: (namespace, sa) => unlessExists(sas.create(sa, { namespace })),
    getConfigMap: (namespace, name) => cachedGet(cms, { namespace, name }),
    createConfigMap: (namespace, cm) => unlessExists(cms.create(cm, { namespace })),
    updateConfigMap: async (namespace, cm) => {
      try {
        await cms.update(cm, { namespace, name: cm.metadata.name ?? '' });
      } catch (err) {
        // Another writer (a second replica's controller, a user) changed or removed it
        // since our read: its write is an event on the watch, which syncs this
        // namespace again from what is stored now. Nothing to retry here.
        if (isStatusError(err) && (err.reason === 'Conflict' || err.reason === 'NotFound')) return;
        throw err;
      }
    },
  };
}

/** What starts one named controller; undefined when what it drives is not served or not configured. */
type Starter = (opts: ControllersOptions) => RunningController | undefined;

function served(opts: ControllersOptions, kind: ResourceDefinition): ResourceDefinition | undefined {
  return opts.registry.catalog.find(gvrOf(kind));
}

function runOptions(opts: ControllersOptions, name: string): Pick<KeyedControllerOptions, 'name' | 'registry' | 'logger' | 'retry'> {
  return { name, registry: opts.registry, logger: opts.logger, ...(opts.retry === undefined ? {} : { retry: opts.retry }) };
}

const startNamespaceLifecycle: Starter = (opts) => {
  const namespaces = served(opts, namespacesKind);
  if (namespaces === undefined) return undefined;
  // ContentRemaining is retried with the backoff.
  const lifecycle = createNamespaceController({ client: namespaceClient(opts.registry, namespaces), catalog: opts.registry.catalog });
  return runKeyedController({
    ...runOptions(opts, 'namespace-controller'),
    watches: [{ definition: namespaces, keyOf: (ns) => ns.metadata.name }],
    sync: async (name) => ((await lifecycle.sync(name)) === 'ContentRemaining' ? 'retry' : 'done'),
  });
};

const startServiceAccounts: Starter = (opts) => {
  const namespaces = served(opts, namespacesKind);
  const accounts = served(opts, serviceAccounts);
  const cms = served(opts, configMaps);
  if (namespaces === undefined || accounts === undefined || cms === undefined) return undefined;
  const controller = createDefaultServiceAccountController({ client: defaultsClient(opts.registry, { namespaces, serviceAccounts: accounts, configMaps: cms }) });
  return runKeyedController({
    ...runOptions(opts, 'serviceaccount-controller'),
    watches: [
      { definition: namespaces, keyOf: (ns) => ns.metadata.name },
      // Only the one name matters: other accounts are dropped by key, undecoded.
      { definition: accounts, name: DEFAULT_SERVICE_ACCOUNT, keyOf: (sa) => sa.metadata.namespace },
    ],
    sync: async (name) => {
      await controller.sync(name);
      return 'done';
    },
  });
};

const startRootCaPublisher: Starter = (opts) => {
  const namespaces = served(opts, namespacesKind);
  const accounts = served(opts, serviceAccounts);
  const cms = served(opts, configMaps);
  if (namespaces === undefined || accounts === undefined || cms === undefined || opts.rootCaPem === undefined) return undefined;
  const controller = createRootCaPublisher({ client: defaultsClient(opts.registry, { namespaces, serviceAccounts: accounts, configMaps: cms }), rootCaPem: opts.rootCaPem });
  return runKeyedController({
    ...runOptions(opts, 'root-ca-certificate-publisher-controller'),
    watches: [
      { definition: namespaces, keyOf: (ns) => ns.metadata.name },
      { definition: cms, name: ROOT_CA_CONFIGMAP, keyOf: (cm) => cm.metadata.namespace },
    ],
    sync: async (name) => {
      await controller.sync(name);
      return 'done';
    },
  });
};

const startTokenCleaner: Starter = (opts) => {
  const secrets = served(opts, secretsKind);
  if (secrets === undefined) return undefined;
  const store = opts.registry.store(secrets);
  const now = () => new Date();
  const cleaner = createTokenCleaner({
    now,
    client: {
      getSecret: (name) => cachedGet(store, { namespace: TOKEN_SECRET_NAMESPACE, name }),
      deleteSecret: async (name, uid) => {
        try {
          await store.delete({ namespace: TOKEN_SECRET_NAMESPACE, name, ...(uid === undefined ? {} : { preconditions: { uid } }) });
        } catch (err) {
          // Gone already, or a new Secret under the name (the uid precondition failed): not ours to delete.
          if (!isStatusError(err) || (err.reason !== 'NotFound' && err.reason !== 'Conflict')) throw err;
        }
      },
    },
  });
  return runKeyedController({
    ...runOptions(opts, 'token-cleaner-controller'),
    watches: [{ definition: secrets, keyOf: (s) => (isTokenSecret(s) ? s.metadata.name : undefined) }],
    // A token that expires later syncs again at its expiration (kube's AddAfter).
    sync: async (name) => requeueAt((await cleaner.sync(name)).recheckAt, now()),
  });
};

const startBootstrapSigner: Starter = (opts) => {
  const secrets = served(opts, secretsKind);
  const cms = served(opts, configMaps);
  if (secrets === undefined || cms === undefined) return undefined;
  const secretStore = opts.registry.store(secrets);
  const cmStore = opts.registry.store(cms);
  const now = () => new Date();
  const signer = createBootstrapSigner({
    now,
    client: {
      getClusterInfo: () => cachedGet(cmStore, { namespace: CLUSTER_INFO_NAMESPACE, name: CLUSTER_INFO_NAME }),
      listTokenSecrets: () => cachedList(secretStore, { namespace: TOKEN_SECRET_NAMESPACE }),
      updateClusterInfo: async (cm) => {
        try {
          await cmStore.update(cm, { namespace: CLUSTER_INFO_NAMESPACE, name: CLUSTER_INFO_NAME });
          return 'updated';
        } catch (err) {
          if (isStatusError(err) && (err.reason === 'Conflict' || err.reason === 'NotFound')) return 'conflict';
          throw err;
        }
      },
    },
  });
  return runKeyedController({
    ...runOptions(opts, 'bootstrap-signer-controller'),
    // One key for everything: any change to the ConfigMap or a kube-system Secret re-signs (kube's single-item queue).
    watches: [
      { definition: cms, name: CLUSTER_INFO_NAME, keyOf: (cm) => (cm.metadata.namespace === CLUSTER_INFO_NAMESPACE ? CLUSTER_INFO_KEY : undefined) },
      { definition: secrets, keyOf: (s) => (s.metadata.namespace === TOKEN_SECRET_NAMESPACE ? CLUSTER_INFO_KEY : undefined) },
    ],
    // A Conflict tries again with the backoff; else the first signed token's expiration is looked at again then.
    sync: async () => {
      const { result, recheckAt } = await signer.sync();
      return result === 'Conflict' ? 'retry' : requeueAt(recheckAt, now());
    },
  });
};

const startServiceAccountTokens: Starter = (opts) => {
  const accounts = served(opts, serviceAccounts);
  const secrets = served(opts, secretsKind);
  if (accounts === undefined || secrets === undefined || opts.legacyTokenSigner === undefined) return undefined;
  const controller = createTokensController({
    client: registryTokensClient(opts.registry, { serviceAccounts: accounts, secrets }),
    sign: opts.legacyTokenSigner,
    ...(opts.rootCaPem === undefined ? {} : { rootCaPem: opts.rootCaPem }),
  });
  return runKeyedController({
    ...runOptions(opts, 'serviceaccount-token-controller'),
    watches: [
      { definition: accounts, keyOf: serviceAccountKey },
      // Other Secrets are dropped by key (secretKey answers undefined for them).
      { definition: secrets, keyOf: secretKey },
    ],
    sync: async (key) => {
      await controller.sync(key);
      return 'done';
    },
  });
};

const startClusterRoleAggregation: Starter = (opts) => {
  const clusterRoles = served(opts, clusterRolesKind);
  if (clusterRoles === undefined) return undefined;
  const aggregator = createClusterRoleAggregator({ client: registryClusterRoleClient(opts.registry, clusterRoles), logger: opts.logger });
  return runKeyedController({
    ...runOptions(opts, 'clusterrole-aggregation-controller'),
    // One key: any ClusterRole's change can change what every aggregated role is made of.
    watches: [{ definition: clusterRoles, keyOf: () => 'all' }],
    sync: async () => {
      await aggregator.sync();
      return 'done';
    },
  });
};

/** Every controller kapi runs, by kube-controller-manager's name (controller-names.ts). */
const STARTERS: ReadonlyMap<string, Starter> = new Map<string, Starter>([
  ['namespace-controller', startNamespaceLifecycle],
  ['serviceaccount-controller', startServiceAccounts],
  ['root-ca-certificate-publisher-controller', startRootCaPublisher],
  ['bootstrap-signer-controller', startBootstrapSigner],
  ['token-cleaner-controller', startTokenCleaner],
  ['serviceaccount-token-controller', startServiceAccountTokens],
  ['clusterrole-aggregation-controller', startClusterRoleAggregation],
]);

export function startControllers(opts: ControllersOptions): RunningControllers {
  const list = opts.controllers ?? DEFAULT_CONTROLLERS;
  const running: RunningController[] = [];
  const started: string[] = [];
  for (const { name } of CONTROLLER_NAMES) {
    const start = STARTERS.get(name);
    if (start === undefined || !controllerEnabled(list, name)) continue;
    const controller = start(opts);
    if (controller === undefined) continue;
    running.push(controller);
    started.push(name);
  }
  opts.logger.info({ controllers: started }, 'controllers started');
  return {
    stop() {
      for (const c of running) c.stop();
    },
  };
}
