// ConfigMap and Secret rules through the registry over the memory backend
// (test/support/store-harness.ts): key and size checks, immutability, Secret types.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { configMaps } from '../../../../src/apis/core/v1/config-maps.js';
import { secrets } from '../../../../src/apis/core/v1/secrets.js';
import type { ResourceDefinition } from '../../../../src/registry/define-resource.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const meta = { name: 'a', namespace: 'ns' };
const b64 = (s: string): string => Buffer.from(s).toString('base64');

const configMapCases: { name: string; input: KubeObject; want: string[] }[] = [
  { name: 'valid', input: { metadata: meta, data: { 'app.properties': 'x=1', KEY_2: 'y' }, binaryData: { bin: b64('z') } }, want: [] },
  {
    name: 'bad key',
    input: { metadata: meta, data: { 'a/b': 'x' } },
    want: [
      "data[a/b]: Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ],
  },
  {
    name: 'key in both data and binaryData',
    input: { metadata: meta, data: { k: 'x' }, binaryData: { k: b64('x') } },
    want: ['data[k]: Invalid value: "k": duplicate of key present in binaryData', 'binaryData[k]: Invalid value: "k": duplicate of key present in data'],
  },
  { name: 'too large', input: { metadata: meta, data: { k: 'x'.repeat(1024 * 1024 + 1) } }, want: ['[]: Too long: may not be more than 1048576 bytes'] },
];

describe('ConfigMap create', () => {
  for (const c of configMapCases) {
    test(c.name, async () => {
      const got = await h.create(configMaps, c.input);
      expect(got.errors).toEqual(c.want);
      if (c.want.length > 0) expect(got.stored).toBeUndefined();
      else expect(got.stored).toEqual(got.object);
    });
  }
});

/** Creates prev, then updates to next: the update's errors, and what is stored after it. */
async function updateOf(def: ResourceDefinition, prev: KubeObject, next: KubeObject): Promise<{ errors: readonly string[]; before: KubeObject | undefined; after: KubeObject | undefined }> {
  const created = await h.create(def, prev);
  expect(created.errors).toEqual([]);
  const got = await h.update(def, next);
  // A refused update changes nothing.
  if (got.errors.length > 0) expect(got.stored).toEqual(created.stored);
  return { errors: got.errors, before: created.stored, after: got.stored };
}

const immutableCases: { name: string; prev: KubeObject; next: KubeObject; want: string[] }[] = [
  { name: 'mutable data changes', prev: { metadata: meta, data: { k: '1' } }, next: { metadata: meta, data: { k: '2' } }, want: [] },
  {
    name: 'immutable data changes',
    prev: { metadata: meta, data: { k: '1' }, immutable: true },
    next: { metadata: meta, data: { k: '2' }, immutable: true },
    want: ['data: Forbidden: field is immutable when `immutable` is set'],
  },
  {
    name: 'immutable unset',
    prev: { metadata: meta, data: { k: '1' }, immutable: true },
    next: { metadata: meta, data: { k: '1' } },
    want: ['immutable: Forbidden: field is immutable when `immutable` is set'],
  },
  { name: 'immutable labels may change', prev: { metadata: meta, immutable: true }, next: { metadata: { ...meta, labels: { a: 'b' } }, immutable: true }, want: [] },
];

describe('ConfigMap update', () => {
  for (const c of immutableCases) {
    test(c.name, async () => {
      const got = await updateOf(configMaps, c.prev, c.next);
      expect(got.errors).toEqual(c.want);
      if (c.want.length === 0) {
        expect(got.after?.data).toEqual(c.next.data);
        expect(got.after?.metadata.labels).toEqual(c.next.metadata.labels);
      }
    });
  }
});

const secretCases: { name: string; input: KubeObject; want: string[]; wantObj?: Partial<KubeObject> }[] = [
  { name: 'type defaults to Opaque', input: { metadata: meta, data: { k: b64('v') } }, want: [], wantObj: { type: 'Opaque', data: { k: b64('v') } } },
  {
    name: 'stringData merged into data and dropped',
    input: { metadata: meta, data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new' } },
    want: [],
    wantObj: { type: 'Opaque', data: { a: b64('new'), b: b64('keep') } },
  },
  { name: 'tls needs both keys', input: { metadata: meta, type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } }, want: ['data[tls.key]: Required value'] },
  {
    name: 'basic-auth needs username or password',
    input: { metadata: meta, type: 'kubernetes.io/basic-auth', data: {} },
    want: ['data[username]: Required value', 'data[password]: Required value'],
  },
  {
    name: 'service account token needs the annotation',
    input: { metadata: meta, type: 'kubernetes.io/service-account-token' },
    want: ['metadata.annotations[kubernetes.io/service-account.name]: Required value'],
  },
  {
    name: 'dockerconfigjson must be JSON',
    input: { metadata: meta, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{') } },
    want: [expect.stringMatching(/^data\[\.dockerconfigjson\]: Invalid value: "<secret contents redacted>": /) as unknown as string],
  },
];

describe('Secret create', () => {
  for (const c of secretCases) {
    test(c.name, async () => {
      const got = await h.create(secrets, c.input);
      expect(got.errors).toEqual(c.want);
      if (c.want.length > 0) {
        expect(got.stored).toBeUndefined();
        return;
      }
      expect(got.stored).toEqual(got.object);
      if (c.wantObj !== undefined) expect(got.stored).toMatchObject(c.wantObj);
      expect(got.stored).not.toHaveProperty('stringData');
    });
  }
});

describe('Secret update', () => {
  test('type is immutable', async () => {
    const got = await updateOf(secrets, { metadata: meta, type: 'Opaque' }, { metadata: meta, type: 'example.com/x' });
    expect(got.errors).toEqual(['type: Invalid value: "example.com/x": field is immutable']);
  });
  test('omitted type defaults and is not a change', async () => {
    const got = await updateOf(secrets, { metadata: meta }, { metadata: meta });
    expect(got.errors).toEqual([]);
    expect(got.after).toMatchObject({ type: 'Opaque' });
  });
  test('immutable data frozen', async () => {
    const got = await updateOf(secrets, { metadata: meta, immutable: true, data: { a: b64('1') } }, { metadata: meta, immutable: true, stringData: { a: '2' } });
    expect(got.errors).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
  });
  test('selectable type field', () => {
    expect(secrets.strategy.selectableFields?.({ metadata: meta, type: 'kubernetes.io/tls' })).toEqual({ type: 'kubernetes.io/tls' });
  });
});
