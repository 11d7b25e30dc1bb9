// The live set of served resources. Built-in groups add their definitions at
// start and custom resources add and remove theirs while the server runs; every
// consumer (the registry's stores, routing, discovery, OpenAPI, controllers) reads
// the catalog when it needs the set, or subscribes to hear of changes. A
// resource is its group/version/plural: one definition each.
import type { GroupVersionResource } from '../schema/object.js';
import type { ResourceDefinition } from './define-resource.js';

export interface CatalogChange {
  readonly type: 'added' | 'removed';
  readonly definition: ResourceDefinition;
  /** The catalog's revision with this change applied. */
  readonly revision: number;
}

/**
 * Told of each change after it is visible (list() and find() already answer the
 * new set), synchronously, in subscription order. A listener must not throw: one
 * that does is reported to the caller of add/remove only after every other
 * listener has been told.
 */
export type CatalogListener = (change: CatalogChange) => void;

export interface Catalog {
  /** Moves (by one) on every add and remove; equal revisions mean the same set. */
  readonly revision: number;
  /** Serves a definition. Throws when its group/version/plural is served already (a caller bug: remove first). */
  add(definition: ResourceDefinition): void;
  /** Stops serving a resource; answers the definition removed, undefined (and no change) when it was not served. */
  remove(resource: GroupVersionResource | ResourceDefinition): ResourceDefinition | undefined;
  /** Every served definition in the order they were added (discovery's order); one frozen array per revision. */
  list(): readonly ResourceDefinition[];
  find(resource: GroupVersionResource): ResourceDefinition | undefined;
  /** Answers the unsubscribe function; calling it twice is harmless. */
  subscribe(listener: CatalogListener): () => void;
}

/** The group/version/resource a definition is served at. */
export function gvrOf(definition: ResourceDefinition): GroupVersionResource {
  return { group: definition.group, version: definition.version, resource: definition.plural };
}

function keyOf(r: GroupVersionResource): string {
  return `${r.group}/${r.version}/${r.resource}`;
}

function toGvr(r: GroupVersionResource | ResourceDefinition): GroupVersionResource {
  return 'plural' in r ? gvrOf(r) : r;
}

export function createCatalog(initial: readonly ResourceDefinition[] = []): Catalog {
  // A Map keeps insertion order, which is the order list() answers.
  const byKey = new Map<string, ResourceDefinition>();
  const listeners = new Set<CatalogListener>();
  let revision = 0;
  let listed: readonly ResourceDefinition[] | undefined;

  const notify = (change: CatalogChange): void => {
    const errors: unknown[] = [];
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch (err) {
        // Every listener hears of the change; the failure goes to the caller after.
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} catalog listeners failed`);
  };

  const catalog: Catalog = {
    get revision() {
      return revision;
    },
    add(definition) {
      const key = keyOf(gvrOf(definition));
      if (byKey.has(key)) throw new Error(`resource ${key} is already in the catalog`);
      byKey.set(key, definition);
      listed = undefined;
      notify({ type: 'added', definition, revision: ++revision });
    },
    remove(resource) {
      const key = keyOf(toGvr(resource));
      const definition = byKey.get(key);
      if (definition === undefined) return undefined;
      byKey.delete(key);
      listed = undefined;
      notify({ type: 'removed', definition, revision: ++revision });
      return definition;
    },
    list() {
      return (listed ??= Object.freeze([...byKey.values()]));
    },
    find(resource) {
      return byKey.get(keyOf(resource));
    },
    subscribe(listener) {
      // A wrapper, so subscribing one function twice gives two independent subscriptions.
      const entry: CatalogListener = (change) => listener(change);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
  };
  for (const definition of initial) catalog.add(definition);
  return catalog;
}
