// What every active namespace holds in a kube cluster besides what users put
// there: the `default` ServiceAccount (kube's serviceaccounts controller) and the
// `kube-root-ca.crt` ConfigMap with the CA that verifies the API server (kube's
// root-ca-cert-publisher). Deleted ones come back; a changed CA bundle is put
// back. Namespaces being deleted are left alone. server/controllers.ts runs sync
// for a namespace on its own events and on those of the two objects.
import type { KubeObject } from '../schema/object.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const ROOT_CA_KEY = 'ca.crt';

/** What the controller needs from the registry; each method is one API call. */
export interface NamespaceDefaultsClient {
  getNamespace(name: string): Promise<KubeObject | undefined>;
  getServiceAccount(namespace: string, name: string): Promise<KubeObject | undefined>;
  /** Create; an AlreadyExists answer is success (another writer got there first). */
  createServiceAccount(namespace: string, sa: KubeObject): Promise<void>;
  getConfigMap(namespace: string, name: string): Promise<KubeObject | undefined>;
  createConfigMap(namespace: string, cm: KubeObject): Promise<void>;
  /** PUT with the resourceVersion read: a Conflict means try again later. */
  updateConfigMap(namespace: string, cm: KubeObject): Promise<void>;
}

export interface NamespaceDefaultsController {
  sync(namespace: string): Promise<void>;
}

const CA_DESCRIPTION =
  'The CA bundle that verifies this cluster\'s API server at its in-cluster addresses (the kubernetes service IP, kubernetes.default.svc). Not meant for anything else.';

export function createNamespaceDefaultsController(opts: { client: NamespaceDefaultsClient; rootCaPem: string }): NamespaceDefaultsController {
  const { client } = opts;
  return {
    async sync(name) {
      const ns = await client.getNamespace(name);
      if (ns === undefined || ns.metadata.deletionTimestamp !== undefined) return;
      if ((await client.getServiceAccount(name, DEFAULT_SERVICE_ACCOUNT)) === undefined) {
        await client.createServiceAccount(name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT } });
      }
      const cm = await client.getConfigMap(name, ROOT_CA_CONFIGMAP);
      if (cm === undefined) {
        await client.createConfigMap(name, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, annotations: { 'kubernetes.io/description': CA_DESCRIPTION } },
          data: { [ROOT_CA_KEY]: opts.rootCaPem },
        } as KubeObject);
        return;
      }
      const data = (cm as { data?: Record<string, string> }).data ?? {};
      if (data[ROOT_CA_KEY] === opts.rootCaPem && Object.keys(data).length === 1) return;
      await client.updateConfigMap(name, { ...cm, data: { [ROOT_CA_KEY]: opts.rootCaPem } } as KubeObject);
    },
  };
}
