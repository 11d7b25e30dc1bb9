// Storage keys for objects, as kube-apiserver lays them out under its prefix (the
// KV backends add `/registry`): core resources directly by resource name, other
// groups under the group name, the namespace segment only for namespaced kinds.
// Collection prefixes end in "/" so `pods/a` never lists `pods/ab`.
import type { ResourceDefinition } from './define-resource.js';

type Keyed = Pick<ResourceDefinition, 'group' | 'plural' | 'scope'>;

function resourceRoot(def: Keyed): string {
  return def.group === '' ? `/${def.plural}` : `/${def.group}/${def.plural}`;
}

/** The key of one object; `namespace` is ignored for cluster-scoped kinds. */
export function objectKey(def: Keyed, opts: { namespace?: string; name: string }): string {
  if (def.scope === 'Cluster') return `${resourceRoot(def)}/${opts.name}`;
  return `${resourceRoot(def)}/${opts.namespace ?? ''}/${opts.name}`;
}

/** The prefix of a collection: one namespace, or all of them when namespace is ''. */
export function collectionPrefix(def: Keyed, opts: { namespace?: string } = {}): string {
  const ns = opts.namespace ?? '';
  if (def.scope === 'Cluster' || ns === '') return `${resourceRoot(def)}/`;
  return `${resourceRoot(def)}/${ns}/`;
}
