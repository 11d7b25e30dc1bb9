import { describe, expect, test } from 'vitest';
import type { KubeObject } from '../../../src/schema/object.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../src/registry/validation/object-meta.js';
import type { NameValidation } from '../../../src/registry/define-resource.js';

const SUBDOMAIN_DETAIL =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

interface Case {
  name: string;
  obj: KubeObject;
  namespaced?: boolean;
  nameValidation?: NameValidation;
  want: { field: string; message: string }[];
}

const createCases: Case[] = [
  { name: 'valid', obj: { metadata: { name: 'a', namespace: 'ns', labels: { 'app.kubernetes.io/name': 'x' } } }, want: [] },
  {
    name: 'upper-case name',
    obj: { metadata: { name: 'Foo', namespace: 'ns' } },
    want: [{ field: 'metadata.name', message: `metadata.name: Invalid value: "Foo": ${SUBDOMAIN_DETAIL}` }],
  },
  {
    name: 'no name',
    obj: { metadata: { namespace: 'ns' } },
    want: [{ field: 'metadata.name', message: 'metadata.name: Required value: name or generateName is required' }],
  },
  {
    name: 'bad generateName',
    obj: { metadata: { generateName: 'Ab-', name: 'a', namespace: 'ns' } },
    want: [{ field: 'metadata.generateName', message: `metadata.generateName: Invalid value: "Ab-": ${SUBDOMAIN_DETAIL}` }],
  },
  {
    name: 'namespace required',
    obj: { metadata: { name: 'a' } },
    want: [{ field: 'metadata.namespace', message: 'metadata.namespace: Required value' }],
  },
  {
    name: 'namespace forbidden on cluster scope',
    obj: { metadata: { name: 'a', namespace: 'ns' } },
    namespaced: false,
    want: [{ field: 'metadata.namespace', message: 'metadata.namespace: Forbidden: not allowed on this type' }],
  },
  {
    name: 'label name with dots under label validation',
    obj: { metadata: { name: 'a.b' } },
    namespaced: false,
    nameValidation: 'label',
    want: [{ field: 'metadata.name', message: 'metadata.name: Invalid value: "a.b": must not contain dots' }],
  },
  {
    name: 'bad label key and value',
    obj: { metadata: { name: 'a', namespace: 'ns', labels: { 'a b': 'c d' } } },
    want: [
      {
        field: 'metadata.labels',
        message:
          "metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      },
      {
        field: 'metadata.labels',
        message:
          "metadata.labels: Invalid value: \"c d\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      },
    ],
  },
  {
    name: 'annotations too large',
    obj: { metadata: { name: 'a', namespace: 'ns', annotations: { big: 'x'.repeat(256 * 1024) } } },
    want: [{ field: 'metadata.annotations', message: 'metadata.annotations: Too long: may not be more than 262144 bytes' }],
  },
  { name: 'annotation key case-insensitive', obj: { metadata: { name: 'a', namespace: 'ns', annotations: { 'Example.COM/Key': 'v' } } }, want: [] },
  {
    name: 'owner reference without uid',
    obj: { metadata: { name: 'a', namespace: 'ns', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: '' }] } },
    want: [{ field: 'metadata.ownerReferences.uid', message: 'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty' }],
  },
  {
    name: 'negative generation',
    obj: { metadata: { name: 'a', namespace: 'ns', generation: -1 } },
    want: [{ field: 'metadata.generation', message: 'metadata.generation: Invalid value: -1: must be greater than or equal to 0' }],
  },
  {
    name: 'path-segment names allow capitals but not slashes',
    obj: { metadata: { name: 'A/b', namespace: 'ns' } },
    nameValidation: 'path-segment',
    want: [{ field: 'metadata.name', message: `metadata.name: Invalid value: "A/b": may not contain '/'` }],
  },
];

describe('validateObjectMeta', () => {
  for (const c of createCases) {
    test(c.name, () => {
      const got = validateObjectMeta(c.obj, { namespaced: c.namespaced ?? true, nameValidation: c.nameValidation ?? 'subdomain', isCreate: true });
      expect(got.map(({ field, message }) => ({ field, message }))).toEqual(c.want);
    });
  }
});

const prev: KubeObject = {
  metadata: { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5', creationTimestamp: '2026-01-01T00:00:00Z', generation: 2 },
};

const updateCases: { name: string; change: (m: KubeObject['metadata']) => void; prevChange?: (m: KubeObject['metadata']) => void; want: string[] }[] = [
  { name: 'unchanged', change: () => {}, want: [] },
  { name: 'name changed', change: (m) => (m.name = 'b'), want: ['metadata.name: Invalid value: "b": field is immutable'] },
  { name: 'uid changed', change: (m) => (m.uid = 'u2'), want: ['metadata.uid: Invalid value: "u2": field is immutable'] },
  {
    name: 'creationTimestamp changed',
    change: (m) => (m.creationTimestamp = '2027-01-01T00:00:00Z'),
    want: ['metadata.creationTimestamp: Invalid value: "2027-01-01T00:00:00Z": field is immutable'],
  },
  { name: 'no resourceVersion', change: (m) => delete m.resourceVersion, want: ['metadata.resourceVersion: Invalid value: "": must be specified for an update'] },
  { name: 'generation decremented', change: (m) => (m.generation = 1), want: ['metadata.generation: Invalid value: 1: must not be decremented'] },
  {
    name: 'new finalizer while deleting',
    prevChange: (m) => (m.deletionTimestamp = '2026-02-01T00:00:00Z'),
    change: (m) => {
      m.deletionTimestamp = '2026-02-01T00:00:00Z';
      m.finalizers = ['example.com/x'];
    },
    want: ['metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/x"}'],
  },
];

describe('validateObjectMetaUpdate', () => {
  for (const c of updateCases) {
    test(c.name, () => {
      const old = structuredClone(prev);
      c.prevChange?.(old.metadata);
      const next = structuredClone(prev);
      c.change(next.metadata);
      expect(validateObjectMetaUpdate(next, old).map((e) => e.message)).toEqual(c.want);
    });
  }
});
