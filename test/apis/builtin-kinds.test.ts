// The generic resource tester on every built-in kind (issue #9, item 7), over HTTP
// through the real registry and the memory backend. The kinds come from the
// harness's one list of what the server serves, so a kind added there without a
// fixture in test/support/fixtures/builtin-kinds.ts fails here by name.
import { describe, expect, test } from 'vitest';
import type { ResourceDefinition } from '../../src/registry/define-resource.js';
import { describeCreateOnlyResource, describeResource } from '../endpoints/resource-tester.js';
import { createOnlyFixtures, storedKindFixtures } from '../support/fixtures/builtin-kinds.js';
import { createBuiltinHttpHarness, isStored, listBuiltinKinds } from '../support/store-harness.js';

function apiVersionOf(def: ResourceDefinition): string {
  return def.group === '' ? def.version : `${def.group}/${def.version}`;
}

function fixtureKey(def: ResourceDefinition): string {
  return `${apiVersionOf(def)}/${def.plural}`;
}

/** Where a client creates objects of the kind: the `default` namespace for namespaced kinds. */
function collectionOf(def: ResourceDefinition): string {
  const root = def.group === '' ? `/api/${def.version}` : `/apis/${def.group}/${def.version}`;
  return def.scope === 'Namespaced' ? `${root}/namespaces/default/${def.plural}` : `${root}/${def.plural}`;
}

const kinds = listBuiltinKinds();

describe('every built-in kind has a fixture', () => {
  for (const def of kinds) {
    const key = fixtureKey(def);
    const fixtures: Readonly<Record<string, unknown>> = isStored(def) ? storedKindFixtures : createOnlyFixtures;
    test(key, () => {
      expect(Object.hasOwn(fixtures, key), `add a fixture for ${key} to test/support/fixtures/builtin-kinds.ts`).toBe(true);
    });
  }

  test('every fixture names a served kind', () => {
    const served = kinds.map(fixtureKey);
    expect(served).toEqual(expect.arrayContaining([...Object.keys(storedKindFixtures), ...Object.keys(createOnlyFixtures)]));
  });
});

for (const def of kinds) {
  const key = fixtureKey(def);
  if (isStored(def)) {
    if (!Object.hasOwn(storedKindFixtures, key)) continue;
    const fixture = storedKindFixtures[key]!;
    describe(apiVersionOf(def), () => {
      describeResource({ definition: def, collection: collectionOf(def), ...fixture, harness: createBuiltinHttpHarness });
    });
  } else {
    if (!Object.hasOwn(createOnlyFixtures, key)) continue;
    describeCreateOnlyResource({ definition: def, collection: collectionOf(def), ...createOnlyFixtures[key]!, harness: createBuiltinHttpHarness });
  }
}
