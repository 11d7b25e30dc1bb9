// Keys from clients are data, never prototype members (STYLE §11, issue #8 item 3):
// every hostile input here goes through each decoder and patch engine, names such
// as `__proto__`, `constructor`, `prototype`, `toString`, `valueOf` and
// `hasOwnProperty` round-trip as ordinary keys or are refused as kube-apiserver
// refuses them ("doc is missing path", 422), and afterwards Object.prototype is
// exactly what it was.
import { afterAll, describe, expect, test } from 'vitest';
import { decodeJson } from '../../src/codecs/json.js';
import { decodeYaml } from '../../src/codecs/yaml.js';
import { isStatusError } from '../../src/errors/status-error.js';
import { decodePatch, type JsonMap, type PatchType } from '../../src/patch/index.js';
import type { ResourceDefinition } from '../../src/registry/define-resource.js';
import { buildPredicate } from '../../src/registry/selection.js';
import { setTypeMeta } from '../../src/registry/store/metadata.js';
import { getField } from '../../src/schema/field-path.js';
import { cloneJson } from '../../src/schema/object.js';
import { builtinDefinitions, builtinSchema } from '../../src/schema/definitions.js';
import { checkTyped } from '../../src/schema/typed.js';

const CONFIG_MAP = 'io.k8s.api.core.v1.ConfigMap';
const PROTOTYPE_KEYS_BEFORE = Object.getOwnPropertyNames(Object.prototype).sort();
const TO_STRING_BEFORE = Object.prototype.toString;

function current(): JsonMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { app: 'x' } }, data: { k: 'v' } };
}

function outcome(fn: () => unknown): unknown {
  try {
    return { ok: fn() };
  } catch (err) {
    return isStatusError(err) ? err.toStatus() : { thrown: String(err) };
  }
}

const NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

describe('patch engines', () => {
  const rejected = 'the server rejected our request due to an error in our request';
  const cases: { name: string; type: PatchType; body: string; want: { patched: string } | { code: number; message: string; cause?: string } }[] = [
    {
      name: 'strategic merge: top-level __proto__ (issue #8) is a key, not a prototype',
      type: 'strategic',
      body: '{"__proto__":{"polluted":1}}',
      want: { patched: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"app":"x"}},"data":{"k":"v"},"__proto__":{"polluted":1}}` },
    },
    {
      name: 'strategic merge: prototype names as data keys',
      type: 'strategic',
      body: `{"data":${JSON.stringify(Object.fromEntries(NAMES.map((n) => [n, `v-${n}`])))}}`,
      want: { patched: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"app":"x"}},"data":{"k":"v","__proto__":"v-__proto__","constructor":"v-constructor","prototype":"v-prototype","toString":"v-toString","valueOf":"v-valueOf","hasOwnProperty":"v-hasOwnProperty"}}` },
    },
    {
      name: 'strategic merge: toString as a label value holder',
      type: 'strategic',
      body: '{"metadata":{"labels":{"toString":"a"}}}',
      want: { patched: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"app":"x","toString":"a"}},"data":{"k":"v"}}' },
    },
    {
      name: 'strategic merge: deleting a member the object does not own',
      type: 'strategic',
      body: '{"data":{"constructor":null,"__proto__":null}}',
      want: { patched: JSON.stringify(current()) },
    },
    {
      name: 'merge patch: top-level __proto__',
      type: 'merge',
      body: '{"__proto__":{"polluted":1}}',
      want: { patched: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"app":"x"}},"data":{"k":"v"},"__proto__":{"polluted":1}}` },
    },
    {
      name: 'merge patch: prototype names as data keys',
      type: 'merge',
      body: `{"data":${JSON.stringify(Object.fromEntries(NAMES.map((n) => [n, `v-${n}`])))}}`,
      want: { patched: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"app":"x"}},"data":{"k":"v","__proto__":"v-__proto__","constructor":"v-constructor","prototype":"v-prototype","toString":"v-toString","valueOf":"v-valueOf","hasOwnProperty":"v-hasOwnProperty"}}` },
    },
    {
      name: 'merge patch: nested __proto__ under a missing key',
      type: 'merge',
      body: '{"spec":{"__proto__":{"polluted":1}}}',
      want: { patched: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"app":"x"}},"data":{"k":"v"},"spec":{"__proto__":{"polluted":1}}}` },
    },
    {
      name: 'JSON patch: add a data key named __proto__',
      type: 'json',
      body: '[{"op":"add","path":"/data/__proto__","value":"x"},{"op":"add","path":"/data/toString","value":"y"}]',
      want: { patched: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"app":"x"}},"data":{"k":"v","__proto__":"x","toString":"y"}}` },
    },
    {
      name: 'JSON patch: through /__proto__ is a missing path',
      type: 'json',
      body: '[{"op":"add","path":"/__proto__/polluted","value":1}]',
      want: { code: 422, message: rejected, cause: 'add operation does not apply: doc is missing path: "/__proto__/polluted": missing value' },
    },
    {
      name: 'JSON patch: through /constructor/prototype is a missing path',
      type: 'json',
      body: '[{"op":"add","path":"/constructor/prototype/polluted","value":1}]',
      want: { code: 422, message: rejected, cause: 'add operation does not apply: doc is missing path: "/constructor/prototype/polluted": missing value' },
    },
    {
      name: 'JSON patch: replace of an inherited member is a missing path',
      type: 'json',
      body: '[{"op":"replace","path":"/data/valueOf","value":"x"}]',
      want: { code: 422, message: rejected, cause: 'replace operation does not apply: doc is missing path: "/data/valueOf": missing value' },
    },
    {
      name: 'JSON patch: remove of an inherited member is a missing path',
      type: 'json',
      body: '[{"op":"remove","path":"/metadata/hasOwnProperty"}]',
      want: { code: 422, message: rejected, cause: 'remove operation does not apply: doc is missing path: "/metadata/hasOwnProperty": missing value' },
    },
    {
      name: 'JSON patch: copy from an inherited member',
      type: 'json',
      body: '[{"op":"copy","from":"/toString","path":"/data/x"}]',
      want: { code: 422, message: rejected, cause: 'copy operation does not apply: doc is missing from path: "/toString": missing value' },
    },
    {
      name: 'JSON patch: test against an inherited member fails',
      type: 'json',
      body: '[{"op":"test","path":"/constructor","value":{}}]',
      want: { code: 422, message: rejected, cause: 'testing value /constructor failed: test failed' },
    },
    {
      name: 'JSON patch: copies may not add more than 3 MiB',
      type: 'json',
      body: `[{"op":"add","path":"/data/big","value":"${'x'.repeat(1024 * 1024)}"},${Array.from({ length: 3 }, (_, i) => `{"op":"copy","from":"/data/big","path":"/data/c${i}"}`).join(',')}]`,
      want: { code: 422, message: rejected, cause: 'Unable to complete the copy, the accumulated size increase of copy is 3145734, exceeding the limit 3145728' },
    },
    {
      name: 'JSON patch: a shallow patch cannot nest past the bound',
      type: 'json',
      body: `[{"op":"add","path":"/data/d","value":${'['.repeat(600)}${']'.repeat(600)}},{"op":"copy","from":"/data/d","path":"/data/d${'/0'.repeat(599)}/-"}]`,
      want: { code: 422, message: "Invalid value: \"\": couldn't get version/kind; json parse error: invalid character '[' exceeded max depth" },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const before = current();
      const got = outcome(() => decodePatch({ type: c.type, body: c.body, strict: false, schema: builtinSchema(CONFIG_MAP) }).apply(before));
      if ('patched' in c.want) {
        const patched = (got as { ok?: JsonMap }).ok;
        // JSON text: it shows a `__proto__` member only when it is an own data member.
        expect(JSON.stringify(patched)).toBe(c.want.patched);
        expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
        expect((patched as { polluted?: unknown }).polluted).toBeUndefined();
      } else {
        expect(got).toMatchObject({ code: c.want.code });
        expect(JSON.stringify(got)).toContain(JSON.stringify(c.want.message).slice(1, -1));
        if (c.want.cause !== undefined) expect(got).toMatchObject({ details: { causes: [{ message: c.want.cause }] } });
      }
      expect(before).toEqual(current());
    });
  }
});

describe('decoders keep prototype names as keys', () => {
  const cases: { name: string; decode: () => unknown; want: string }[] = [
    { name: 'JSON', decode: () => decodeJson(Buffer.from('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}')), want: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}' },
    { name: 'YAML', decode: () => decodeYaml(Buffer.from('__proto__:\n  polluted: 1\nconstructor:\n  prototype:\n    polluted: 1\n')), want: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}' },
    { name: 'YAML merge key bringing __proto__', decode: () => decodeYaml(Buffer.from('base: &b {__proto__: {polluted: 1}}\nx:\n  <<: *b\n')), want: '{"base":{"__proto__":{"polluted":1}},"x":{"__proto__":{"polluted":1}}}' },
    { name: 'cloneJson', decode: () => cloneJson(JSON.parse('{"a":{"__proto__":{"polluted":1}}}')), want: '{"a":{"__proto__":{"polluted":1}}}' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = c.decode() as Record<string, unknown>;
      expect(JSON.stringify(got)).toBe(c.want);
      expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    });
  }
});

describe('unknown-field check uses own schema members', () => {
  const cases: { name: string; input: unknown; want: string[] }[] = [
    { name: 'toString at the top', input: { metadata: { name: 'a' }, toString: { x: 1 } }, want: ['toString'] },
    { name: 'constructor and valueOf in metadata', input: { metadata: { name: 'a', constructor: 'x', valueOf: 1 } }, want: ['metadata.constructor', 'metadata.valueOf'] },
    { name: '__proto__ as an own key', input: JSON.parse('{"metadata":{"name":"a"},"__proto__":1}'), want: ['__proto__'] },
    { name: 'prototype names inside data are values of a map', input: { metadata: { name: 'a' }, data: { toString: 'a', __proto__x: 'b' } }, want: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(checkTyped(CONFIG_MAP, c.input, builtinDefinitions).unknownFields).toEqual(c.want);
    });
  }
});

describe('registry helpers', () => {
  const resource = { strategy: {} } as unknown as ResourceDefinition;
  const cases: { name: string; fieldSelector: string; want: unknown }[] = [
    { name: 'constructor is no field label', fieldSelector: 'constructor=x', want: { code: 400, message: 'field label not supported: constructor' } },
    { name: 'toString is no field label', fieldSelector: 'toString!=x', want: { code: 400, message: 'field label not supported: toString' } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(outcome(() => buildPredicate({ fieldSelector: c.fieldSelector, resource }))).toMatchObject(c.want as object);
    });
  }

  test('setTypeMeta keeps a __proto__ key as data', () => {
    const obj = JSON.parse('{"metadata":{"name":"a"},"__proto__":{"polluted":1}}') as { metadata: object };
    setTypeMeta(obj as never, { kind: 'ConfigMap', group: '', version: 'v1' } as unknown as ResourceDefinition);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(JSON.stringify(obj)).toBe('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a"},"__proto__":{"polluted":1}}');
  });

  test('getField reads own members only', () => {
    expect(getField({ metadata: {} }, 'metadata.constructor')).toBeUndefined();
  });
});

afterAll(() => {
  // The invariant every hostile input above must leave intact.
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS_BEFORE);
  expect(Object.prototype.toString).toBe(TO_STRING_BEFORE);
});
