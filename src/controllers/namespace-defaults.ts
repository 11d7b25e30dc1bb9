// What every active namespace holds in a kube cluster besides what users put
// there: the `default` ServiceAccount (kube's serviceaccounts controller) and the
// `kube-root-ca.crt` ConfigMap with the CA that verifies the API server (kube's
// root-ca-cert-publisher). Deleted ones come back; a changed CA bundle is put
// back. Namespaces being deleted are left alone. They are two controllers, as in
// kube (each can be switched off with --controllers); server/controllers.ts runs
// each one's sync for a namespace on its events and on those of its object.
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

/** An active namespace: present and not being deleted. */
async function active(client: NamespaceDefaultsClient, name: string): Promise<boolean> {
  const ns = await client.getNamespace(name);
  return ns !== undefined && ns.metadata.deletionTimestamp === undefined;
}

/** kube's serviceaccount-controller: the `default` ServiceAccount in every active namespace. */
export function createDefaultServiceAccountController(opts: { client: NamespaceDefaultsClient }): NamespaceDefaultsController {
  const { client } = opts;
  return {
    async sync(name) {
      if (!(await active(client, name))) return;
      if ((await client.getServiceAccount(name, DEFAULT_SERVICE_ACCOUNT)) !== undefined) return;
      await client.createServiceAccount(name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT } });
    },
  };
}

/** kube's root-ca-certificate-publisher-controller: `kube-root-ca.crt` in every active namespace. */
export function createRootCaPublisher(opts: { client: NamespaceDefaultsClient; rootCaPem: string }): NamespaceDefaultsController {
  const { client } = opts;
  return {
    async sync(name) {
      if (!(await active(client, name))) return;
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
