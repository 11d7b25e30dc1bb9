// The controllers the control plane runs in-process, started by main.ts after the
// bootstrap objects exist and stopped first on shutdown. They reach objects only
// through the registry's stores (DESIGN: the same client interface as any caller),
// so defaulting, validation, admission and finalizers apply to them too.
// Each runs on controller-runner.ts under kube-controller-manager's name, and
// --controllers picks them (controller-names.ts): namespace-controller (deleting a
// namespace's contents), serviceaccount-controller (the `default` service account
// in every namespace), root-ca-certificate-publisher-controller (kube-root-ca.crt
// in every namespace). The kinds they drive are looked
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
    getNamespace: (name) => unlessNotFound(registry.store(kinds.namespaces).get({ name })),
    getServiceAccount: (namespace, name) => unlessNotFound(sas.get({ namespace, name })),
    createServiceAccount: (namespace, sa) => unlessExists(sas.create(sa, { namespace })),
    getConfigMap: (namespace, name) => unlessNotFound(cms.get({ namespace, name })),
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

/** Every controller kapi runs, by kube-controller-manager's name (controller-names.ts). */
const STARTERS: ReadonlyMap<string, Starter> = new Map<string, Starter>([
  ['namespace-controller', startNamespaceLifecycle],
  ['serviceaccount-controller', startServiceAccounts],
  ['root-ca-certificate-publisher-controller', startRootCaPublisher],
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
