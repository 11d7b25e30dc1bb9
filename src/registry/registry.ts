// The registry: the generic store of every resource the catalog serves, looked up
// by group/version/resource or by definition. HTTP handlers and in-process callers
// (bootstrap, controllers) reach storage only through it, so both get the same
// defaulting, validation, admission and error translation. Stores are built on
// first use and dropped when the catalog removes their definition.
import { randomInt, randomUUID } from 'node:crypto';
import type { AdmissionChain } from '../admission/chain.js';
import type { AdmissionLookup } from '../admission/plugin.js';
import { isStorageError } from '../errors/storage-error.js';
import type { GroupVersionResource, KubeObject } from '../schema/object.js';
import type { Storage } from '../storage/storage.js';
import { createCatalog, gvrOf, type Catalog } from './catalog.js';
import type { ResourceDefinition } from './define-resource.js';
import { objectKey } from './keys.js';
import { createResourceStore } from './store/index.js';
import type { ResourceStore } from './store/types.js';
import { createVersionCodec } from './store/version-codec.js';

export type * from './store/types.js';

interface RegistryBaseOptions {
  readonly storage: Storage;
  readonly admission: AdmissionChain;
  readonly clock: () => Date;
  readonly uid?: () => string;
  /** generateName's random source (tests make collisions deterministic). */
  readonly random?: (max: number) => number;
  /** What admission reads namespaces through; default: straight from storage. */
  readonly lookup?: AdmissionLookup;
}

/**
 * The served set is a catalog (main.ts passes the one it composed); `resources`
 * builds a catalog of a fixed list, for tests and tools.
 */
export type RegistryOptions = RegistryBaseOptions &
  ({ readonly catalog: Catalog; readonly resources?: never } | { readonly resources: readonly ResourceDefinition[]; readonly catalog?: never });

export interface Registry {
  /** What is served; stores follow it (built on first use, dropped when their definition goes). */
  readonly catalog: Catalog;
  /**
   * The store of a served resource; throws for one that is not served (a caller
   * bug). A definition is looked up by its group/version/plural, so the store
   * answered is that of the definition the catalog serves there.
   */
  store(resource: GroupVersionResource | ResourceDefinition): ResourceStore;
  /** Like store(), but undefined when the resource is not served (HTTP lookups). */
  find(resource: GroupVersionResource): ResourceStore | undefined;
}

function gvrKey(r: { group: string; version: string; resource: string }): string {
  return `${r.group}/${r.version}/${r.resource}`;
}

const NAMESPACES = { group: '', plural: 'namespaces', scope: 'Cluster' } as const;

/** Reads a namespace straight from storage: admission must see it even mid-deletion. */
export function namespaceLookup(storage: Storage): AdmissionLookup {
  return {
    async getNamespace(name: string): Promise<KubeObject | undefined> {
      try {
        return await storage.get(objectKey(NAMESPACES, { name }));
      } catch (err) {
        if (isStorageError(err, 'NotFound')) return undefined;
        throw err;
      }
    },
  };
}

export function createRegistry(opts: RegistryOptions): Registry {
  const catalog = opts.catalog ?? createCatalog(opts.resources);
  const lookup = opts.lookup ?? namespaceLookup(opts.storage);
  const uid = opts.uid ?? randomUUID;
  const random = opts.random ?? ((max: number) => randomInt(max));
  // By definition, not by name: a resource removed and added again with another
  // definition gets a new store. Watches already open on an old store keep it.
  const stores = new Map<ResourceDefinition, ResourceStore>();
  catalog.subscribe((change) => {
    if (change.type === 'removed') stores.delete(change.definition);
  });

  const build = (definition: ResourceDefinition): ResourceStore => {
    // A converted version runs on its stored version's keys, strategy and
    // allocator, through its codec; errors and admission name the resource the
    // client asked for.
    const codec = createVersionCodec(definition);
    const stored = codec.stored;
    const allocator = stored.allocator;
    return createResourceStore({
      definition: stored,
      codec,
      storage: opts.storage,
      admission: opts.admission,
      lookup,
      clock: opts.clock,
      uid,
      random,
      resource: { group: definition.group, resource: definition.plural },
      gvr: gvrOf(definition),
      gvk: { group: definition.group, version: definition.version, kind: definition.kind },
      ...(allocator === undefined ? {} : { allocator }),
    });
  };

  const find = (r: GroupVersionResource): ResourceStore | undefined => {
    const definition = catalog.find(r);
    if (definition === undefined) return undefined;
    let store = stores.get(definition);
    if (store === undefined) {
      store = build(definition);
      stores.set(definition, store);
    }
    return store;
  };
  return {
    catalog,
    find,
    store(r) {
      const gvr = 'plural' in r ? gvrOf(r) : r;
      const found = find(gvr);
      if (found === undefined) throw new Error(`resource ${gvrKey(gvr)} is not registered`);
      return found;
    },
  };
}
