import { describe, expect, test } from 'vitest';
import { createNamespaceController, type NamespaceLifecycleClient } from '../../src/controllers/namespace-lifecycle.js';
import { builtinResources } from '../../src/apis/index.js';
import { createCatalog } from '../../src/registry/catalog.js';
import { defineResource, type ResourceDefinition } from '../../src/registry/define-resource.js';
import type { KubeObject } from '../../src/schema/object.js';

/** An in-memory client: objects keyed by plural, namespace and name. */
function fakeClient(namespace: KubeObject | undefined, objects: { plural: string; obj: KubeObject }[], removes = true) {
  const store = new Map(objects.map((o) => [`${o.plural}/${o.obj.metadata.namespace}/${o.obj.metadata.name}`, o.obj]));
  const calls: string[] = [];
  let ns = namespace;
  const client: NamespaceLifecycleClient = {
    getNamespace: async () => ns,
    list: async (r: ResourceDefinition, n: string) => [...store.entries()].filter(([k]) => k.startsWith(`${r.plural}/${n}/`)).map(([, v]) => v),
    delete: async (r, n, name) => {
      calls.push(`delete ${r.plural}/${name}`);
      const key = `${r.plural}/${n}/${name}`;
      if ((store.get(key)?.metadata.finalizers ?? []).length === 0) store.delete(key);
    },
    finalize: async (next) => {
      calls.push(`finalize ${JSON.stringify(next.spec)}`);
      // As the server does: a write that leaves no finalizer removes the marked namespace.
      const held = ((next.spec as { finalizers?: string[] }).finalizers ?? []).length + (next.metadata.finalizers ?? []).length > 0;
      ns = held || !removes ? next : undefined;
      return next;
    },
    deleteNamespace: async (name) => {
      calls.push(`delete namespace ${name}`);
      ns = undefined;
    },
  };
  return { client, calls };
}

const terminating: KubeObject = { metadata: { name: 'team-a', deletionTimestamp: '2026-01-01T00:00:00Z' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } };
const cm = (name: string, finalizers?: string[]): { plural: string; obj: KubeObject } => ({ plural: 'configmaps', obj: { metadata: { name, namespace: 'team-a', ...(finalizers ? { finalizers } : {}) } } });

const marked = (spec: { finalizers?: string[] }, finalizers?: string[]): KubeObject => ({
  metadata: { name: 'team-a', deletionTimestamp: '2026-01-01T00:00:00Z', ...(finalizers ? { finalizers } : {}) },
  spec,
  status: { phase: 'Terminating' },
});

const cases: {
  name: string;
  ns: KubeObject | undefined;
  objects: { plural: string; obj: KubeObject }[];
  /** Whether the fake server removes the namespace when /finalize empties every finalizer. */
  removes?: boolean;
  want: string;
  wantCalls: string[];
}[] = [
  { name: 'absent namespace', ns: undefined, objects: [], want: 'Absent', wantCalls: [] },
  { name: 'active namespace untouched', ns: { metadata: { name: 'team-a' } }, objects: [cm('a')], want: 'Active', wantCalls: [] },
  {
    name: 'terminating: contents deleted, then /finalize (which removes the namespace)',
    ns: terminating,
    objects: [cm('a'), { plural: 'pods', obj: { metadata: { name: 'p', namespace: 'team-a' } } }],
    want: 'Finalized',
    wantCalls: ['delete configmaps/a', 'delete pods/p', 'finalize {"finalizers":[]}'],
  },
  { name: 'object held by a finalizer', ns: terminating, objects: [cm('a', ['example.com/hold'])], want: 'ContentRemaining', wantCalls: ['delete configmaps/a'] },
  {
    name: 'an object already marked is not deleted again',
    ns: terminating,
    objects: [{ plural: 'configmaps', obj: { metadata: { name: 'a', namespace: 'team-a', deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['example.com/hold'] } } }],
    want: 'ContentRemaining',
    wantCalls: [],
  },
  {
    name: 'other spec finalizers stay for their owners',
    ns: marked({ finalizers: ['kubernetes', 'example.com/other'] }),
    objects: [],
    want: 'Finalized',
    wantCalls: ['finalize {"finalizers":["example.com/other"]}'],
  },
  {
    name: 'an object marked but no longer held is deleted again',
    ns: terminating,
    objects: [{ plural: 'configmaps', obj: { metadata: { name: 'a', namespace: 'team-a', deletionTimestamp: '2026-01-01T00:00:00Z' } } }],
    want: 'Finalized',
    wantCalls: ['delete configmaps/a', 'finalize {"finalizers":[]}'],
  },
  { name: 'already finalized by us, metadata finalizers remain', ns: marked({ finalizers: [] }, ['example.com/m']), objects: [], want: 'Finalized', wantCalls: [] },
  { name: 'finalized and unheld but still present: deleted', ns: marked({ finalizers: [] }), objects: [], want: 'Finalized', wantCalls: ['delete namespace team-a'] },
  {
    name: 'the finalize write did not remove it: deleted',
    ns: terminating,
    objects: [],
    removes: false,
    want: 'Finalized',
    wantCalls: ['finalize {"finalizers":[]}', 'delete namespace team-a'],
  },
];

describe('namespace lifecycle controller', () => {
  for (const c of cases) {
    test(c.name, async () => {
      const { client, calls } = fakeClient(c.ns, c.objects, c.removes);
      const controller = createNamespaceController({ client, catalog: createCatalog(builtinResources) });
      expect(await controller.sync('team-a')).toBe(c.want);
      expect(calls).toEqual(c.wantCalls);
    });
  }
});

describe('namespace lifecycle controller over a changing catalog', () => {
  test('a namespaced kind added after the controller was made is emptied too', async () => {
    const catalog = createCatalog(builtinResources);
    const { client, calls } = fakeClient(terminating, [{ plural: 'sprockets', obj: { metadata: { name: 's', namespace: 'team-a' } } }]);
    const controller = createNamespaceController({ client, catalog });
    catalog.add(defineResource({ group: 'runtime.example.test', version: 'v1', kind: 'Sprocket', plural: 'sprockets', scope: 'Namespaced' }));
    expect(await controller.sync('team-a')).toBe('Finalized');
    expect(calls).toEqual(['delete sprockets/s', 'finalize {"finalizers":[]}']);
  });
});
