// Kubernetes' lists library, cel-go ext.Lists, macros and optionals.
import { describe } from 'vitest';
import { celEnv, runCelTable, type CelRow } from './table.js';

const lists: CelRow[] = [
  { name: 'isSorted true', expr: '[1, 2, 2, 3].isSorted()', want: true },
  { name: 'isSorted false', expr: "['b', 'a'].isSorted()", want: false },
  { name: 'isSorted empty', expr: '[].isSorted()', want: true },
  { name: 'sum ints', expr: '[1, 2, 3].sum()', want: 6n },
  { name: 'sum doubles', expr: '[1.5, 2.5].sum()', want: 4 },
  { name: 'sum empty', expr: '[].sum()', want: 0n },
  { name: 'sum overflow', expr: '[9223372036854775807, 1].sum()', error: 'overflow' },
  { name: 'sum durations', expr: "[duration('1s'), duration('2s')].sum() == duration('3s')", want: true },
  { name: 'min', expr: '[3, 1, 2].min()', want: 1n },
  { name: 'max strings', expr: "['a', 'c', 'b'].max()", want: 'c' },
  { name: 'min empty', expr: '[].min()', error: 'min called on empty list' },
  { name: 'list indexOf', expr: '[1, 2, 3, 2].indexOf(2)', want: 1n },
  { name: 'list lastIndexOf', expr: '[1, 2, 3, 2].lastIndexOf(2)', want: 3n },
  { name: 'list indexOf missing', expr: '[1, 2].indexOf(5)', want: -1n },
  { name: 'slice', expr: '[1, 2, 3, 4].slice(1, 3)', want: [2n, 3n] },
  { name: 'slice out of range', expr: '[1, 2].slice(0, 3)', error: 'list is length 2' },
  { name: 'slice inverted', expr: '[1, 2].slice(2, 1)', error: 'start index must be less than or equal to end index' },
  { name: 'flatten one level', expr: '[[1], [2, [3]]].flatten()', want: [1n, 2n, [3n]] },
  { name: 'flatten depth', expr: '[[1], [2, [3]]].flatten(2)', want: [1n, 2n, 3n] },
  { name: 'flatten negative depth', expr: '[[1]].flatten(-1)', error: 'level must be non-negative' },
  { name: 'distinct', expr: '[1, 2, 1, 3, 2].distinct()', want: [1n, 2n, 3n] },
  { name: 'sort', expr: "['b', 'c', 'a'].sort()", want: ['a', 'b', 'c'] },
];

const macros: CelRow[] = [
  { name: 'has present', expr: 'has(m.a)', bindings: { m: { a: 1n } }, want: true },
  { name: 'has absent', expr: 'has(m.b)', bindings: { m: { a: 1n } }, want: false },
  { name: 'all', expr: '[1, 2, 3].all(x, x > 0)', want: true },
  { name: 'exists', expr: '[1, 2, 3].exists(x, x > 2)', want: true },
  { name: 'exists_one', expr: '[1, 2, 3].exists_one(x, x > 1)', want: false },
  { name: 'map', expr: '[1, 2].map(x, x * 2)', want: [2n, 4n] },
  { name: 'map with filter', expr: '[1, 2, 3].map(x, x > 1, x * 10)', want: [20n, 30n] },
  { name: 'filter', expr: '[1, 2, 3].filter(x, x % 2 == 1)', want: [1n, 3n] },
  { name: 'all over map keys', expr: "{'a': 1, 'b': 2}.all(k, k.size() == 1)", want: true },
  { name: 'all error when no element decides', expr: '[0].all(x, 1 / x > 0)', error: 'division by zero' },
];

const optionals: CelRow[] = [
  { name: 'optional select present', expr: "m.?a.orValue('none')", bindings: { m: { a: 'x' } }, want: 'x' },
  { name: 'optional select absent', expr: "m.?b.orValue('none')", bindings: { m: { a: 'x' } }, want: 'none' },
  { name: 'optional index', expr: '[1, 2][?5].hasValue()', want: false },
  { name: 'optional.of', expr: 'optional.of(3).value()', want: 3n },
  { name: 'optional.none', expr: 'optional.none().hasValue()', want: false },
];

const numbers: CelRow[] = [
  { name: 'int < double', expr: '1 < 1.5', want: true },
  { name: 'double >= int', expr: '2.0 >= 2', want: true },
  { name: 'uint > int', expr: '3u > 2', want: true },
  { name: 'int overflow', expr: '9223372036854775807 + 1', error: 'overflow' },
  { name: 'division by zero', expr: '1 / 0', error: 'division by zero' },
];

const env = celEnv([{ name: 'm', type: 'map<string, dyn>' }]);
describe('cel lists', () => runCelTable(lists, env));
describe('cel macros', () => runCelTable(macros, env));
describe('cel optionals', () => runCelTable(optionals, env));
describe('cel cross-type numbers', () => runCelTable(numbers, env));
