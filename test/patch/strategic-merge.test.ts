// Strategic merge against the built-in Pod schema: merge keys and strategies come
// from the OpenAPI markers (containers by name, ports by containerPort, env by
// name, volumes with retainKeys, finalizers as a merged primitive list), and every
// directive kubectl sends.
import { describe, expect, test } from 'vitest';
import { isStatusError } from '../../src/errors/status-error.js';
import type { JsonMap } from '../../src/patch/json.js';
import { patchMetaFor } from '../../src/patch/patch-meta.js';
import { builtinSchema } from '../../src/schema/definitions.js';
import { strategicMerge } from '../../src/patch/strategic-merge.js';

const POD = patchMetaFor(builtinSchema('io.k8s.api.core.v1.Pod'));

const c = (name: string, extra: JsonMap = {}): JsonMap => ({ name, image: `${name}:1`, ...extra });
const pod = (spec: JsonMap, metadata: JsonMap = { name: 'p' }): JsonMap => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec });

describe('strategicMerge on Pod', () => {
  const cases: { name: string; original: JsonMap; patch: JsonMap; want: JsonMap }[] = [
    {
      name: 'containers merge by name (kubectl set image)',
      original: pod({ containers: [c('a'), c('b')] }),
      patch: { spec: { containers: [{ name: 'b', image: 'b:2' }] } },
      want: pod({ containers: [c('a'), { name: 'b', image: 'b:2' }] }),
    },
    {
      // apimachinery's normalizeElementOrder: patch elements the server lacks come
      // before server-only ones (clients that care send $setElementOrder).
      name: 'a new container goes before the server-only ones',
      original: pod({ containers: [c('a')] }),
      patch: { spec: { containers: [c('z')] } },
      want: pod({ containers: [c('z'), c('a')] }),
    },
    {
      name: 'ports merge by containerPort',
      original: pod({ containers: [c('a', { ports: [{ containerPort: 80 }, { containerPort: 443 }] })] }),
      patch: { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, name: 'http' }, { containerPort: 8080 }] }] } },
      want: pod({ containers: [c('a', { ports: [{ containerPort: 80, name: 'http' }, { containerPort: 8080 }, { containerPort: 443 }] })] }),
    },
    {
      name: 'env merges by name; null deletes a field of one entry',
      original: pod({ containers: [c('a', { env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2' }] })] }),
      patch: { spec: { containers: [{ name: 'a', env: [{ name: 'Y', value: null, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'Z', value: '3' }] }] } },
      want: pod({ containers: [c('a', { env: [{ name: 'X', value: '1' }, { name: 'Y', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'Z', value: '3' }] })] }),
    },
    {
      name: '$retainKeys on a volume switches its source',
      original: pod({ containers: [c('a')], volumes: [{ name: 'v', emptyDir: {} }, { name: 'w', emptyDir: {} }] }),
      patch: { spec: { volumes: [{ $retainKeys: ['configMap', 'name'], name: 'v', configMap: { name: 'cm' } }] } },
      want: pod({ containers: [c('a')], volumes: [{ name: 'v', configMap: { name: 'cm' } }, { name: 'w', emptyDir: {} }] }),
    },
    {
      name: '$setElementOrder reorders without changing contents',
      original: pod({ containers: [c('a'), c('b')] }),
      patch: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } },
      want: pod({ containers: [c('b'), c('a')] }),
    },
    {
      name: '$setElementOrder with a change (client-side apply) keeps server-only containers in place',
      original: pod({ containers: [c('a'), c('x'), c('b')] }),
      patch: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'b', image: 'b:2' }] } },
      want: pod({ containers: [c('x'), { name: 'b', image: 'b:2' }, c('a')] }),
    },
    {
      name: '$patch: delete removes a container by name',
      original: pod({ containers: [c('a'), c('b')] }),
      patch: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } },
      want: pod({ containers: [c('b')] }),
    },
    {
      name: '$patch: replace as a list element replaces the list',
      original: pod({ containers: [c('a'), c('b')] }),
      patch: { spec: { containers: [c('z'), { $patch: 'replace' }] } },
      want: pod({ containers: [c('z')] }),
    },
    {
      name: '$patch: replace in a map replaces the map',
      original: pod({ containers: [c('a')] }, { name: 'p', labels: { a: '1', b: '2' } }),
      patch: { metadata: { labels: { $patch: 'replace', c: '3' } } },
      want: pod({ containers: [c('a')] }, { name: 'p', labels: { c: '3' } }),
    },
    {
      name: '$patch: delete in a map empties it',
      original: pod({ containers: [c('a')], securityContext: { runAsUser: 1 } }),
      patch: { spec: { securityContext: { $patch: 'delete' } } },
      want: pod({ containers: [c('a')], securityContext: {} }),
    },
    {
      name: 'finalizers (strategy merge) are a de-duplicated union',
      original: pod({ containers: [c('a')] }, { name: 'p', finalizers: ['f/a', 'f/b'] }),
      patch: { metadata: { finalizers: ['f/b', 'f/c'] } },
      want: pod({ containers: [c('a')] }, { name: 'p', finalizers: ['f/a', 'f/b', 'f/c'] }),
    },
    {
      name: '$deleteFromPrimitiveList removes finalizers',
      original: pod({ containers: [c('a')] }, { name: 'p', finalizers: ['f/a', 'f/b'] }),
      patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['f/a'] } },
      want: pod({ containers: [c('a')] }, { name: 'p', finalizers: ['f/b'] }),
    },
    {
      name: '$setElementOrder on a primitive list with a deletion (client-side apply of finalizers)',
      original: pod({ containers: [c('a')] }, { name: 'p', finalizers: ['f/a', 'f/b'] }),
      patch: { metadata: { '$setElementOrder/finalizers': ['f/c', 'f/b'], finalizers: ['f/c'], '$deleteFromPrimitiveList/finalizers': ['f/a'] } },
      want: pod({ containers: [c('a')] }, { name: 'p', finalizers: ['f/c', 'f/b'] }),
    },
    {
      name: 'a list without a merge strategy (args) is replaced',
      original: pod({ containers: [c('a', { args: ['x', 'y'] })] }),
      patch: { spec: { containers: [{ name: 'a', args: ['z'] }] } },
      want: pod({ containers: [c('a', { args: ['z'] })] }),
    },
    {
      name: 'tolerations (no strategy) are replaced',
      original: pod({ containers: [c('a')], tolerations: [{ key: 'k1' }, { key: 'k2' }] }),
      patch: { spec: { tolerations: [{ key: 'k3' }] } },
      want: pod({ containers: [c('a')], tolerations: [{ key: 'k3' }] }),
    },
    {
      name: 'null deletes a map key; unmatched nulls are ignored',
      original: pod({ containers: [c('a')] }, { name: 'p', labels: { a: '1', b: '2' } }),
      patch: { metadata: { labels: { a: null, zz: null } } },
      want: pod({ containers: [c('a')] }, { name: 'p', labels: { b: '2' } }),
    },
    {
      name: 'empty patch is a no-op',
      original: pod({ containers: [c('a')] }),
      patch: {},
      want: pod({ containers: [c('a')] }),
    },
  ];
  for (const tc of cases) {
    test(tc.name, () => {
      const before = JSON.stringify(tc.original);
      expect(strategicMerge(tc.original, tc.patch, POD)).toEqual(tc.want);
      expect(JSON.stringify(tc.original)).toBe(before);
    });
  }
});

describe('strategicMerge failures', () => {
  const original = pod({ containers: [c('a')], volumes: [{ name: 'v', emptyDir: {} }] }, { name: 'p', finalizers: ['f'] });
  const cases: { name: string; patch: JsonMap; want: { code: number; message: string } }[] = [
    { name: '$retainKeys not a list', patch: { spec: { volumes: [{ name: 'v', $retainKeys: 'name' }] } }, want: { code: 400, message: 'invalid patch format of retainKeys' } },
    { name: '$deleteFromPrimitiveList not a list', patch: { metadata: { '$deleteFromPrimitiveList/finalizers': 'f' } }, want: { code: 400, message: 'invalid patch format of primitive list' } },
    { name: '$setElementOrder not a list', patch: { spec: { '$setElementOrder/containers': { name: 'a' } } }, want: { code: 400, message: 'invalid patch format of setElementOrder list' } },
    { name: '$setElementOrder missing an element the patch sets', patch: { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [c('b')] } }, want: { code: 400, message: 'invalid patch format of setElementOrder list' } },
    { name: 'unknown $patch in a map', patch: { spec: { $patch: 'merge' } }, want: { code: 400, message: 'unknown patch type: merge in map: map[$patch:merge]' } },
    { name: 'list element without its merge key', patch: { spec: { containers: [{ image: 'x' }] } }, want: { code: 400, message: 'map: map[image:x] does not contain declared merge key: name' } },
    { name: '$patch: merge in a list', patch: { spec: { containers: [{ name: 'a', $patch: 'merge' }] } }, want: { code: 400, message: 'merging lists cannot yet be specified in the patch' } },
    {
      name: 'patch content outside $retainKeys',
      patch: { spec: { volumes: [{ name: 'v', $retainKeys: ['name'], configMap: { name: 'x' } }] } },
      want: { code: 422, message: 'the server rejected our request due to an error in our request' },
    },
  ];
  for (const tc of cases) {
    test(tc.name, () => {
      let caught: unknown;
      try {
        strategicMerge(original, tc.patch, POD);
      } catch (err) {
        caught = err;
      }
      expect(isStatusError(caught) && caught.toStatus()).toMatchObject(tc.want);
    });
  }
});
