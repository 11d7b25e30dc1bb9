// x-kubernetes-validations run against custom resources: the field errors
// kube-apiserver returns (apiextensions pkg/apiserver/schema/cel validation.go
// Validator.Validate), transition rules, the shared cost budget.
import { describe, expect, test } from 'vitest';
import { evaluateRules } from '../../src/cel/index.js';
import type { OpenApiSchema } from '../../src/schema/definitions.js';
import { compileStructural } from '../../src/schema/structural/index.js';

type Rules = OpenApiSchema['x-kubernetes-validations'];

/** A custom resource schema whose spec carries `rules`; `x`, `list` and `labels` may carry their own. */
function schemaWith(rules: Rules, more: { x?: Rules; list?: Rules; labels?: Rules; ports?: Rules; root?: Rules } = {}): OpenApiSchema {
  return {
    type: 'object',
    'x-kubernetes-validations': more.root,
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': rules,
        properties: {
          x: { type: 'string', maxLength: 20, 'x-kubernetes-validations': more.x },
          n: { type: 'integer' },
          list: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20, 'x-kubernetes-validations': more.list } },
          labels: { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 20, 'x-kubernetes-validations': more.labels } },
          ports: {
            type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 10 }, port: { type: 'integer' } }, 'x-kubernetes-validations': more.ports },
          },
        },
      },
    },
  } as OpenApiSchema;
}

const spec = { x: 'abc', n: 0, list: ['a', 'b'], labels: { app: '' }, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] };

interface EvaluateRow {
  readonly name: string;
  readonly schema: OpenApiSchema;
  readonly obj?: Record<string, unknown>;
  readonly old?: Record<string, unknown>;
  readonly costBudget?: number;
  readonly want: readonly string[];
}

const rows: EvaluateRow[] = [
  { name: 'a rule that holds', schema: schemaWith([{ rule: 'self.n >= 0' }]), want: [] },
  {
    name: 'a false rule on an object leaves the value out',
    schema: schemaWith([{ rule: 'self.n > 0' }]),
    want: ['spec: Invalid value: failed rule: self.n > 0'],
  },
  {
    name: 'a false rule on a string shows it quoted, with the rule\'s message',
    schema: schemaWith([], { x: [{ rule: "self.startsWith('z')", message: ' must start with z ' }] }),
    want: ['spec.x: Invalid value: "abc": must start with z'],
  },
  {
    name: 'the messageExpression is the message',
    schema: schemaWith([{ rule: 'self.n > 0', message: 'unused', messageExpression: "'n is ' + string(self.n)" }]),
    want: ['spec: Invalid value: n is 0'],
  },
  {
    name: 'a messageExpression that fails falls back to the message',
    schema: schemaWith([{ rule: 'self.n > 0', message: 'n must be positive', messageExpression: "self.labels['nope']" }]),
    want: ['spec: Invalid value: n must be positive'],
  },
  {
    name: 'a blank messageExpression result falls back to the rule',
    schema: schemaWith([{ rule: 'self.n > 0', messageExpression: "'  '" }]),
    want: ['spec: Invalid value: failed rule: self.n > 0'],
  },
  {
    name: 'reasons pick the error type',
    schema: schemaWith([
      { rule: 'self.n > 0', message: 'forbidden n', reason: 'FieldValueForbidden' },
      { rule: 'self.n > 0', message: 'n needed', reason: 'FieldValueRequired' },
      { rule: 'self.n > 0', reason: 'FieldValueDuplicate' },
    ], { x: [{ rule: "self != 'abc'", reason: 'FieldValueDuplicate' }] }),
    want: ['spec: Forbidden: forbidden n', 'spec: Required value: n needed', 'spec: Duplicate value', 'spec.x: Duplicate value: "abc"'],
  },
  {
    name: 'fieldPath moves the error to the field it names',
    schema: schemaWith([{ rule: 'self.n > 0', fieldPath: '.n' }, { rule: "self.labels['app'] != ''", fieldPath: ".labels['app']" }]),
    want: ['spec.n: Invalid value: failed rule: self.n > 0', "spec.labels[app]: Invalid value: failed rule: self.labels['app'] != ''"],
  },
  {
    name: 'a rule at the root of the object is reported at <nil>',
    schema: schemaWith([], { root: [{ rule: "self.metadata.name == 'web'" }] }),
    obj: { metadata: { name: 'db' }, spec },
    want: ["<nil>: Invalid value: failed rule: self.metadata.name == 'web'"],
  },
  {
    name: 'list items and map values have their own paths',
    schema: schemaWith([], { list: [{ rule: "self != 'b'" }], labels: [{ rule: "self != ''", message: 'empty label' }] }),
    // In the object's order (kube walks a Go map, in no fixed order).
    want: ['spec.list[1]: Invalid value: "b": failed rule: self != \'b\'', 'spec.labels[app]: Invalid value: "": empty label'],
  },
  {
    name: 'a transition rule does not run on create',
    schema: schemaWith([{ rule: 'self.n >= oldSelf.n' }]),
    want: [],
  },
  {
    name: 'a transition rule runs on update',
    schema: schemaWith([{ rule: 'self.n >= oldSelf.n', message: 'n may not decrease' }]),
    old: { spec: { ...spec, n: 5 } },
    want: ['spec: Invalid value: n may not decrease'],
  },
  {
    name: 'an optionalOldSelf rule runs on create with oldSelf absent',
    schema: schemaWith([{ rule: 'oldSelf.hasValue() || self.n > 0', message: 'new objects need n', optionalOldSelf: true }]),
    want: ['spec: Invalid value: new objects need n'],
  },
  {
    name: 'an optionalOldSelf rule sees the old value on update',
    schema: schemaWith([{ rule: '!oldSelf.hasValue() || self.n >= oldSelf.value().n', message: 'n may not decrease', optionalOldSelf: true }]),
    old: { spec: { ...spec, n: 1 } },
    want: ['spec: Invalid value: n may not decrease'],
  },
  {
    name: 'map list items pair with the old item of the same key',
    schema: schemaWith([], { ports: [{ rule: 'self.port == oldSelf.port', message: 'port is immutable' }] }),
    old: { spec: { ...spec, ports: [{ name: 'https', port: 8443 }] } },
    want: ['spec.ports[1]: Invalid value: port is immutable'],
  },
  {
    name: 'a runtime error names the rule',
    schema: schemaWith([{ rule: "self.labels['nope'] == 'x'" }]),
    want: ['spec: Invalid value: "object": No such key: nope evaluating rule: self.labels[\'nope\'] == \'x\''],
  },
  {
    name: 'a rule that did not compile is reported where it would run',
    schema: schemaWith([{ rule: 'self.x' }]),
    want: ['spec: Invalid value: "object": rule compile error: cel expression must evaluate to a bool'],
  },
  {
    name: 'the object\'s cost budget stops every later rule',
    schema: schemaWith([{ rule: 'self.list.all(e, e.size() > 5)' }, { rule: 'self.n > 0' }], { x: [{ rule: 'self.size() > 10' }] }),
    costBudget: 3,
    want: ['spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run'],
  },
  {
    name: 'null and absent values are not judged',
    schema: schemaWith([], { x: [{ rule: 'self.size() > 10' }] }),
    obj: { spec: { x: null, n: 1 } },
    want: [],
  },
];

describe('evaluateRules', () => {
  for (const row of rows) {
    test(row.name, () => {
      const errors = evaluateRules(compileStructural(row.schema), row.obj ?? { spec }, row.old, { costBudget: row.costBudget });
      expect(errors.map((e) => e.message)).toEqual(row.want);
    });
  }
});
