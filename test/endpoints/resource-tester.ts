// The generic resource tester (STYLE §9): given a resource's collection URL, one
// valid object, invalid objects and an update function, it runs the verbs every
// stored resource must serve identically — create, get, list, update, delete,
// generateName and dryRun — through HTTP against a fresh harness. The harness
// defaults to the example.test group's (./harness.ts); built-in kinds pass one
// serving them (test/support/store-harness.ts). Virtual kinds, which only
// compute an answer to a create, get describeCreateOnlyResource.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ResourceDefinition } from '../../src/registry/define-resource.js';
import type { KubeObject } from '../../src/schema/object.js';
import { createHarness, type Harness } from './harness.js';

export interface ResourceTesterCase {
  readonly definition: ResourceDefinition;
  /** The collection URL objects are created in. */
  readonly collection: string;
  /** A valid object without metadata.name (the tester names it). */
  readonly valid: KubeObject;
  readonly invalid: readonly { name: string; object: KubeObject; wantField: string }[];
  /** Changes a stored object; the result must be valid. */
  readonly update: (obj: KubeObject) => KubeObject;
  /** A fresh server serving the definition; default: the example.test harness. */
  readonly harness?: () => Promise<Harness>;
  /**
   * The object for a base name the tester picks ('one', 'dup', ...), for kinds whose
   * names are derived from their content (a CRD is `<plural>.<group>`, an
   * APIService `<version>.<group>`, an IPAddress an address). Default: the base as
   * metadata.name.
   */
  readonly named?: (obj: KubeObject, base: string) => KubeObject;
  /** false: the kind's names cannot be generated (kube refuses generateName for it). */
  readonly generateName?: false;
}

export interface CreateOnlyTesterCase {
  readonly definition: ResourceDefinition;
  readonly collection: string;
  /** What a client posts. */
  readonly body: KubeObject;
  /** What the answer must contain (toMatchObject). */
  readonly want: Record<string, unknown>;
  readonly harness?: () => Promise<Harness>;
}

function apiVersionOf(def: ResourceDefinition): string {
  return def.group === '' ? def.version : `${def.group}/${def.version}`;
}

function named(obj: KubeObject, name: string): KubeObject {
  return { ...structuredClone(obj), metadata: { ...structuredClone(obj.metadata), name } };
}

export function describeResource(c: ResourceTesterCase): void {
  const apiVersion = apiVersionOf(c.definition);
  // Kinds whose DELETE only marks the object while their own finalizers remain (namespaces).
  const hold = c.definition.strategy.deletionHold;
  const make = (obj: KubeObject, base: string): KubeObject => (c.named === undefined ? named(obj, base) : c.named(structuredClone(obj), base));
  /** The name an object made from `base` has. */
  const nameOf = (base: string): string => make(c.valid, base).metadata.name!;
  describe(`resource ${c.definition.plural}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await (c.harness ?? createHarness)();
    });
    afterAll(async () => {
      await h.close();
    });

    async function post(obj: KubeObject, query = '') {
      return h.app.inject({ method: 'POST', url: `${c.collection}${query}`, payload: obj as object });
    }

    test('create answers 201 with system metadata, get returns the same object', async () => {
      const res = await post(make(c.valid, 'one'));
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toMatchObject({ kind: c.definition.kind, apiVersion, metadata: { name: nameOf('one') } });
      expect(created.metadata.uid).toMatch(/.+/);
      expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(created.metadata.resourceVersion).toMatch(/^\d+$/);
      const get = await h.app.inject({ method: 'GET', url: `${c.collection}/${nameOf('one')}` });
      expect(get.statusCode).toBe(200);
      expect(get.json()).toEqual(created);
    });

    test('create of an existing name is 409 AlreadyExists', async () => {
      await post(make(c.valid, 'dup'));
      const res = await post(make(c.valid, 'dup'));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ reason: 'AlreadyExists', details: { name: nameOf('dup'), kind: c.definition.plural } });
    });

    for (const inv of c.invalid) {
      test(`invalid: ${inv.name} is 422 and not stored`, async () => {
        const res = await post(make(inv.object, `bad-${c.invalid.indexOf(inv)}`));
        expect(res.statusCode).toBe(422);
        const body = res.json();
        expect(body).toMatchObject({ reason: 'Invalid', details: { kind: c.definition.kind } });
        expect(body.details.causes.map((x: { field: string }) => x.field)).toContain(inv.wantField);
        const get = await h.app.inject({ method: 'GET', url: `${c.collection}/${make(inv.object, `bad-${c.invalid.indexOf(inv)}`).metadata.name ?? ''}` });
        expect(get.statusCode).toBe(404);
      });
    }

    test('list returns created objects with a list resourceVersion', async () => {
      await post(make(c.valid, 'listed'));
      const res = await h.app.inject({ method: 'GET', url: c.collection });
      expect(res.statusCode).toBe(200);
      const list = res.json();
      expect(list).toMatchObject({ kind: c.definition.listKind, apiVersion });
      expect(list.metadata.resourceVersion).toMatch(/^\d+$/);
      expect(list.items.map((i: KubeObject) => i.metadata.name)).toContain(nameOf('listed'));
    });

    test('list by fieldSelector metadata.name returns only that object', async () => {
      await post(make(c.valid, 'sel-a'));
      await post(make(c.valid, 'sel-b'));
      const res = await h.app.inject({ method: 'GET', url: `${c.collection}?fieldSelector=metadata.name%3D${nameOf('sel-b')}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().items.map((i: KubeObject) => i.metadata.name)).toEqual([nameOf('sel-b')]);
    });

    test('update with the current resourceVersion succeeds; a stale one is 409 and changes nothing', async () => {
      const created = (await post(make(c.valid, 'upd'))).json();
      const changed = c.update(created);
      const ok = await h.app.inject({ method: 'PUT', url: `${c.collection}/${nameOf('upd')}`, payload: changed as object });
      expect(ok.statusCode).toBe(200);
      const updated = ok.json();
      expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
      expect(updated.metadata.uid).toBe(created.metadata.uid);
      const stale = await h.app.inject({ method: 'PUT', url: `${c.collection}/${nameOf('upd')}`, payload: created as object });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ reason: 'Conflict', message: expect.stringContaining('the object has been modified') });
      const get = await h.app.inject({ method: 'GET', url: `${c.collection}/${nameOf('upd')}` });
      expect(get.json()).toEqual(updated);
    });

    if (hold !== undefined) {
      const refusal = hold.conflictWhilePending;
      test('delete marks the object and keeps it while its finalizers remain', async () => {
        const created = (await post(make(c.valid, 'held'))).json();
        const res = await h.app.inject({ method: 'DELETE', url: `${c.collection}/${nameOf('held')}` });
        expect(res.statusCode).toBe(200);
        const marked = res.json();
        expect(marked.metadata).toMatchObject({ uid: created.metadata.uid, deletionTimestamp: expect.stringMatching(/Z$/) });
        const get = await h.app.inject({ method: 'GET', url: `${c.collection}/${nameOf('held')}` });
        expect(get.statusCode).toBe(200);
        expect(get.json()).toEqual(marked);
        const again = await h.app.inject({ method: 'DELETE', url: `${c.collection}/${nameOf('held')}` });
        if (refusal === undefined) expect(again.statusCode).toBe(200);
        else expect(again.json()).toMatchObject({ code: 409, reason: 'Conflict', message: expect.stringContaining(refusal) });
      });
    } else {
      test('delete removes the object; a second delete is 404', async () => {
        const created = (await post(make(c.valid, 'del'))).json();
        const res = await h.app.inject({ method: 'DELETE', url: `${c.collection}/${nameOf('del')}` });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        if (c.definition.strategy.returnDeletedObject === true) expect(body.metadata.uid).toBe(created.metadata.uid);
        else expect(body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: nameOf('del'), kind: c.definition.plural, uid: created.metadata.uid } });
        expect((await h.app.inject({ method: 'GET', url: `${c.collection}/${nameOf('del')}` })).statusCode).toBe(404);
        expect((await h.app.inject({ method: 'DELETE', url: `${c.collection}/${nameOf('del')}` })).statusCode).toBe(404);
      });
    }

    if (c.generateName !== false) test('generateName appends five characters from kube alphabet', async () => {
      const obj = structuredClone(c.valid);
      obj.metadata = { ...obj.metadata, generateName: 'gen-' };
      const res = await post(obj);
      expect(res.statusCode).toBe(201);
      const name = res.json().metadata.name as string;
      expect(name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect((await h.app.inject({ method: 'GET', url: `${c.collection}/${name}` })).statusCode).toBe(200);
    });

    test('dryRun=All runs everything and persists nothing', async () => {
      const res = await post(make(c.valid, 'dry'), '?dryRun=All');
      expect(res.statusCode).toBe(201);
      expect(res.json().metadata.name).toBe(nameOf('dry'));
      expect((await h.app.inject({ method: 'GET', url: `${c.collection}/${nameOf('dry')}` })).statusCode).toBe(404);
      const invalidDry = c.invalid[0];
      if (invalidDry !== undefined) {
        expect((await post(make(invalidDry.object, 'dry-bad'), '?dryRun=All')).statusCode).toBe(422);
      }
      const created = (await post(make(c.valid, 'dry2'))).json();
      const upd = await h.app.inject({ method: 'PUT', url: `${c.collection}/${nameOf('dry2')}?dryRun=All`, payload: c.update(created) as object });
      expect(upd.statusCode).toBe(200);
      const del = await h.app.inject({ method: 'DELETE', url: `${c.collection}/${nameOf('dry2')}`, payload: { dryRun: ['All'] } });
      expect(del.statusCode).toBe(200);
      const get = await h.app.inject({ method: 'GET', url: `${c.collection}/${nameOf('dry2')}` });
      expect(get.statusCode).toBe(200);
      expect(get.json()).toEqual(created);
    });
  });
}

/** A virtual kind: create answers what it computes, nothing is stored, no other verb is served. */
export function describeCreateOnlyResource(c: CreateOnlyTesterCase): void {
  describe(`create-only resource ${apiVersionOf(c.definition)} ${c.definition.plural}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await (c.harness ?? createHarness)();
    });
    afterAll(async () => {
      await h.close();
    });

    test('create answers 201 with the computed object and stores nothing', async () => {
      const before = await h.storage.currentResourceVersion();
      const res = await h.app.inject({ method: 'POST', url: c.collection, payload: c.body as object });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ kind: c.definition.kind, apiVersion: apiVersionOf(c.definition), ...c.want });
      expect(await h.storage.currentResourceVersion()).toBe(before);
      const dry = await h.app.inject({ method: 'POST', url: `${c.collection}?dryRun=All`, payload: c.body as object });
      expect(dry.statusCode).toBe(201);
    });

    test('list and get are 405', async () => {
      expect((await h.app.inject({ method: 'GET', url: c.collection })).json()).toMatchObject({ code: 405, reason: 'MethodNotAllowed' });
      expect((await h.app.inject({ method: 'GET', url: `${c.collection}/x` })).json()).toMatchObject({ code: 405, reason: 'MethodNotAllowed' });
    });
  });
}
