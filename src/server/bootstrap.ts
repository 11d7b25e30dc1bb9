// Objects every cluster has from its first start, created through the registry
// like any client would (so they get defaults, validation and admission): the
// four namespaces kube-apiserver's system namespaces controller keeps present.
import { isStatusError } from '../errors/status-error.js';
import type { Registry } from '../registry/registry.js';

export const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export async function bootstrapNamespaces(registry: Registry): Promise<void> {
  const namespaces = registry.store({ group: '', version: 'v1', resource: 'namespaces' });
  for (const name of DEFAULT_NAMESPACES) {
    try {
      await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (err) {
      // Present from an earlier start (or another replica): nothing to do.
      if (isStatusError(err) && err.reason === 'AlreadyExists') continue;
      throw err;
    }
  }
}
