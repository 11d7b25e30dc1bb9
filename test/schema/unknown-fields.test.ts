import { describe, expect, test } from 'vitest';
// Unknown-field detection (fieldValidation) is one half of the typed walk: these
// rows pin which fields it reports; test/schema/typed.test.ts pins the types.
import { builtinDefinitions, type OpenApiSchema } from '../../src/schema/definitions.js';
import { checkTyped } from '../../src/schema/typed.js';

const findUnknownFields = (schemaName: string, input: unknown): readonly string[] => checkTyped(schemaName, input, builtinDefinitions).unknownFields;
const findUnknownFieldsInSchema = (schema: OpenApiSchema, input: unknown): readonly string[] =>
  checkTyped('test.example.v1.Widget', input, { ...builtinDefinitions, 'test.example.v1.Widget': schema }).unknownFields;

const POD = 'io.k8s.api.core.v1.Pod';
const CONFIG_MAP = 'io.k8s.api.core.v1.ConfigMap';

describe('unknown fields against the built-in table', () => {
  const cases: { name: string; schemaName: string; input: unknown; want: string[] }[] = [
    {
      name: 'a valid ConfigMap has none',
      schemaName: CONFIG_MAP,
      input: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' } }, data: { k: 'v' } },
      want: [],
    },
    {
      name: 'top-level unknown field',
      schemaName: CONFIG_MAP,
      input: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, dat: { k: 'v' } },
      want: ['dat'],
    },
    {
      name: 'Object.prototype member names are unknown fields, not declared ones (issue #8)',
      schemaName: CONFIG_MAP,
      input: { metadata: { name: 'a', toString: { x: 1 }, constructor: 'c' }, valueOf: 1, hasOwnProperty: [1] },
      want: ['metadata.toString', 'metadata.constructor', 'valueOf', 'hasOwnProperty'],
    },
    {
      name: 'unknown metadata field via ObjectMeta',
      schemaName: CONFIG_MAP,
      input: { metadata: { name: 'a', nmae: 'b' } },
      want: ['metadata.nmae'],
    },
    {
      name: 'unknown fields in spec and inside a list element',
      schemaName: POD,
      input: {
        metadata: { name: 'p' },
        spec: { foo: 1, containers: [{ name: 'c', image: 'i' }, { name: 'd', image: 'i', bar: true }] },
      },
      want: ['spec.foo', 'spec.containers[1].bar'],
    },
    {
      name: 'int-or-string values are not descended',
      schemaName: POD,
      input: {
        spec: {
          containers: [
            { name: 'c', livenessProbe: { httpGet: { port: 'http', path: '/' } }, ports: [{ containerPort: 80 }] },
          ],
        },
      },
      want: [],
    },
    {
      name: 'map values are checked against additionalProperties schemas',
      schemaName: POD,
      input: {
        spec: {
          containers: [{ name: 'c', resources: { limits: { cpu: '1' }, requests: { memory: '1Gi' } } }],
          nodeSelector: { zone: 'a' },
          overhead: { cpu: '10m' },
        },
      },
      want: [],
    },
    {
      name: 'managedFields fieldsV1 is opaque (FieldsV1 takes raw JSON)',
      schemaName: CONFIG_MAP,
      input: { metadata: { managedFields: [{ manager: 'm', fieldsV1: { 'f:data': { 'f:k': {} } } }] } },
      want: [],
    },
    {
      name: 'nulls are not unknown fields',
      schemaName: POD,
      input: { metadata: null, spec: { containers: null, volumes: [null] } },
      want: [],
    },
    {
      name: 'unknown definition reports nothing',
      schemaName: 'io.example.v1.Nope',
      input: { whatever: 1 },
      want: [],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(findUnknownFields(c.schemaName, c.input)).toEqual(c.want);
    });
  }
});

describe('unknown fields under schema markers', () => {
  const widget: OpenApiSchema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
      spec: {
        type: 'object',
        properties: {
          size: { type: 'integer' },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } },
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { b: { type: 'string' } } } } },
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          byName: { type: 'object', additionalProperties: { type: 'object', properties: { c: { type: 'string' } } } },
          wrapped: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.LocalObjectReference' }] },
        },
      },
    },
  };
  const cases: { name: string; input: unknown; want: string[] }[] = [
    { name: 'preserve-unknown-fields keeps unknown keys', input: { spec: { free: { anything: { x: 1 } } } }, want: [] },
    { name: 'known properties below preserve-unknown-fields are still checked', input: { spec: { free: { known: { z: 1 } } } }, want: ['spec.free.known.z'] },
    {
      name: 'embedded resource allows apiVersion/kind and checks metadata',
      input: { spec: { template: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n', oops: 1 }, spec: { b: 'x', c: 1 } } } },
      want: ['spec.template.metadata.oops', 'spec.template.spec.c'],
    },
    { name: 'int-or-string takes both', input: { spec: { port: 'http' } }, want: [] },
    { name: 'map value schema applies per key', input: { spec: { byName: { one: { c: 'x' }, two: { d: 'y' } } } }, want: ['spec.byName.two.d'] },
    { name: 'v3 allOf wrapper resolves', input: { spec: { wrapped: { name: 'n', extra: 1 } } }, want: ['spec.wrapped.extra'] },
    { name: 'unknown top-level field', input: { spec: { size: 1 }, status: {} }, want: ['status'] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(findUnknownFieldsInSchema(widget, c.input)).toEqual(c.want);
    });
  }
});
