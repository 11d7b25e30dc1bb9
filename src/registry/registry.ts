// The registry: every served resource's generic store, looked up by
// group/version/resource or by definition. HTTP handlers and in-process callers
// (bootstrap, controllers) reach storage only through it, so both get the same
// defaulting, validation, admission and error translation.
import { randomInt, randomUUID } from 'node:crypto';
import type { AdmissionChain } from '../admission/chain.js';
import type { AdmissionLookup } from '../admission/plugin.js';
import { isStorageError } from '../errors/storage-error.js';
import type { GroupVersionResource, KubeObject } from '../schema/object.js';
import type { Storage } from '../storage/storage.js';
import type { Allocator } from './allocation.js';
import type { ResourceDefinition } from './define-resource.js';
import { objectKey } from './keys.js';
import { createResourceStore } from './store/index.js';
import type { ResourceStore } from './store/types.js';

export type * from './store/types.js';

export interface RegistryOptions {
  readonly storage: Storage;
  readonly resources: readonly ResourceDefinition[];
  readonly admission: AdmissionChain;
  readonly clock: () => Date;
  readonly uid?: () => string;
  /** generateName's random source (tests make collisions deterministic). */
  readonly random?: (max: number) => number;
  /** What admission reads namespaces through; default: straight from storage. */
  readonly lookup?: AdmissionLookup;
  /** The pool allocator of a kind, if it has one (main.ts wires services to their ranges). */
  readonly allocatorFor?: (definition: ResourceDefinition) => Allocator | undefined;
}

export interface Registry {
  readonly resources: readonly ResourceDefinition[];
  /** The store of a served resource; throws for one that is not served (a caller bug). */
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
  const lookup = opts.lookup ?? namespaceLookup(opts.storage);
  const stores = new Map<string, ResourceStore>();
  for (const definition of opts.resources) {
    const resource = { group: definition.group, resource: definition.plural };
    const allocator = opts.allocatorFor?.(definition);
    stores.set(
      gvrKey({ ...definition, resource: definition.plural }),
      createResourceStore({
        definition,
        storage: opts.storage,
        admission: opts.admission,
        lookup,
        clock: opts.clock,
        uid: opts.uid ?? randomUUID,
        random: opts.random ?? ((max) => randomInt(max)),
        resource,
        gvr: { group: definition.group, version: definition.version, resource: definition.plural },
        gvk: { group: definition.group, version: definition.version, kind: definition.kind },
        ...(allocator === undefined ? {} : { allocator }),
      }),
    );
  }
  const find = (r: GroupVersionResource): ResourceStore | undefined => stores.get(gvrKey(r));
  return {
    resources: opts.resources,
    find,
    store(r) {
      const gvr = 'plural' in r ? { group: r.group, version: r.version, resource: r.plural } : r;
      const found = find(gvr);
      if (found === undefined) throw new Error(`resource ${gvrKey(gvr)} is not registered`);
      return found;
    },
  };
}
