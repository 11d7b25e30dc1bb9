// NodeRestriction (admission/plugins/node-restriction/) over this server's state:
// the objects it reads come from the watch cache ("Any" reads, as kube's informers
// would answer), the audience check asks the server's authorizer, and CSR subjects
// are read with the PKI library. main.ts adds it when the Node mode is on, as
// kubeadm enables the plugin beside that mode.
import type { AdmissionPlugin } from '../../../admission/plugin.js';
import { nodeRestriction } from '../../../admission/plugins/node-restriction/index.js';
import type { Authorizer } from '../../../auth/authz/authorizer.js';
import { csrCommonName } from '../../../auth/pki/csr.js';
import { isStorageError } from '../../../errors/storage-error.js';
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { objectKey } from '../../../registry/keys.js';
import type { KubeObject } from '../../../schema/object.js';
import type { Storage } from '../../../storage/storage.js';
import { csiDrivers } from '../../storage/v1/csi-drivers.js';
import { nodes } from './nodes.js';
import { persistentVolumeClaims } from './persistent-volume-claims.js';
import { persistentVolumes } from './persistent-volumes.js';
import { pods } from './pods.js';

export function nodeRestrictionFromStorage(storage: Storage, authorizer: Authorizer): AdmissionPlugin {
  const read = async (def: ResourceDefinition, namespace: string, name: string): Promise<KubeObject | undefined> => {
    try {
      return await storage.get(objectKey(def, { namespace, name }), { resourceVersion: '0' });
    } catch (err) {
      if (isStorageError(err, 'NotFound')) return undefined;
      throw err;
    }
  };
  return nodeRestriction({
    lookup: {
      getPod: (namespace, name) => read(pods, namespace, name),
      getNode: (name) => read(nodes, '', name),
      getPersistentVolumeClaim: (namespace, name) => read(persistentVolumeClaims, namespace, name),
      getPersistentVolume: (name) => read(persistentVolumes, '', name),
      getCSIDriver: (name) => read(csiDrivers, '', name),
    },
    // kube's plugin asks its authorizer exactly this (verb request-serviceaccounts-token-audience).
    authorizeAudience: async (req) => {
      const { decision, error } = await authorizer({
        user: req.user,
        verb: 'request-serviceaccounts-token-audience',
        isResourceRequest: true,
        path: '',
        namespace: req.namespace,
        apiGroup: '',
        apiVersion: 'v1',
        resource: req.audience,
        subresource: '',
        name: req.serviceAccount,
      });
      return { allowed: decision === 'Allow', ...(error === undefined ? {} : { error }) };
    },
    csrCommonName,
  });
}
