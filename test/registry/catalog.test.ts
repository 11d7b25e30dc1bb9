// The live resource catalog (registry/catalog.ts) and the registry's stores
// following it: definitions added and removed at run time (issue #9, item 3).
// What HTTP serves from it is test/endpoints/catalog.test.ts.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createCatalog, gvrOf, type CatalogChange } from '../../src/registry/catalog.js';
import { defineResource, type ResourceDefinition } from '../../src/registry/define-resource.js';
import { createHarness, type Harness } from '../endpoints/harness.js';
import { gadgets, widgets } from '../support/example-group.js';

const gizmos = defineResource({ group: 'example.test', version: 'v1', kind: 'Gizmo', plural: 'gizmos', scope: 'Cluster' });

describe('catalog', () => {
  test('add, find and list; the revision moves once per change', () => {
    const catalog = createCatalog();
    expect(catalog.revision).toBe(0);
    catalog.add(widgets);
    catalog.add(gadgets);
    expect(catalog.revision).toBe(2);
    expect(catalog.find(gvrOf(widgets))).toBe(widgets);
    expect(catalog.find({ group: 'example.test', version: 'v1', resource: 'nothings' })).toBeUndefined();
    expect(catalog.list()).toEqual([widgets, gadgets]);
    expect(catalog.remove(widgets)).toBe(widgets);
    expect(catalog.revision).toBe(3);
    expect(catalog.find(gvrOf(widgets))).toBeUndefined();
    expect(catalog.list()).toEqual([gadgets]);
  });

  test('list is one frozen array per revision', () => {
    const catalog = createCatalog([widgets]);
    const first = catalog.list();
    expect(Object.isFrozen(first)).toBe(true);
    expect(catalog.list()).toBe(first);
    catalog.add(gadgets);
    expect(catalog.list()).not.toBe(first);
    expect(first).toEqual([widgets]);
  });

  const refusals: { name: string; duplicate: ResourceDefinition }[] = [
    { name: 'the same definition again', duplicate: widgets },
    { name: 'another definition at the same group/version/plural', duplicate: defineResource({ ...widgets, kind: 'Other' }) },
  ];
  for (const c of refusals) {
    test(`add refuses ${c.name}, and nothing changes`, () => {
      const catalog = createCatalog([widgets]);
      const heard: CatalogChange[] = [];
      catalog.subscribe((change) => heard.push(change));
      expect(() => catalog.add(c.duplicate)).toThrow('resource example.test/v1/widgets is already in the catalog');
      expect(catalog.revision).toBe(1);
      expect(catalog.find(gvrOf(widgets))).toBe(widgets);
      expect(heard).toEqual([]);
    });
  }

  test('remove of a resource that is not served answers undefined and changes nothing', () => {
    const catalog = createCatalog([widgets]);
    const heard: CatalogChange[] = [];
    catalog.subscribe((change) => heard.push(change));
    expect(catalog.remove(gadgets)).toBeUndefined();
    expect(catalog.remove({ group: 'example.test', version: 'v2', resource: 'widgets' })).toBeUndefined();
    expect(catalog.revision).toBe(1);
    expect(catalog.list()).toEqual([widgets]);
    expect(heard).toEqual([]);
  });

  test('listeners hear each change once it is visible, in order, until they unsubscribe', () => {
    const catalog = createCatalog();
    const heard: { change: CatalogChange; served: string[] }[] = [];
    const unsubscribe = catalog.subscribe((change) => heard.push({ change, served: catalog.list().map((d) => d.plural) }));
    catalog.add(widgets);
    catalog.add(gadgets);
    catalog.remove(widgets);
    unsubscribe();
    unsubscribe();
    catalog.add(gizmos);
    expect(heard).toEqual([
      { change: { type: 'added', definition: widgets, revision: 1 }, served: ['widgets'] },
      { change: { type: 'added', definition: gadgets, revision: 2 }, served: ['widgets', 'gadgets'] },
      { change: { type: 'removed', definition: widgets, revision: 3 }, served: ['gadgets'] },
    ]);
  });

  test('a listener that throws does not keep the change from the others; the caller gets the error', () => {
    const catalog = createCatalog();
    const heard: string[] = [];
    catalog.subscribe(() => heard.push('first'));
    catalog.subscribe(() => {
      throw new Error('listener bug');
    });
    catalog.subscribe(() => heard.push('third'));
    expect(() => catalog.add(widgets)).toThrow('listener bug');
    expect(heard).toEqual(['first', 'third']);
    expect(catalog.find(gvrOf(widgets))).toBe(widgets);
  });
});

describe('the registry follows its catalog', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  test('a store exists only while its definition is served, and is that definition\'s', () => {
    const { registry } = h;
    expect(registry.find(gvrOf(gizmos))).toBeUndefined();
    expect(() => registry.store(gizmos)).toThrow('resource example.test/v1/gizmos is not registered');
    registry.catalog.add(gizmos);
    const store = registry.store(gizmos);
    expect(store.definition).toBe(gizmos);
    expect(registry.find(gvrOf(gizmos))).toBe(store);
    registry.catalog.remove(gizmos);
    expect(registry.find(gvrOf(gizmos))).toBeUndefined();
    // Added again with another definition: a new store of the new definition.
    const renamed = defineResource({ ...gizmos, shortNames: ['gz'] });
    registry.catalog.add(renamed);
    expect(registry.store(gizmos).definition).toBe(renamed);
  });
});
