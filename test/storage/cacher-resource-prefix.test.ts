// Which cache a key belongs to: the resource root of registry/keys.ts's layout.
import { describe, expect, test } from 'vitest';
import { defaultResourcePrefix } from '../../src/storage/cacher/index.js';

describe('defaultResourcePrefix', () => {
  const rows: { name: string; key: string; want: string | undefined }[] = [
    { name: 'a namespaced core object', key: '/pods/ns/a', want: '/pods/' },
    { name: 'a core collection in one namespace', key: '/configmaps/ns/', want: '/configmaps/' },
    { name: 'a cluster-scoped core object', key: '/namespaces/a', want: '/namespaces/' },
    { name: 'a built-in group without a dot', key: '/apps/deployments/ns/a', want: '/apps/deployments/' },
    { name: 'a group with dots (CRDs, most built-ins)', key: '/example.com/widgets/ns/a', want: '/example.com/widgets/' },
    { name: 'a group collection', key: '/rbac.authorization.k8s.io/roles/', want: '/rbac.authorization.k8s.io/roles/' },
    { name: 'a group alone names no resource', key: '/apps/', want: undefined },
    { name: 'a root without its trailing slash', key: '/pods', want: undefined },
    { name: 'the root', key: '/', want: undefined },
    { name: 'a relative key', key: 'pods/ns/a', want: undefined },
    { name: 'an empty first segment', key: '//a', want: undefined },
    { name: '__proto__ is an ordinary resource name', key: '/__proto__/a', want: '/__proto__/' },
  ];
  for (const row of rows) {
    test(row.name, () => {
      expect(defaultResourcePrefix(row.key)).toBe(row.want);
    });
  }
});
