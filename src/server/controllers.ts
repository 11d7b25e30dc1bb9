// The controllers the control plane runs in-process, started by main.ts after the
// bootstrap objects exist and stopped first on shutdown. They reach objects only
// through the registry's stores (DESIGN: the same client interface as any caller),
// so defaulting, validation, admission and finalizers apply to them too.
// Each runs on controller-runner.ts: namespace lifecycle (deleting a namespace's
// contents) and namespace defaults (the `default` service account and the
// kube-root-ca.crt config map in every namespace).
import { createNamespaceController, type NamespaceLifecycleClient } from '../controllers/namespace-lifecycle.js';
import { isStatusError } from '../errors/status-error.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { Registry } from '../registry/registry.js';
import { runKeyedController, type ControllerLogger, type RetryPolicy, type RunningController } from './controller-runner.js';
import {
  DEFAULT_SERVICE_ACCOUNT,
  ROOT_CA_CONFIGMAP,
  createNamespaceDefaultsController,
  type NamespaceDefaultsClient,
} from '../controllers/namespace-defaults.js';

export type { ControllerLogger, RetryPolicy } from './controller-runner.js';

export interface ControllersOptions {
  readonly registry: Registry;
  readonly resources: readonly ResourceDefinition[];
  readonly logger: ControllerLogger;
  readonly retry?: RetryPolicy;
  /** PEM that verifies the API server, published in every namespace as kube-root-ca.crt. */
  readonly rootCaPem?: string;
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
    list: async (resource, namespace) => (await registry.store(resource).list({ namespace })).items,
    delete: async (resource, namespace, name) => {
      await unlessNotFound(registry.store(resource).delete({ namespace, name }));
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

function find(resources: readonly ResourceDefinition[], plural: string): ResourceDefinition | undefined {
  return resources.find((r) => r.group === '' && r.version === 'v1' && r.plural === plural);
}

export function startControllers(opts: ControllersOptions): RunningControllers {
  const namespaces = find(opts.resources, 'namespaces');
  const running: RunningController[] = [];
  if (namespaces !== undefined) {
    // Namespace lifecycle: ContentRemaining is retried with the backoff.
    const lifecycle = createNamespaceController({ client: namespaceClient(opts.registry, namespaces), resources: opts.resources });
    running.push(
      runKeyedController({
        name: 'namespace-lifecycle',
        registry: opts.registry,
        logger: opts.logger,
        ...(opts.retry === undefined ? {} : { retry: opts.retry }),
        watches: [{ definition: namespaces, keyOf: (ns) => ns.metadata.name }],
        sync: async (name) => ((await lifecycle.sync(name)) === 'ContentRemaining' ? 'retry' : 'done'),
      }),
    );
  }
  const serviceAccounts = find(opts.resources, 'serviceaccounts');
  const configMaps = find(opts.resources, 'configmaps');
  if (namespaces !== undefined && serviceAccounts !== undefined && configMaps !== undefined && opts.rootCaPem !== undefined) {
    const defaults = createNamespaceDefaultsController({ client: defaultsClient(opts.registry, { namespaces, serviceAccounts, configMaps }), rootCaPem: opts.rootCaPem });
    running.push(
      runKeyedController({
        name: 'namespace-defaults',
        registry: opts.registry,
        logger: opts.logger,
        ...(opts.retry === undefined ? {} : { retry: opts.retry }),
        watches: [
          { definition: namespaces, keyOf: (ns) => ns.metadata.name },
          // Only the two names matter: other accounts and config maps are dropped by key, undecoded.
          { definition: serviceAccounts, name: DEFAULT_SERVICE_ACCOUNT, keyOf: (sa) => sa.metadata.namespace },
          { definition: configMaps, name: ROOT_CA_CONFIGMAP, keyOf: (cm) => cm.metadata.namespace },
        ],
        sync: async (name) => {
          await defaults.sync(name);
          return 'done';
        },
      }),
    );
  }
  opts.logger.info({ controllers: running.length }, 'controllers started');
  return {
    stop() {
      for (const c of running) c.stop();
    },
  };
}
