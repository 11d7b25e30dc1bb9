// Typed decoding against the built-in table: every wrong JSON type is refused with
// Go's encoding/json wording and the struct field path, nulls become Go's zero
// values, and undeclared fields (prototype-named ones included) are reported.
import { describe, expect, test } from 'vitest';
import { builtinDefinitions } from '../../src/schema/definitions.js';
import { checkTyped, isSchemaTypeError } from '../../src/schema/typed.js';

const CM = 'io.k8s.api.core.v1.ConfigMap';
const SECRET = 'io.k8s.api.core.v1.Secret';
const POD = 'io.k8s.api.core.v1.Pod';
const SVC = 'io.k8s.api.core.v1.Service';
const EVENT = 'io.k8s.api.core.v1.Event';

interface Case {
  readonly name: string;
  readonly schema: string;
  readonly input: unknown;
  /** The decoder's text, when the input is refused. */
  readonly error?: string;
  readonly unknown?: readonly string[];
  /** The object after normalization, when accepted. */
  readonly normalized?: unknown;
}

const meta = (m: object) => ({ metadata: m });

const cases: Case[] = [
  { name: 'name as a number', schema: CM, input: meta({ name: 15 }), error: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string' },
  { name: 'name as an array', schema: CM, input: meta({ name: ['a'] }), error: 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.name of type string' },
  { name: 'name as a boolean', schema: CM, input: meta({ name: true }), error: 'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string' },
  { name: 'labels as an array', schema: CM, input: meta({ labels: ['a'] }), error: 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string' },
  { name: 'a label value as a number (map values keep the map field)', schema: CM, input: meta({ labels: { a: 1 } }), error: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string' },
  { name: 'a label value as an object named toString', schema: CM, input: meta({ labels: { toString: 'a', b: { toString: 'a' } } }), error: 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string' },
  { name: 'data as an array', schema: CM, input: { data: ['a'] }, error: 'json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string' },
  { name: 'finalizers as a string', schema: CM, input: meta({ finalizers: 'a' }), error: 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string' },
  { name: 'finalizers: [1]', schema: CM, input: meta({ finalizers: [1] }), error: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.finalizers of type string' },
  { name: 'ownerReferences as an object', schema: CM, input: meta({ ownerReferences: {} }), error: 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.ownerReferences of type []v1.OwnerReference' },
  { name: 'ownerReferences: [{apiVersion: 1}]', schema: CM, input: meta({ ownerReferences: [{ apiVersion: 1 }] }), error: 'json: cannot unmarshal number into Go struct field OwnerReference.metadata.ownerReferences.apiVersion of type string' },
  { name: 'immutable as a string', schema: CM, input: { immutable: 'true' }, error: 'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool' },
  { name: 'generation as a fraction', schema: CM, input: meta({ generation: 1.5 }), error: 'json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64' },
  { name: 'an int32 out of range', schema: SVC, input: { spec: { ports: [{ port: 2 ** 31 }] } }, error: 'json: cannot unmarshal number 2147483648 into Go struct field ServicePort.spec.ports.port of type int32' },
  { name: 'a nested struct as a string', schema: POD, input: { spec: 'x' }, error: 'json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec' },
  { name: 'deep in a pod', schema: POD, input: { spec: { containers: [{ name: 'a', image: 'b', ports: [{ containerPort: '80' }] }] } }, error: 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32' },
  { name: 'a quantity that is not one', schema: POD, input: { spec: { containers: [{ name: 'a', resources: { limits: { cpu: 'lots' } } }] } }, error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
  { name: 'a quantity as a boolean', schema: POD, input: { spec: { containers: [{ name: 'a', resources: { limits: { cpu: true } } }] } }, error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
  // A text accepted once is remembered; one refused is refused every time.
  { name: 'a remembered quantity beside a refused one', schema: POD, input: { spec: { containers: [{ name: 'a', resources: { limits: { memory: '1Gi' }, requests: { memory: '1Gi', cpu: '1Qi' } } }] } }, error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
  { name: 'a refused quantity again', schema: POD, input: { spec: { containers: [{ name: 'a', resources: { limits: { cpu: '1Qi' } } }] } }, error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
  { name: 'a quantity with a bad suffix', schema: POD, input: { spec: { containers: [{ name: 'a', resources: { limits: { memory: '1Qi' } } }] } }, error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
  { name: 'int-or-string as an object', schema: SVC, input: { spec: { ports: [{ port: 80, targetPort: {} }] } }, error: 'json: cannot unmarshal object into Go value of type int32' },
  { name: 'int-or-string as a fraction', schema: SVC, input: { spec: { ports: [{ port: 80, targetPort: 1.5 }] } }, error: 'json: cannot unmarshal number 1.5 into Go value of type int32' },
  { name: 'a time that is not RFC 3339', schema: CM, input: meta({ creationTimestamp: 'yesterday' }), error: 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"' },
  { name: 'a time as a number', schema: CM, input: meta({ creationTimestamp: 5 }), error: 'json: cannot unmarshal number into Go value of type string' },
  { name: 'a time with month 13', schema: CM, input: meta({ creationTimestamp: '2024-13-01T00:00:00Z' }), error: 'parsing time "2024-13-01T00:00:00Z": month out of range' },
  { name: 'a time with extra text', schema: CM, input: meta({ creationTimestamp: '2024-01-01T00:00:00Zjunk' }), error: 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"' },
  { name: 'secret data that is not base64', schema: SECRET, input: { data: { a: 'not base64!' } }, error: 'illegal base64 data at input byte 3' },
  { name: 'secret data with a short last quantum', schema: SECRET, input: { data: { a: 'YWJj=' } }, error: 'illegal base64 data at input byte 4' },
  { name: 'an event time (MicroTime) that is not one', schema: EVENT, input: { eventTime: '12:00' }, error: 'parsing time "12:00" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "12:00" as "2006"' },

  { name: 'a well-typed config map', schema: CM, input: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' }, creationTimestamp: '2024-02-29T10:11:12.5+01:00' }, data: { k: 'v' } }, unknown: [] },
  { name: 'secret data in base64 with line breaks', schema: SECRET, input: { data: { a: 'YW\r\nJj', b: 'YQ==', c: 'YWI=' } }, unknown: [] },
  { name: 'quantities as text and numbers', schema: POD, input: { spec: { containers: [{ name: 'a', resources: { limits: { cpu: '500m', memory: 1024, x: '1e3', y: '2Gi', z: '.5' } } }] } }, unknown: [] },
  { name: 'int-or-string as text and number', schema: SVC, input: { spec: { ports: [{ port: 80, targetPort: 'http' }, { port: 81, targetPort: 8081 }] } }, unknown: [] },
  { name: 'opaque fields take anything', schema: CM, input: meta({ managedFields: [{ manager: 'm', fieldsV1: { 'f:data': { '.': {} } } }] }), unknown: [] },
  {
    name: 'prototype-named keys are undeclared fields, not members of the schema',
    schema: CM,
    input: { toString: 1, constructor: { a: 1 }, valueOf: [], metadata: { hasOwnProperty: 'x', name: 'a' }, data: { toString: 'kept' } },
    unknown: ['toString', 'constructor', 'valueOf', 'metadata.hasOwnProperty'],
  },
  { name: 'an undeclared field in a list item', schema: POD, input: { spec: { containers: [{ name: 'a' }, { name: 'b', bogus: 1 }] } }, unknown: ['spec.containers[1].bogus'] },

  {
    name: 'quantities are written back in canonical form (Quantity.String)',
    schema: POD,
    input: { spec: { containers: [{ name: 'a', resources: {
      limits: { cpu: '1000m', memory: '1024Mi', a: 0.5, b: 1048576, c: ' 2 ', d: '1e3', e: '+1', f: '100m' },
      requests: { cpu: '0.1', memory: '0.5Mi', g: '1.5Gi', h: '2000m', i: '0', j: '1500m' },
    } }] } },
    normalized: { spec: { containers: [{ name: 'a', resources: {
      limits: { cpu: '1', memory: '1Gi', a: '500m', b: '1048576', c: '2', d: '1e3', e: '1', f: '100m' },
      requests: { cpu: '100m', memory: '512Ki', g: '1536Mi', h: '2', i: '0', j: '1500m' },
    } }] } },
  },
  {
    name: 'times are written back in UTC: metav1.Time to the second, MicroTime with six digits',
    schema: EVENT,
    input: {
      metadata: { creationTimestamp: '2024-01-01T00:00:00Z' },
      firstTimestamp: '2024-01-01T03:04:05.5+02:00',
      lastTimestamp: '2024-01-01T3:04:05Z',
      eventTime: '2024-01-01T00:00:00.123456+02:00',
      series: { count: 2, lastObservedTime: '2024-01-01T00:00:00,000001-00:30' },
    },
    normalized: {
      metadata: { creationTimestamp: '2024-01-01T00:00:00Z' },
      firstTimestamp: '2024-01-01T01:04:05Z',
      lastTimestamp: '2024-01-01T03:04:05Z',
      eventTime: '2023-12-31T22:00:00.123456Z',
      series: { count: 2, lastObservedTime: '2024-01-01T00:30:00.000001Z' },
    },
  },
  {
    name: 'a time before year 0 is written with a sign, as Go formats it',
    schema: CM,
    input: meta({ creationTimestamp: '0000-01-01T00:30:00+01:00' }),
    normalized: meta({ creationTimestamp: '-0001-12-31T23:30:00Z' }),
  },
  {
    name: 'nulls: absent fields, zero-valued list items and map values',
    schema: CM,
    input: { metadata: { name: 'a', namespace: null, labels: { a: null }, finalizers: [null, 'f'], creationTimestamp: null }, data: null, binaryData: { b: null } },
    normalized: { metadata: { name: 'a', labels: { a: '' }, finalizers: ['', 'f'] }, binaryData: { b: '' } },
  },
];

describe('checkTyped against the built-in table', () => {
  for (const c of cases) {
    test(c.name, () => {
      const input = structuredClone(c.input) as Record<string, unknown>;
      let thrown: unknown;
      let unknown: readonly string[] | undefined;
      try {
        unknown = checkTyped(c.schema, input, builtinDefinitions).unknownFields;
      } catch (err) {
        thrown = err;
      }
      if (c.error !== undefined) {
        expect(isSchemaTypeError(thrown)).toBe(true);
        expect((thrown as Error).message).toBe(c.error);
        return;
      }
      expect(thrown).toBeUndefined();
      if (c.unknown !== undefined) expect(unknown).toEqual(c.unknown);
      if (c.normalized !== undefined) expect(input).toEqual(c.normalized);
    });
  }

  test('a __proto__ key from JSON.parse is data: reported, never a prototype', () => {
    const input = JSON.parse('{"metadata":{"name":"a","labels":{"__proto__":null}},"__proto__":{"polluted":1}}') as Record<string, unknown>;
    const { unknownFields } = checkTyped(CM, input, builtinDefinitions);
    expect(unknownFields).toEqual(['__proto__']);
    const labels = (input.metadata as { labels: object }).labels;
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(labels, '__proto__')?.value).toBe('');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('unknown fields are dropped by reference, whatever their names', () => {
    const input = JSON.parse('{"metadata":{"name":"a","x[0]":1},"a.b":1,"":2,"..":{"c":1},"__proto__":{"p":1},"data":{"a.b":"kept"}}') as Record<string, unknown>;
    const checked = checkTyped(CM, input, builtinDefinitions);
    expect(checked.unknownFields).toEqual(['metadata.x[0]', 'a.b', '', '..', '__proto__']);
    checked.dropUnknownFields();
    expect(input).toEqual({ metadata: { name: 'a' }, data: { 'a.b': 'kept' } });
    expect(Object.hasOwn(input, '__proto__')).toBe(false);
  });

  test('an unknown definition checks nothing', () => {
    expect(checkTyped('no.such.Kind', { a: 1 }, builtinDefinitions).unknownFields).toEqual([]);
  });
});
