// Value validation against compiled schemas as a CRD author writes them: every
// row's text is kube-apiserver's (kube-openapi's messages through
// kubeOpenAPIResultToFieldErrors; objectmeta and listtype checks), pinned from
// apiextensions-apiserver pkg/apiserver/validation/validation_test.go where it
// has the case. Plus hostile inputs: deep values, huge lists, backtracking patterns.
import { describe, expect, test } from 'vitest';
import { builtinDefinitions, type OpenApiSchema } from '../../../src/schema/definitions.js';
import { invalidValue, path, type FieldError } from '../../../src/schema/field-errors.js';
import { compileStructural, structuralDefinition } from '../../../src/schema/structural/index.js';
import { validateValues, type ValidateValuesOptions } from '../../../src/schema/structural/validate-values.js';

/** A CRD-style root object schema with the given properties. */
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenApiSchema =>
  ({ type: 'object', properties, ...extra }) as OpenApiSchema;
const field = (schema: Record<string, unknown>): OpenApiSchema => obj({ field: schema });

interface Case {
  readonly name: string;
  readonly schema: OpenApiSchema;
  readonly value: unknown;
  readonly options?: ValidateValuesOptions;
  /** The errors' messages, in order. */
  readonly want: readonly string[];
}

const cases: Case[] = [
  // --- types and nullable (upstream TestValidateCustomResource "!nullable", "nullable", int-or-string) ---
  { name: 'object given a string', schema: field({ type: 'object' }), value: { field: 'foo' }, want: ['field: Invalid value: "string": field in body must be of type object: "string"'] },
  { name: 'object given an integer', schema: field({ type: 'object' }), value: { field: 42 }, want: ['field: Invalid value: "integer": field in body must be of type object: "integer"'] },
  { name: 'object given a boolean', schema: field({ type: 'object' }), value: { field: true }, want: ['field: Invalid value: "boolean": field in body must be of type object: "boolean"'] },
  { name: 'object given a fraction', schema: field({ type: 'object' }), value: { field: 1.2 }, want: ['field: Invalid value: "number": field in body must be of type object: "number"'] },
  { name: 'object given a list', schema: field({ type: 'object' }), value: { field: [] }, want: ['field: Invalid value: "array": field in body must be of type object: "array"'] },
  { name: 'null where not nullable', schema: field({ type: 'object' }), value: { field: null }, want: ['field: Invalid value: "null": field in body must be of type object: "null"'] },
  { name: 'null where nullable', schema: field({ type: 'object', nullable: true }), value: { field: null }, want: [] },
  { name: 'nullable without a type takes anything', schema: field({ nullable: true }), value: { field: [1, { a: 'b' }] }, want: [] },
  { name: 'integer given a string', schema: obj({ spec: obj({ x: { type: 'integer' } }) }), value: { spec: { x: 'string' } }, want: ['spec.x: Invalid value: "string": spec.x in body must be of type integer: "string"'] },
  {
    name: 'integer given a fraction: the type and the int64 range both fail',
    schema: field({ type: 'integer' }),
    value: { field: 1.5 },
    want: ['field: Invalid value: "number": field in body must be of type integer: "number"', '<nil>: Invalid value: "": Checked value must be of type integer (default format) in field'],
  },
  { name: 'number takes an integer', schema: field({ type: 'number' }), value: { field: 3 }, want: [] },
  { name: 'string given a number', schema: field({ type: 'string' }), value: { field: 3 }, want: ['field: Invalid value: "integer": field in body must be of type string: "integer"'] },
  { name: 'boolean given a string', schema: field({ type: 'boolean' }), value: { field: 'true' }, want: ['field: Invalid value: "string": field in body must be of type boolean: "string"'] },
  { name: 'array given an object', schema: field({ type: 'array', items: { type: 'string' } }), value: { field: {} }, want: ['field: Invalid value: "object": field in body must be of type array: "object"'] },
  { name: 'int-or-string takes 42 and "foo"', schema: obj({ a: { 'x-kubernetes-int-or-string': true }, b: { 'x-kubernetes-int-or-string': true } }), value: { a: 42, b: 'foo' }, want: [] },
  { name: 'int-or-string given a boolean', schema: field({ 'x-kubernetes-int-or-string': true }), value: { field: true }, want: ['field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"'] },
  { name: 'int-or-string given a fraction', schema: field({ 'x-kubernetes-int-or-string': true }), value: { field: 1.2 }, want: ['field: Invalid value: "number": field in body must be of type integer,string: "number"'] },
  { name: 'int-or-string given null', schema: field({ 'x-kubernetes-int-or-string': true }), value: { field: null }, want: ['field: Invalid value: "null": field in body must be of type integer,string: "null"'] },
  {
    name: 'a string format names the Go type of a number',
    schema: field({ type: 'string', format: 'date-time' }),
    value: { field: 5 },
    want: ['field: Invalid value: "int64": field in body must be of type date-time: "int64"'],
  },
  { name: 'a string format lets a list through the type check (kube-openapi quirk)', schema: field({ type: 'string', format: 'date' }), value: { field: [] }, want: [] },
  { name: 'an unsupported format is stripped, as apiextensions strips it', schema: field({ type: 'string', format: 'no-such-format' }), value: { field: 'anything' }, want: [] },

  // --- numbers ---
  { name: 'minimum', schema: obj({ spec: obj({ replicas: { type: 'integer', minimum: 1 } }) }), value: { spec: { replicas: 0 } }, want: ['spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1'] },
  { name: 'exclusiveMinimum', schema: field({ type: 'integer', minimum: 1, exclusiveMinimum: true }), value: { field: 1 }, want: ['field: Invalid value: 1: field in body should be greater than 1'] },
  { name: 'maximum (status.num as upstream subresources_test)', schema: obj({ num: { type: 'integer', maximum: 10 } }), value: { num: 15 }, options: { path: path('status') }, want: ['status.num: Invalid value: 15: num in body should be less than or equal to 10'] },
  { name: 'exclusiveMaximum', schema: field({ type: 'number', maximum: 10, exclusiveMaximum: true }), value: { field: 10 }, want: ['field: Invalid value: 10: field in body should be less than 10'] },
  { name: 'a fraction against a fractional bound prints Go floats', schema: field({ type: 'number', maximum: 1.5 }), value: { field: 2.25 }, want: ['field: Invalid value: 2.25: field in body should be less than or equal to 1.5'] },
  { name: 'large floats print in Go exponent form', schema: field({ type: 'number', maximum: 1e6 }), value: { field: 1234567.5 }, want: ['field: Invalid value: 1.2345675e+06: field in body should be less than or equal to 1e+06'] },
  { name: 'an integer meets a bound truncated to an integer (Go int64(max))', schema: field({ type: 'number', maximum: 9.5 }), value: { field: 10 }, want: ['field: Invalid value: 10: field in body should be less than or equal to 9'] },
  { name: 'multipleOf an integer', schema: field({ type: 'integer', multipleOf: 3 }), value: { field: 10 }, want: ['field: Invalid value: 10: field in body should be a multiple of 3'] },
  { name: 'multipleOf a fraction', schema: field({ type: 'number', multipleOf: 0.5 }), value: { field: 0.75 }, want: ['field: Invalid value: 0.75: field in body should be a multiple of 0.5'] },
  { name: 'multipleOf a fraction within float error', schema: field({ type: 'number', multipleOf: 0.1 }), value: { field: 0.3 }, want: [] },
  {
    name: 'a bound the type cannot hold fails every value (kube-openapi range check of the constraint)',
    schema: field({ type: 'integer', maximum: 2.5 }),
    value: { field: 1 },
    want: ['<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in field'],
  },
  { name: 'int32 range', schema: field({ type: 'integer', format: 'int32' }), value: { field: 2 ** 31 }, want: ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in field'] },
  { name: 'int32 lower range', schema: field({ type: 'integer', format: 'int32' }), value: { field: -(2 ** 31) - 1 }, want: ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in field'] },
  { name: 'int32 bounds are valid', schema: obj({ a: { type: 'integer', format: 'int32' }, b: { type: 'integer', format: 'int32' } }), value: { a: 2 ** 31 - 1, b: -(2 ** 31) }, want: [] },
  {
    name: 'int64 overflow is a float64 to Go',
    schema: field({ type: 'integer', format: 'int64' }),
    value: { field: 2 ** 63 * 1.1 },
    want: ['field: Invalid value: "float64": field in body must be of type int64: "float64"', '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in field'],
  },
  { name: 'float range', schema: field({ type: 'number', format: 'float' }), value: { field: 3.4028234663852886e38 * 1.1 }, want: ['<nil>: Invalid value: "": Checked value must be of type number with format float in field'] },

  // --- strings ---
  { name: 'maxLength is Too long', schema: field({ type: 'string', maxLength: 2 }), value: { field: 'abc' }, want: ['field: Too long: may not be more than 2 bytes'] },
  { name: 'maxLength 1 says byte', schema: field({ type: 'string', maxLength: 1 }), value: { field: 'ab' }, want: ['field: Too long: may not be more than 1 byte'] },
  { name: 'lengths count runes, not UTF-16 units', schema: field({ type: 'string', maxLength: 2 }), value: { field: '😀😀' }, want: [] },
  { name: 'minLength', schema: field({ type: 'string', minLength: 3 }), value: { field: 'ab' }, want: ['field: Invalid value: "ab": field in body should be at least 3 chars long'] },
  { name: 'pattern (the path in the text is the field\'s)', schema: obj({ spec: obj({ foo: { type: 'string', pattern: '^a$' } }) }), value: { spec: { foo: 'x' } }, want: ["spec.foo: Invalid value: \"x\": spec.foo in body should match '^a$'"] },
  { name: 'only the first string failure is reported (maxLength before pattern)', schema: field({ type: 'string', maxLength: 1, pattern: '^a$' }), value: { field: 'xy' }, want: ['field: Too long: may not be more than 1 byte'] },
  {
    name: 'an invalid pattern says why (upstream "invalid regex")',
    schema: field({ type: 'string', pattern: '+' }),
    value: { field: 'foo' },
    want: ["field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'"],
  },
  { name: 'RE2 syntax: (?i) is accepted', schema: field({ type: 'string', pattern: '(?i)^abc$' }), value: { field: 'ABC' }, want: [] },
  { name: 'RE2 syntax: a pattern matches anywhere unless anchored', schema: field({ type: 'string', pattern: 'b' }), value: { field: 'abc' }, want: [] },

  // --- enum ---
  { name: 'enum of strings', schema: obj({ spec: obj({ foo: { type: 'string', enum: ['a', 'b'] } }) }), value: { spec: { foo: 'x' } }, want: ['spec.foo: Unsupported value: "x": supported values: "a", "b"'] },
  {
    name: 'enum with the wrong types (upstream "enum")',
    schema: field({ type: 'object', properties: { nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } } }),
    value: { field: { nestedint: 'x', nestedstring: true } },
    want: [
      'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
      'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
      'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
      'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
    ],
  },
  { name: 'enum of numbers matches an integer', schema: field({ type: 'number', enum: [1, 2.5] }), value: { field: 1 }, want: [] },
  { name: 'null never matches an enum, even one listing null', schema: field({ type: 'string', nullable: true, enum: ['a', null] }), value: { field: null }, want: ['field: Unsupported value: null: supported values: "a", "null"'] },
  { name: 'an object enum prints keys sorted, as Go marshals', schema: field({ type: 'object', enum: [{ b: 'x', a: 'y' }] }), value: { field: { z: '1' } }, want: ['field: Unsupported value: {"z":"1"}: supported values: "{\\"a\\":\\"y\\",\\"b\\":\\"x\\"}"'] },

  // --- arrays ---
  { name: 'maxItems is Too many', schema: obj({ spec: obj({ l: { type: 'array', maxItems: 3, items: { type: 'integer' } } }) }), value: { spec: { l: [1, 2, 3, 4] } }, want: ['spec.l: Too many: 4: must have at most 3 items'] },
  { name: 'maxItems 1 says item', schema: field({ type: 'array', maxItems: 1, items: { type: 'integer' } }), value: { field: [1, 2] }, want: ['field: Too many: 2: must have at most 1 item'] },
  { name: 'minItems', schema: field({ type: 'array', minItems: 2, items: { type: 'integer' } }), value: { field: [1] }, want: ['field: Invalid value: 1: field in body should have at least 2 items'] },
  { name: 'uniqueItems', schema: field({ type: 'array', uniqueItems: true, items: { type: 'object' } }), value: { field: [{ a: 1, b: 2 }, { b: 2, a: 1 }] }, want: ['field: Invalid value: "": field in body shouldn\'t contain duplicates'] },
  { name: 'item errors come before the list\'s own', schema: field({ type: 'array', maxItems: 1, items: { type: 'string' } }), value: { field: [1, 'a'] }, want: ['field[0]: Invalid value: "integer": field[0] in body must be of type string: "integer"', 'field: Too many: 2: must have at most 1 item'] },

  // --- objects ---
  { name: 'required (upstream "required field")', schema: obj({ field: obj({ nested: {} }, { required: ['nested'] }) }, { required: ['field'] }), value: { test: 'a' }, want: ['field: Required value'] },
  { name: 'required below', schema: obj({ field: obj({ nested: {} }, { required: ['nested'] }) }, { required: ['field'] }), value: { field: {} }, want: ['field.nested: Required value'] },
  { name: 'a required member present as null is present', schema: obj({ a: { type: 'string', nullable: true } }, { required: ['a'] }), value: { a: null }, want: [] },
  { name: 'maxProperties is Too many (upstream "maxProperties")', schema: obj({ fieldX: { type: 'object', maxProperties: 2 } }), value: { fieldX: { a: true, b: true, c: true } }, want: ['fieldX: Too many: 3: must have at most 2 items'] },
  { name: 'minProperties', schema: field({ type: 'object', minProperties: 1 }), value: { field: {} }, want: ['field: Invalid value: 0: field in body should have at least 1 properties'] },
  {
    name: 'map values: kube-openapi names them with a dot',
    schema: obj({ spec: obj({ labels: { type: 'object', additionalProperties: { type: 'string', pattern: '^v$' } } }) }),
    value: { spec: { labels: { key: 'x' } } },
    want: ["spec.labels.key: Invalid value: \"x\": spec.labels.key in body should match '^v$'"],
  },
  {
    name: 'errors follow the document order of members',
    schema: obj({ b: { type: 'string' }, a: { type: 'string' } }),
    value: { a: 1, b: 2 },
    want: ['a: Invalid value: "integer": a in body must be of type string: "integer"', 'b: Invalid value: "integer": b in body must be of type string: "integer"'],
  },
  {
    name: 'preserve-unknown-fields: undeclared members pass, declared ones are checked',
    schema: obj({ spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { n: { type: 'integer' } } } }),
    value: { spec: { anything: { deep: [1, 'x'] }, n: 'x' } },
    want: ['spec.n: Invalid value: "string": spec.n in body must be of type integer: "string"'],
  },

  // --- allOf / anyOf / oneOf / not ---
  {
    name: 'anyOf with no branch valid reports the branch that matched most',
    schema: obj({ o: { type: 'object', anyOf: [{ required: ['p'] }, { required: ['q'] }], properties: { p: { type: 'string' }, q: { type: 'string' } } } }),
    value: { o: {} },
    want: ['<nil>: Invalid value: "": "o" must validate at least one schema (anyOf)', 'o.p: Required value'],
  },
  { name: 'anyOf with one valid branch', schema: field({ type: 'integer', anyOf: [{ minimum: 5 }, { maximum: 1 }] }), value: { field: 0 }, want: [] },
  {
    name: 'oneOf with none valid',
    schema: field({ type: 'integer', oneOf: [{ minimum: 5 }, { maximum: 1 }] }),
    value: { field: 3 },
    want: ['<nil>: Invalid value: "": "field" must validate one and only one schema (oneOf). Found none valid', 'field: Invalid value: 3: field in body should be greater than or equal to 5'],
  },
  {
    name: 'oneOf with two valid',
    schema: field({ type: 'integer', oneOf: [{ minimum: 1 }, { maximum: 10 }] }),
    value: { field: 3 },
    want: ['<nil>: Invalid value: "": "field" must validate one and only one schema (oneOf). Found 2 valid alternatives'],
  },
  {
    name: 'allOf with none valid: the branches\' errors, then allOf',
    schema: field({ type: 'integer', allOf: [{ minimum: 5 }, { multipleOf: 2 }] }),
    value: { field: 3 },
    want: [
      'field: Invalid value: 3: field in body should be greater than or equal to 5',
      'field: Invalid value: 3: field in body should be a multiple of 2',
      '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
    ],
  },
  {
    name: 'allOf with one branch failing',
    schema: field({ type: 'integer', allOf: [{ minimum: 1 }, { multipleOf: 2 }] }),
    value: { field: 3 },
    want: ['field: Invalid value: 3: field in body should be a multiple of 2', '<nil>: Invalid value: "": "field" must validate all the schemas (allOf)'],
  },
  { name: 'not', schema: field({ type: 'string', not: { enum: ['forbidden'] } }), value: { field: 'forbidden' }, want: ['<nil>: Invalid value: "": "field" must not validate the schema (not)'] },
  {
    name: 'nested value validations reach properties of the value',
    schema: obj({ spec: { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ properties: { a: { maxLength: 1 } } }] } }),
    value: { spec: { a: 'xy' } },
    want: ['spec.a: Too long: may not be more than 1 byte', '<nil>: Invalid value: "": "spec" must validate all the schemas (allOf). None validated'],
  },
  {
    name: 'the same message twice is reported once (kube-openapi Result)',
    schema: field({ type: 'string', enum: ['a'], allOf: [{ enum: ['a'] }] }),
    value: { field: 'b' },
    want: ['field: Unsupported value: "b": supported values: "a"', '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated'],
  },
  { name: 'combinators are not run on null', schema: field({ type: 'string', nullable: true, anyOf: [{ minLength: 5 }] }), value: { field: null }, want: [] },
  { name: 'a base path takes the composite errors', schema: field({ type: 'integer', not: { minimum: 0 } }), value: { field: 1 }, options: { path: path('spec') }, want: ['spec: Invalid value: "": "field" must not validate the schema (not)'] },

  // --- formats ---
  { name: 'date-time', schema: field({ type: 'string', format: 'date-time' }), value: { field: '2024-02-30T10:00:00Z' }, want: ['field: Invalid value: "2024-02-30T10:00:00Z": field in body must be of type date-time: "2024-02-30T10:00:00Z"'] },
  { name: 'date-time valid forms', schema: obj({ a: { type: 'string', format: 'date-time' }, b: { type: 'string', format: 'datetime' } }), value: { a: '2024-02-29T23:59:59.123+01:00', b: '2024-01-01t00:00:00z' }, want: [] },
  { name: 'date', schema: field({ type: 'string', format: 'date' }), value: { field: '2023-02-29' }, want: ['field: Invalid value: "2023-02-29": field in body must be of type date: "2023-02-29"'] },
  { name: 'byte', schema: field({ type: 'string', format: 'byte' }), value: { field: 'abc' }, want: ['field: Invalid value: "abc": field in body must be of type byte: "abc"'] },
  { name: 'byte valid', schema: field({ type: 'string', format: 'byte' }), value: { field: 'aGk=' }, want: [] },
  { name: 'uuid', schema: field({ type: 'string', format: 'uuid' }), value: { field: 'not-a-uuid' }, want: ['field: Invalid value: "not-a-uuid": field in body must be of type uuid: "not-a-uuid"'] },
  { name: 'uuid valid in capitals', schema: field({ type: 'string', format: 'uuid4' }), value: { field: 'F47AC10B-58CC-4372-A567-0E02B2C3D479' }, want: [] },
  { name: 'k8s-short-name (upstream)', schema: obj({ fieldX: { type: 'string', format: 'k8s-short-name' } }), value: { fieldX: 'a-' }, want: ['fieldX: Invalid value: "a-": fieldX in body must be of type k8s-short-name: "a-"'] },
  { name: 'k8s-long-name (upstream)', schema: obj({ fieldX: { type: 'string', format: 'k8s-long-name' } }), value: { fieldX: 'a.-' }, want: ['fieldX: Invalid value: "a.-": fieldX in body must be of type k8s-long-name: "a.-"'] },
  {
    name: 'network formats',
    schema: obj({ a: { type: 'string', format: 'ipv4' }, b: { type: 'string', format: 'ipv6' }, c: { type: 'string', format: 'cidr' }, d: { type: 'string', format: 'mac' }, e: { type: 'string', format: 'hostname' } }),
    value: { a: '010.0.0.1', b: '::1', c: '10.0.0.0/8', d: '01:23:45:67:89:ab', e: 'example.com' },
    want: [],
  },
  {
    name: 'network formats refused',
    schema: obj({ a: { type: 'string', format: 'ipv4' }, c: { type: 'string', format: 'cidr' }, d: { type: 'string', format: 'mac' } }),
    value: { a: '::1', c: '10.0.0.0/33', d: '01:23:45' },
    want: [
      'a: Invalid value: "::1": a in body must be of type ipv4: "::1"',
      'c: Invalid value: "10.0.0.0/33": c in body must be of type cidr: "10.0.0.0/33"',
      'd: Invalid value: "01:23:45": d in body must be of type mac: "01:23:45"',
    ],
  },
  { name: 'duration: Go and Scala-like forms', schema: obj({ a: { type: 'string', format: 'duration' }, b: { type: 'string', format: 'duration' } }), value: { a: '1h30m', b: '3 days' }, want: [] },
  { name: 'duration refused', schema: field({ type: 'string', format: 'duration' }), value: { field: 'soon' }, want: ['field: Invalid value: "soon": field in body must be of type duration: "soon"'] },
  { name: 'email and uri are accepted unchecked', schema: obj({ a: { type: 'string', format: 'email' }, b: { type: 'string', format: 'uri' } }), value: { a: 'x', b: 'y' }, want: [] },

  // --- x-kubernetes-list-type ---
  {
    name: 'set: the later copy is the duplicate, a third is not reported again',
    schema: obj({ spec: obj({ tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } }) }),
    value: { spec: { tags: ['a', 'b', 'a', 'a'] } },
    want: ['spec.tags[2]: Duplicate value: "a"'],
  },
  {
    name: 'set of objects compares them whatever their key order',
    schema: field({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }),
    value: { field: [{ a: 1, b: 2 }, { b: 2, a: 1 }] },
    want: ['field[1]: Duplicate value: {"a":1,"b":2}'],
  },
  {
    name: 'map keyed by one key',
    schema: field({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' }, v: { type: 'integer' } } } }),
    value: { field: [{ name: 'a', v: 1 }, { name: 'a', v: 2 }, { v: 3 }, { v: 4 }] },
    want: ['field[1]: Duplicate value: {"name":"a"}', 'field[3]: Duplicate value: {}'],
  },
  {
    name: 'map keyed by two keys',
    schema: field({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port', 'protocol'], items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' } } } }),
    value: { field: [{ protocol: 'TCP', port: 80 }, { port: 80, protocol: 'UDP' }, { port: 80, protocol: 'TCP' }] },
    want: ['field[2]: Duplicate value: {"port":80,"protocol":"TCP"}'],
  },
  {
    name: 'map items must be objects',
    schema: field({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } }),
    value: { field: [{ name: 'a' }, 'x'] },
    want: ['field[1]: Invalid value: "string": field[1] in body must be of type object: "string"', 'field[1]: Invalid value: "x": must be an object for an array of list-type map'],
  },
  {
    name: 'list-type errors under a map value name the key in brackets',
    schema: obj({ m: { type: 'object', additionalProperties: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } } }),
    value: { m: { k: [1, 1] } },
    want: ['m[k][1]: Duplicate value: 1'],
  },

  // --- x-kubernetes-embedded-resource ---
  {
    name: 'embedded: an empty object still needs apiVersion and kind',
    schema: obj({ spec: obj({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }) }),
    value: { spec: { e: {} } },
    want: ['spec.e.apiVersion: Required value', 'spec.e.kind: Required value'],
  },
  {
    name: 'embedded: apiVersion and kind checked',
    schema: obj({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }),
    value: { e: { apiVersion: 'a/b/c', kind: 'foo.bar-com' } },
    want: [
      'e.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "e.kind: Invalid value: \"foo.bar-com\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  {
    name: 'embedded: empty and non-string apiVersion and kind',
    schema: obj({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }),
    value: { e: { apiVersion: '', kind: 5 } },
    want: ['e.apiVersion: Invalid value: "": must not be empty', 'e.kind: Invalid value: 5: must be a string'],
  },
  {
    name: 'embedded: metadata goes to the ObjectMeta hook, errors after the schema\'s',
    schema: obj({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }, n: { type: 'integer' } }),
    value: { e: { apiVersion: 'v1', kind: 'Pod', metadata: { name: '..' } }, n: 'x' },
    options: { validateEmbeddedMetadata: (meta, p) => [invalidValue(p.child('name'), (meta as { name: string }).name, 'bad name')] },
    want: ['n: Invalid value: "string": n in body must be of type integer: "string"', 'e.metadata.name: Invalid value: "..": bad name'],
  },

  // --- keys named like prototype members are data ---
  {
    name: '__proto__ and constructor as map keys',
    schema: obj({ m: { type: 'object', additionalProperties: { type: 'string' } } }),
    value: JSON.parse('{"m": {"__proto__": 1, "constructor": 2, "toString": "ok"}}'),
    want: ['m.__proto__: Invalid value: "integer": m.__proto__ in body must be of type string: "integer"', 'm.constructor: Invalid value: "integer": m.constructor in body must be of type string: "integer"'],
  },
  {
    name: 'a declared __proto__ property, and required constructor',
    schema: JSON.parse('{"type": "object", "required": ["constructor"], "properties": {"__proto__": {"type": "integer"}, "constructor": {"type": "string"}}}'),
    value: JSON.parse('{"__proto__": "x"}'),
    want: ['__proto__: Invalid value: "string": __proto__ in body must be of type integer: "string"', 'constructor: Required value'],
  },
  { name: 'an inherited name is not a member', schema: obj({ m: obj({}, { required: ['toString'] }) }), value: { m: {} }, want: ['m.toString: Required value'] },
];

function messages(errs: readonly FieldError[]): string[] {
  return errs.map((e) => e.message);
}

describe('validateValues', () => {
  for (const c of cases) {
    test(c.name, () => {
      expect(messages(validateValues(compileStructural(c.schema), c.value, c.options))).toEqual(c.want);
    });
  }
});

describe('validateValues: error types', () => {
  const rows: { name: string; schema: OpenApiSchema; value: unknown; want: string[] }[] = [
    { name: 'TypeInvalid, NotSupported, TooLong, TooMany, Required', schema: obj({ a: { type: 'integer' }, b: { type: 'string', enum: ['x'], maxLength: 1 }, c: { type: 'array', maxItems: 0, items: { type: 'integer' } } }, { required: ['d'] }), value: { a: 'x', b: 'yy', c: [1] }, want: ['FieldValueTypeInvalid', 'FieldValueTooLong', 'FieldValueNotSupported', 'FieldValueTooMany', 'FieldValueRequired'] },
    { name: 'Invalid and Duplicate', schema: obj({ a: { type: 'integer', minimum: 1 }, s: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } }), value: { a: 0, s: [1, 1] }, want: ['FieldValueInvalid', 'FieldValueDuplicate'] },
  ];
  for (const r of rows) {
    test(r.name, () => {
      expect(validateValues(compileStructural(r.schema), r.value).map((e) => e.type)).toEqual(r.want);
    });
  }
});

describe('validateValues on a built-in definition', () => {
  const deployment = structuralDefinition(builtinDefinitions, 'io.k8s.api.apps.v1.Deployment')!;
  const base = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', creationTimestamp: '2024-01-01T00:00:00Z' } };
  const rows: { name: string; value: unknown; want: string[] }[] = [
    {
      name: 'a valid Deployment (quantities as numbers, int-or-string, times) has none',
      value: { ...base, spec: { replicas: 2, selector: { matchLabels: { a: 'b' } }, strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } }, template: { spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 1, memory: '1Gi' } } }] } } } },
      want: [],
    },
    {
      name: 'wrong types, missing required members, duplicate container names',
      value: { ...base, spec: { replicas: 'x', selector: {}, template: { spec: { containers: [{ name: 'c' }, { name: 'c' }, { image: 'i' }] } } } },
      want: [
        'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
        'spec.template.spec.containers[2].name: Required value',
        'spec.template.spec.containers[1]: Duplicate value: {"name":"c"}',
      ],
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      expect(messages(validateValues(deployment, r.value))).toEqual(r.want);
    });
  }
});

/** A value nested `depth` levels: {a: {a: ... {leaf}}}. */
function nest(depth: number, leaf: unknown, key = 'a'): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { [key]: v };
  return v;
}

describe('validateValues: hostile input', () => {
  const rows: { name: string; node: () => ReturnType<typeof compileStructural>; value: () => unknown; wantCount: number; wantFirst?: string }[] = [
    {
      name: '1,000 levels under preserve-unknown-fields',
      node: () => compileStructural(obj({ spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } })),
      value: () => ({ spec: nest(1000, 'x') }),
      wantCount: 0,
    },
    {
      name: '1,000 levels down a recursive built-in schema (JSONSchemaProps)',
      node: () => structuralDefinition(builtinDefinitions, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')!,
      // Two object levels per step: 1,000 levels, the most decoding lets through (codecs/depth.ts).
      value: () => {
        let v: unknown = { type: 5 };
        for (let i = 0; i < 499; i++) v = { properties: { p: v } };
        return v;
      },
      wantCount: 1,
      wantFirst: `${'properties.p.'.repeat(499)}type: Invalid value: "integer": ${'properties.p.'.repeat(499)}type in body must be of type string: "integer"`,
    },
    {
      name: 'a list of 200,000 items, every one checked',
      node: () => compileStructural(field({ type: 'array', items: { type: 'integer', minimum: 0 } })),
      value: () => ({ field: Array.from({ length: 200_000 }, (_, i) => (i === 199_999 ? -1 : i)) }),
      wantCount: 1,
      wantFirst: 'field[199999]: Invalid value: -1: field[199999] in body should be greater than or equal to 0',
    },
    {
      name: 'a set of 100,000 items is checked in linear time',
      node: () => compileStructural(field({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } })),
      value: () => ({ field: Array.from({ length: 100_000 }, (_, i) => `v${i % 99_999}`) }),
      wantCount: 1,
      wantFirst: 'field[99999]: Duplicate value: "v0"',
    },
    {
      name: '(a+)+$ against 100,000 a\'s and a b completes (re2js is linear)',
      node: () => compileStructural(field({ type: 'string', pattern: '^(a+)+$' })),
      value: () => ({ field: `${'a'.repeat(100_000)}b` }),
      wantCount: 1,
    },
    {
      name: 'a lookahead pattern (refused by Go\'s regexp) is reported, not run',
      node: () => compileStructural(field({ type: 'string', pattern: '(?=a)a' })),
      value: () => ({ field: 'a' }),
      wantCount: 1,
      wantFirst: "field: Invalid value: \"a\": field in body should match '(?=a)a, but pattern is invalid: error parsing regexp: invalid or unsupported Perl syntax: `(?=`'",
    },
    {
      name: 'a hostname that would backtrack a JS regexp completes',
      node: () => compileStructural(field({ type: 'string', format: 'hostname' })),
      value: () => ({ field: `${'a.'.repeat(120)}!` }),
      wantCount: 1,
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const node = r.node();
      const value = r.value();
      const started = performance.now();
      const errs = validateValues(node, value);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(errs).toHaveLength(r.wantCount);
      if (r.wantFirst !== undefined) expect(errs[0]!.message).toBe(r.wantFirst);
    });
  }

  test('a valid write allocates no errors and leaves the value as it was', () => {
    const node = compileStructural(obj({ spec: obj({ a: { type: 'string', pattern: '^x' }, n: { type: 'integer', minimum: 0 } }) }));
    const value = { spec: { a: 'xy', n: 3 } };
    const before = JSON.stringify(value);
    expect(validateValues(node, value)).toEqual([]);
    expect(JSON.stringify(value)).toBe(before);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});
