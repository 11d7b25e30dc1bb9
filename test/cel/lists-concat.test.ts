// Set and map list types (x-kubernetes-list-type): Kubernetes' `+` and order-insensitive `==`.
import { describe } from 'vitest';
import { createCelEnvironment, ruleVariables } from '../../src/cel/index.js';
import type { OpenApiSchema } from '../../src/schema/definitions.js';
import { compileStructural } from '../../src/schema/structural/index.js';
import { runCelTable, type CelRow } from './table.js';

const port: OpenApiSchema = { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } };
const schema: OpenApiSchema = {
  type: 'object',
  properties: {
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    nums: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
    plain: { type: 'array', items: { type: 'string' } },
    ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: port },
  },
};
const self = {
  tags: ['a', 'b', 'c'],
  nums: [1, 2],
  plain: ['a', 'b'],
  ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }],
};
const oldSelf = {
  tags: ['c', 'b', 'a'],
  nums: [2, 1],
  plain: ['b', 'a'],
  ports: [{ name: 'https', port: 443 }, { name: 'http', port: 80 }],
};

const rows: CelRow[] = [
  { name: 'set + list: union keeping left order', expr: "self.tags + ['d', 'a', 'e', 'd']", want: ['a', 'b', 'c', 'd', 'e'] },
  { name: 'set + set', expr: 'self.tags + oldSelf.tags', want: ['a', 'b', 'c'] },
  { name: 'set + empty', expr: 'self.tags + []', want: ['a', 'b', 'c'] },
  { name: 'int set union', expr: 'self.nums + [3, 1]', want: [1n, 2n, 3n] },
  { name: 'list + set is plain concatenation (left decides)', expr: "['a'] + self.tags", want: ['a', 'a', 'b', 'c'] },
  { name: 'atomic list concatenation', expr: "self.plain + ['a']", want: ['a', 'b', 'a'] },
  { name: 'union result keeps set semantics', expr: "(self.tags + ['d']) == ['d', 'c', 'b', 'a']", want: true },
  { name: 'set == reordered set', expr: 'self.tags == oldSelf.tags', want: true },
  { name: 'set == reordered literal', expr: "self.tags == ['c', 'a', 'b']", want: true },
  { name: 'set != reordered literal', expr: "self.tags != ['c', 'a', 'b']", want: false },
  { name: 'set == different size', expr: "self.tags == ['a', 'b']", want: false },
  { name: 'set == different element', expr: "self.tags == ['a', 'b', 'd']", want: false },
  { name: 'literal == set is ordered (left decides)', expr: "['c', 'a', 'b'] == self.tags", want: false },
  { name: 'atomic list == is ordered', expr: 'self.plain == oldSelf.plain', want: false },
  { name: 'map list == reordered', expr: 'self.ports == oldSelf.ports', want: true },
  { name: 'map list + map list: overwrite by key, keep positions', expr: 'size(self.ports + oldSelf.ports)', want: 2n },
  { name: 'map list merge keeps left positions', expr: "(self.ports + oldSelf.ports).map(p, p.name)", want: ['http', 'https'] },
  { name: 'map list == after merge', expr: 'self.ports + oldSelf.ports == self.ports', want: true },
];

const changedPorts = { ...oldSelf, ports: [{ name: 'http', port: 8080 }, { name: 'admin', port: 9000 }] };
const mergeRows: CelRow[] = [
  { name: 'map list merge replaces by key and appends new keys', expr: '(self.ports + oldSelf.ports).map(p, p.port)', want: [8080n, 443n, 9000n] },
  { name: 'map list == with a changed entry', expr: 'self.ports == oldSelf.ports', want: false },
];

describe('cel list types: set and map', () => {
  const env = createCelEnvironment({ variables: ruleVariables(compileStructural(schema), { oldSelf: true }) });
  runCelTable(rows.map((r) => ({ ...r, bindings: { self, oldSelf } })), env);
  runCelTable(mergeRows.map((r) => ({ ...r, bindings: { self, oldSelf: changedPorts } })), env);
});
