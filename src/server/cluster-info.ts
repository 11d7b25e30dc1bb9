// The ConfigMap kube-public/cluster-info that `kubeadm join --token` reads
// anonymously (kubeadm's Role and RoleBinding in the bootstrap policy let system:anonymous get it): its
// `kubeconfig` value is what kubeadm's bootstrap-token phase writes
// (clusterinfo.CreateBootstrapConfigMapIfNotExists: clientcmd.Write of a Config
// holding only the admin kubeconfig's cluster, under the name ""), here with kapi's
// URL and the CA that verifies it. Ensured at every start (ensure.ts): created when
// absent, its `kubeconfig` put back when it differs, every other key (the bootstrap
// signer's jws-kubeconfig-<id>, anything a user added) left as it is.
import { configMaps } from '../apis/core/v1/index.js';
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE, KUBECONFIG_KEY } from '../controllers/bootstrap-tokens.js';
import { isStatusError } from '../errors/status-error.js';
import type { Registry } from '../registry/registry.js';
import type { KubeObject } from '../schema/object.js';
import { ensureObject, type EnsureAction, type EnsureOptions } from './ensure.js';

export interface ClusterInfoOptions {
  /** The URL clients dial (the one admin.kubeconfig names). */
  readonly serverUrl: string;
  /** PEM that verifies the serving certificate. */
  readonly caPem: string;
}

/** A plain YAML scalar when it is unambiguous (as go-yaml writes a URL), else double-quoted. */
function scalar(value: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[A-Za-z0-9.:[\]_-]+(\/[A-Za-z0-9._~/-]*)?$/.test(value) ? value : JSON.stringify(value);
}

/**
 * clientcmd.Write's bytes for that Config: sigs.k8s.io/yaml sorts the keys, nil
 * lists are `null`, the empty preferences `{}`, the empty name `""`.
 */
export function clusterInfoKubeconfig(opts: ClusterInfoOptions): string {
  const ca = Buffer.from(opts.caPem, 'utf8').toString('base64');
  return [
    'apiVersion: v1',
    'clusters:',
    '- cluster:',
    `    certificate-authority-data: ${ca}`,
    `    server: ${scalar(opts.serverUrl)}`,
    '  name: ""',
    'contexts: null',
    'current-context: ""',
    'kind: Config',
    'preferences: {}',
    'users: null',
    '',
  ].join('\n');
}

function kubeconfigOf(cm: KubeObject): unknown {
  const data = cm.data;
  return data !== null && typeof data === 'object' && Object.hasOwn(data, KUBECONFIG_KEY) ? (data as Record<string, unknown>)[KUBECONFIG_KEY] : undefined;
}

export async function ensureClusterInfo(registry: Registry, opts: ClusterInfoOptions, ensure: EnsureOptions = {}): Promise<EnsureAction> {
  const store = registry.store(configMaps);
  const at = { namespace: CLUSTER_INFO_NAMESPACE, name: CLUSTER_INFO_NAME };
  const kubeconfig = clusterInfoKubeconfig(opts);
  const fresh = (): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CLUSTER_INFO_NAME }, data: { [KUBECONFIG_KEY]: kubeconfig } });
  const result = await ensureObject(
    {
      what: `configmap ${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_NAME}`,
      read: async () => {
        try {
          return await store.get(at);
        } catch (err) {
          if (isStatusError(err) && err.reason === 'NotFound') return undefined;
          throw err;
        }
      },
      create: () => store.create(fresh(), { namespace: CLUSTER_INFO_NAMESPACE }),
      repair: (current) => {
        if (kubeconfigOf(current) === kubeconfig) return undefined;
        const data = { ...((current.data ?? {}) as Record<string, unknown>) };
        Object.defineProperty(data, KUBECONFIG_KEY, { value: kubeconfig, enumerable: true, writable: true, configurable: true });
        return { ...structuredClone(current), data };
      },
      update: async (next) => {
        // An immutable copy cannot be corrected in place: replace that exact one
        // (uid precondition); the signer re-signs the new one.
        if (next.immutable === true) {
          await store.delete({ ...at, preconditions: { uid: next.metadata.uid ?? '' } });
          return store.create(fresh(), { namespace: CLUSTER_INFO_NAMESPACE });
        }
        return store.update(next, at);
      },
    },
    ensure,
  );
  return result.action;
}
