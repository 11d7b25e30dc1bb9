// x-kubernetes-validations compiled as kube-apiserver compiles them on CRD create
// and update: the errors it reports (wording and paths of apiextensions
// validation.go and schema/cel/compilation.go) and the programs it keeps.
import { describe, expect, test } from 'vitest';
import { compileRules } from '../../src/cel/index.js';
import { costErrorMessage } from '../../src/cel/rules/messages.js';
import { goJsonString } from '../../src/schema/go-json.js';
import { builtinDefinitions, type OpenApiSchema } from '../../src/schema/definitions.js';
import { path, type FieldPath } from '../../src/schema/field-errors.js';
import { compileStructural } from '../../src/schema/structural/index.js';

const AT = path('spec', 'validation', 'openAPIV3Schema');
const SPEC = 'spec.validation.openAPIV3Schema.properties[spec]';
const BUDGET_HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

/** A CRD root with `spec` holding `props` and carrying `rules`. */
function specWith(rules: readonly object[], props: Record<string, OpenApiSchema> = { x: { type: 'string' }, n: { type: 'integer' } }): OpenApiSchema {
  return { type: 'object', properties: { spec: { type: 'object', properties: props, 'x-kubernetes-validations': rules as OpenApiSchema['x-kubernetes-validations'] } } };
}

/** `{"Rule":…}` as kube prints an apiextensions.ValidationRule in field.Invalid. */
function rule(r: { rule: string; message?: string; messageExpression?: string; reason?: string; fieldPath?: string; optionalOldSelf?: boolean }): string {
  return `{"Rule":${goJsonString(r.rule)},"Message":${goJsonString(r.message ?? '')},"MessageExpression":${goJsonString(r.messageExpression ?? '')},` +
    `"Reason":${r.reason === undefined ? 'null' : JSON.stringify(r.reason)},"FieldPath":${goJsonString(r.fieldPath ?? '')},"OptionalOldSelf":${r.optionalOldSelf === true ? 'true' : 'null'}}`;
}

/** A list of strings nobody bounded: the costliest thing a rule can read. */
const UNBOUNDED_LIST = { type: 'array', items: { type: 'string' } } as const;

interface CompileRow {
  readonly name: string;
  readonly schema: OpenApiSchema;
  readonly at?: FieldPath;
  /** The error messages, in order. */
  readonly want: readonly string[];
}

const rows: CompileRow[] = [
  {
    name: 'a valid rule',
    schema: specWith([{ rule: "self.x.startsWith('a') && self.n >= 0" }]),
    want: [],
  },
  {
    name: 'a syntax error, in cel-go issue form with the source line and a caret',
    schema: specWith([{ rule: 'self.x >' }]),
    want: [`${SPEC}.x-kubernetes-validations[0].rule: Invalid value: ${rule({ rule: 'self.x >' })}: compilation failed: ERROR: <input>:1:9: Unexpected token: EOF\n | self.x >\n | ........^`],
  },
  {
    name: 'a type error: a string plus an int',
    schema: specWith([{ rule: 'self.x + 1 == 2' }]),
    want: [`${SPEC}.x-kubernetes-validations[0].rule: Invalid value: ${rule({ rule: 'self.x + 1 == 2' })}: compilation failed: ERROR: <input>:1:1: no such overload: string + int\n | self.x + 1 == 2\n | ^`],
  },
  {
    name: 'a rule on the second line points at that line',
    schema: specWith([{ rule: 'self.n > 0 &&\n  self.nope', message: 'm' }]),
    want: [`${SPEC}.x-kubernetes-validations[0].rule: Invalid value: ${rule({ rule: 'self.n > 0 &&\n  self.nope', message: 'm' })}: compilation failed: ERROR: <input>:2:8: No such key: nope\n |   self.nope\n | .......^`],
  },
  {
    name: 'a rule that is not a bool',
    schema: specWith([{ rule: 'self.x' }]),
    want: [`${SPEC}.x-kubernetes-validations[0].rule: Invalid value: ${rule({ rule: 'self.x' })}: cel expression must evaluate to a bool`],
  },
  {
    name: 'a rule on an array without items has no type',
    schema: specWith([], { list: { type: 'array', 'x-kubernetes-validations': [{ rule: 'size(self) > 0' }] } }),
    want: [`${SPEC}.properties[list].x-kubernetes-validations: Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations`],
  },
  {
    name: 'a transition rule on an object',
    schema: specWith([{ rule: 'self.n >= oldSelf.n' }]),
    want: [],
  },
  {
    name: 'oldSelf below a list that is not a map list cannot pair old and new items',
    schema: specWith([], { tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } }),
    want: [`${SPEC}.properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${SPEC}.properties[tags]`],
  },
  {
    name: 'oldSelf below a map list pairs items by key',
    schema: specWith([], {
      ports: {
        type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 10 }, port: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.port == oldSelf.port' }] },
      },
    }),
    want: [],
  },
  {
    name: 'optionalOldSelf types oldSelf as optional',
    schema: specWith([{ rule: '!oldSelf.hasValue() || self.n >= oldSelf.value().n', optionalOldSelf: true }]),
    want: [],
  },
  {
    name: 'optionalOldSelf on a rule that does not read oldSelf',
    schema: specWith([{ rule: 'self.n > 0', optionalOldSelf: true }]),
    want: [`${SPEC}.x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`],
  },
  {
    name: 'an iteration variable named oldSelf is not oldSelf',
    schema: specWith([{ rule: 'self.list.all(oldSelf, oldSelf != "")', optionalOldSelf: true }], { list: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 } } }),
    want: [`${SPEC}.x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`],
  },
  {
    name: 'a messageExpression that returns an int',
    schema: specWith([{ rule: 'self.n > 0', messageExpression: 'self.n' }]),
    want: [`${SPEC}.x-kubernetes-validations[0].messageExpression: Invalid value: ${rule({ rule: 'self.n > 0', messageExpression: 'self.n' })}: messageExpression must evaluate to a string`],
  },
  {
    name: 'a messageExpression that does not parse',
    schema: specWith([{ rule: 'self.n > 0', messageExpression: "'n is ' +" }]),
    want: [`${SPEC}.x-kubernetes-validations[0].messageExpression: Invalid value: ${rule({ rule: 'self.n > 0', messageExpression: "'n is ' +" })}: messageExpression compilation failed: ERROR: <input>:1:10: Unexpected token: EOF\n | 'n is ' +\n | .........^`],
  },
  {
    name: 'a valid messageExpression',
    schema: specWith([{ rule: 'self.n > 0', messageExpression: "'n is ' + string(self.n)" }]),
    want: [],
  },
  {
    name: 'an unsupported reason',
    schema: specWith([{ rule: 'self.n > 0', reason: 'FieldValueTooLong' }]),
    want: [`${SPEC}.x-kubernetes-validations[0].reason: Unsupported value: "FieldValueTooLong": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`],
  },
  {
    name: 'every supported reason',
    schema: specWith(['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'].map((reason) => ({ rule: 'self.n > 0', reason }))),
    want: [],
  },
  {
    name: 'a fieldPath to a declared field and into a map',
    schema: specWith([{ rule: 'true', fieldPath: '.x' }, { rule: 'true', fieldPath: ".labels['app.kubernetes.io/name']" }], { x: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } }),
    want: [],
  },
  {
    name: 'a fieldPath to nothing',
    schema: specWith([{ rule: 'true', fieldPath: '.nope' }, { rule: 'true', fieldPath: 'x' }]),
    want: [
      `${SPEC}.x-kubernetes-validations[0].fieldPath: Invalid value: ".nope": must be a valid path`,
      `${SPEC}.x-kubernetes-validations[1].fieldPath: Invalid value: "x": must be a valid path`,
    ],
  },
  {
    name: 'a blank rule, a blank message and a multi-line rule without message',
    schema: specWith([{ rule: '  ' }, { rule: 'true', message: ' ' }, { rule: 'true &&\ntrue' }]),
    want: [
      `${SPEC}.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${SPEC}.x-kubernetes-validations[1].message: Invalid value: " ": must be non-empty if specified`,
      `${SPEC}.x-kubernetes-validations[2].message: Required value: message must be specified if rule contains line breaks`,
    ],
  },
  {
    name: 'a rule wrong as written below stops compiling the rules above, as in kube',
    schema: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.nope' }], properties: { spec: { type: 'object', properties: {}, 'x-kubernetes-validations': [{ rule: 'true', reason: 'Nope' }] } } },
    want: [`${SPEC}.x-kubernetes-validations[0].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`],
  },
  {
    name: 'the root of a custom resource reads apiVersion, kind and metadata.name',
    schema: { type: 'object', 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('a') && self.kind == 'Foo' && self.apiVersion != ''" }] },
    want: [],
  },
  {
    name: 'a nested quadratic rule over an unbounded list of unbounded strings',
    schema: specWith([{ rule: 'self.list.all(a, self.list.all(b, a == b))' }], { list: UNBOUNDED_LIST }),
    want: [
      `${SPEC}.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${BUDGET_HINT}`,
      `${SPEC}.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${BUDGET_HINT}`,
    ],
  },
  {
    name: 'a cheap rule repeated under an unbounded list is priced per occurrence',
    schema: specWith([], { items: { type: 'array', items: { type: 'object', properties: { s: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: "self.s.matches('^[a-z]+$')" }] } } }),
    want: [
      `${SPEC}.properties[items].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${BUDGET_HINT}`,
      `${SPEC}.properties[items].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${BUDGET_HINT}`,
    ],
  },
  {
    name: 'the same rule under a bounded list is cheap',
    schema: specWith([], { items: { type: 'array', maxItems: 100, items: { type: 'object', properties: { s: { type: 'string', maxLength: 64 } }, 'x-kubernetes-validations': [{ rule: "self.s.matches('^[a-z]+$')" }] } } }),
    want: [],
  },
  {
    name: 'a versioned schema reports under spec.versions[i]',
    schema: specWith([{ rule: 'self.x' }]),
    at: path('spec', 'versions').index(0).child('schema', 'openAPIV3Schema'),
    want: [`spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ${rule({ rule: 'self.x' })}: cel expression must evaluate to a bool`],
  },
  {
    name: 'HTML characters in a rule print escaped, as Go\'s encoding/json writes them',
    schema: specWith([{ rule: "self.x < 'a' && self.n > 0 &&" }]),
    want: [`${SPEC}.x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.x \\u003c 'a' \\u0026\\u0026 self.n \\u003e 0 \\u0026\\u0026","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:30: Unexpected token: EOF\n | self.x < 'a' && self.n > 0 &&\n | .............................^`],
  },
];

describe('compileRules errors', () => {
  for (const row of rows) {
    test(row.name, () => {
      const result = compileRules(compileStructural(row.schema), { path: row.at ?? AT });
      expect(result.errors.map((e) => e.message)).toEqual(row.want);
    });
  }
});

describe('compileRules programs', () => {
  test('each node keeps its compiled programs, with oldSelf use and fieldPath', () => {
    const root = compileStructural(specWith([{ rule: 'self.n >= oldSelf.n', fieldPath: '.n' }, { rule: 'self.n > 0', messageExpression: "'bad n'" }]));
    const { nodes, errors } = compileRules(root, { path: AT });
    expect(errors).toEqual([]);
    const spec = root.properties!.get('spec')!;
    const rules = nodes.get(spec)!.rules;
    expect(rules.map((r) => ({ usesOldSelf: r.usesOldSelf, fieldPath: r.fieldPath?.toString(), hasMessage: r.messageExpression !== undefined }))).toEqual([
      { usesOldSelf: true, fieldPath: 'n', hasMessage: false },
      { usesOldSelf: false, fieldPath: undefined, hasMessage: true },
    ]);
    expect(rules[0]!.program!.evaluate({ self: { n: 2 }, oldSelf: { n: 1 } })).toBe(true);
  });

  test('per-expression cost errors can be suppressed (an unchanged schema on update)', () => {
    const root = compileStructural(specWith([{ rule: 'self.list.all(a, self.list.all(b, a == b))' }], { list: UNBOUNDED_LIST }));
    const { errors } = compileRules(root, { path: AT, suppressPerExpressionCost: true });
    expect(errors.map((e) => e.message)).toEqual([
      `${SPEC}.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${BUDGET_HINT}`,
    ]);
  });

  test('a schema that reaches itself (JSONSchemaProps) compiles and terminates', () => {
    const schemaProps = '#/definitions/io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';
    const root = compileStructural({
      type: 'object',
      properties: { schema: { $ref: schemaProps, 'x-kubernetes-validations': [{ rule: "!has(self.type) || self.type != ''" }] } },
      'x-kubernetes-validations': [{ rule: 'has(self.schema)' }],
    }, builtinDefinitions);
    const { errors, nodes } = compileRules(root, { path: AT });
    expect(errors).toEqual([]);
    expect(nodes.size).toBe(2);
  });

  test('rules at every level of a nested schema each compile', () => {
    let schema: OpenApiSchema = { type: 'object', properties: { leaf: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.leaf >= 0' }] };
    for (let i = 0; i < 30; i++) schema = { type: 'object', properties: { next: schema }, 'x-kubernetes-validations': [{ rule: 'has(self.next)' }] };
    const { errors, nodes } = compileRules(compileStructural(schema), { path: AT });
    expect(errors).toEqual([]);
    expect(nodes.size).toBe(31);
  });

  test('a deep schema is typed from the top, so rules at its root and its leaf both compile', () => {
    let schema: OpenApiSchema = { type: 'object', properties: { leaf: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.leaf >= 0' }] };
    for (let i = 0; i < 500; i++) schema = { type: 'object', properties: { next: schema } };
    const { errors, nodes } = compileRules(compileStructural({ ...schema, 'x-kubernetes-validations': [{ rule: 'has(self.next)' }] }), { path: AT });
    expect(errors).toEqual([]);
    expect(nodes.size).toBe(2);
  });
});

describe('compileRules transition rules', () => {
  const cases = [
    { name: 'a field of oldSelf', input: 'self.n >= oldSelf.n', want: true },
    { name: 'oldSelf inside has()', input: '!has(oldSelf.n) || self.n > 0', want: true },
    { name: 'oldSelf inside a comprehension', input: 'self.list.all(e, e in oldSelf.list)', want: true },
    { name: 'an iteration variable named oldSelf', input: 'self.list.all(oldSelf, oldSelf != "")', want: false },
    { name: 'a cel.bind variable named oldSelf', input: 'cel.bind(oldSelf, self.n, oldSelf > 0)', want: false },
    { name: 'oldSelf bound to another name', input: 'cel.bind(prev, oldSelf.n, self.n >= prev)', want: true },
    { name: 'no oldSelf', input: 'self.n > 0', want: false },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const root = compileStructural(specWith([{ rule: c.input }], { n: { type: 'integer' }, list: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 } } }));
      const { nodes, errors } = compileRules(root, { path: AT });
      expect(errors).toEqual([]);
      expect(nodes.get(root.properties!.get('spec')!)!.rules[0]!.usesOldSelf).toBe(c.want);
    });
  }
});

describe('kube cost message', () => {
  const cases = [
    { name: 'just over budget prints %f, never 1.0x', input: 10_000_001, want: '1.000000x' },
    { name: 'below 1.5x', input: 14_999_999, want: '1.500000x' },
    { name: 'one decimal from 1.5x', input: 25_000_000, want: '2.5x' },
    { name: 'up to 100x', input: 1_000_000_000, want: '100.0x' },
    { name: 'beyond 100x', input: 1_000_000_001, want: 'more than 100x' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(costErrorMessage('estimated rule cost', c.input, 10_000_000)).toBe(`estimated rule cost exceeds budget by factor of ${c.want} ${BUDGET_HINT}`);
    });
  }
});
