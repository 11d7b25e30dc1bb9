// Discovery documents, built from a list of resource definitions (routes.ts builds
// them again for each catalog revision): the legacy shapes (/api, /apis, /api/v1,
// /apis/<g>/<v>) and aggregated discovery (apidiscovery.k8s.io v2 and v2beta1:
// same shape, different apiVersion). Clients
// drop resources without responseKind, and `auth can-i` always reads the legacy
// per-group-version list to learn whether a resource is namespaced.
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../../registry/define-resource.js';
import type { Verb } from '../../schema/api-resource.js';
import { apiVersionOf } from '../../schema/object.js';

export interface GroupVersionKey {
  readonly group: string;
  readonly version: string;
}

interface ApiResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: Verb[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

/** kube-apiserver's storageVersionHash: first 8 bytes of sha256("<group>/<version>/<kind>"), base64. */
function storageVersionHash(def: ResourceDefinition): string {
  const digest = createHash('sha256').update(`${apiVersionOf(def)}/${def.kind}`).digest();
  return digest.subarray(0, 8).toString('base64');
}

function sortedVerbs(verbs: readonly Verb[]): Verb[] {
  return [...verbs].sort();
}

function legacyResources(defs: readonly ResourceDefinition[]): ApiResource[] {
  const out: ApiResource[] = [];
  for (const def of defs) {
    const main: ApiResource = {
      name: def.plural,
      singularName: def.singular,
      namespaced: def.scope === 'Namespaced',
      kind: def.kind,
      verbs: sortedVerbs(def.verbs),
    };
    if (def.shortNames.length > 0) main.shortNames = [...def.shortNames];
    if (def.categories.length > 0) main.categories = [...def.categories];
    // Only stored kinds have a storage version (kube: the generic store's StorageVersionProvider).
    if (def.virtualCreate === undefined && def.virtualRead === undefined) main.storageVersionHash = storageVersionHash(def);
    out.push(main);
    for (const [name, sub] of Object.entries(def.subresources)) {
      const entry: ApiResource = {
        name: `${def.plural}/${name}`,
        singularName: '',
        namespaced: def.scope === 'Namespaced',
        kind: sub.responseKind?.kind ?? def.kind,
        verbs: sortedVerbs(sub.verbs),
      };
      if (sub.responseKind !== undefined) {
        entry.group = sub.responseKind.group;
        entry.version = sub.responseKind.version;
      }
      out.push(entry);
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function aggregatedResource(def: ResourceDefinition): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    resource: def.plural,
    responseKind: { group: def.group, version: def.version, kind: def.kind },
    scope: def.scope,
    singularResource: def.singular,
    verbs: sortedVerbs(def.verbs),
  };
  if (def.shortNames.length > 0) resource.shortNames = [...def.shortNames];
  if (def.categories.length > 0) resource.categories = [...def.categories];
  const subs = Object.entries(def.subresources).sort(([a], [b]) => (a < b ? -1 : 1));
  if (subs.length > 0) {
    resource.subresources = subs.map(([name, sub]) => ({
      subresource: name,
      responseKind: sub.responseKind ?? { group: def.group, version: def.version, kind: def.kind },
      verbs: sortedVerbs(sub.verbs),
    }));
  }
  return resource;
}

export interface DiscoveryDocuments {
  /** GET /api (legacy). */
  readonly apiVersions: object;
  /** GET /apis (legacy). */
  readonly apiGroupList: object;
  /** GET /apis/<group> (legacy), keyed by group. */
  readonly apiGroups: ReadonlyMap<string, object>;
  /** GET /api/v1, /apis/<g>/<v>, keyed by "<g>/<v>" ("/v1" for core). */
  readonly resourceLists: ReadonlyMap<string, object>;
  /** Aggregated discovery lists without apiVersion: for /api and for /apis. */
  readonly aggregatedCore: { readonly items: object[] };
  readonly aggregatedGroups: { readonly items: object[] };
}

export function gvKey(gv: GroupVersionKey): string {
  return `${gv.group}/${gv.version}`;
}

/**
 * Groups in the order kube-apiserver lists them: core first, then the order of the
 * definitions. Versions in a group: order of first appearance, which is the
 * preference order (first = preferred).
 */
export function buildDiscovery(defs: readonly ResourceDefinition[], serverAddress: string): DiscoveryDocuments {
  const byGroup = new Map<string, Map<string, ResourceDefinition[]>>();
  for (const def of defs) {
    const versions = byGroup.get(def.group) ?? new Map<string, ResourceDefinition[]>();
    byGroup.set(def.group, versions);
    const list = versions.get(def.version) ?? [];
    versions.set(def.version, list);
    list.push(def);
  }

  const resourceLists = new Map<string, object>();
  for (const [group, versions] of byGroup) {
    for (const [version, list] of versions) {
      resourceLists.set(gvKey({ group, version }), {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: apiVersionOf({ group, version }),
        resources: legacyResources(list),
      });
    }
  }

  const coreVersions = [...(byGroup.get('')?.keys() ?? [])];
  const apiVersions = {
    kind: 'APIVersions',
    versions: coreVersions,
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };

  const apiGroups = new Map<string, object>();
  const groupEntries: object[] = [];
  const aggregatedGroups: object[] = [];
  for (const [group, versions] of byGroup) {
    if (group === '') continue;
    const versionEntries = [...versions.keys()].map((version) => ({ groupVersion: `${group}/${version}`, version }));
    const entry = { name: group, versions: versionEntries, preferredVersion: versionEntries[0]! };
    groupEntries.push(entry);
    apiGroups.set(group, { kind: 'APIGroup', apiVersion: 'v1', ...entry });
    aggregatedGroups.push(aggregatedGroup(group, versions));
  }
  const apiGroupList = { kind: 'APIGroupList', apiVersion: 'v1', groups: groupEntries };

  const core = byGroup.get('');
  return {
    apiVersions,
    apiGroupList,
    apiGroups,
    resourceLists,
    aggregatedCore: { items: core === undefined ? [] : [aggregatedGroup('', core)] },
    aggregatedGroups: { items: aggregatedGroups },
  };
}

function aggregatedGroup(group: string, versions: Map<string, ResourceDefinition[]>): object {
  return {
    metadata: group === '' ? { creationTimestamp: null } : { name: group, creationTimestamp: null },
    versions: [...versions].map(([version, list]) => ({
      version,
      resources: [...list].sort((a, b) => (a.plural < b.plural ? -1 : 1)).map(aggregatedResource),
      freshness: 'Current',
    })),
  };
}
