// Regular expressions with RE2 semantics, in linear time.
import { describe, expect, test } from 'vitest';
import { celEnv, runCelTable, type CelRow } from './table.js';

const rows: CelRow[] = [
  { name: 'matches partial', expr: "'hello'.matches('ell')", want: true },
  { name: 'matches anchored', expr: "'hello'.matches('^h.*o$')", want: true },
  { name: 'matches fails', expr: "'hello'.matches('^x')", want: false },
  { name: 'matches global form', expr: "matches('abc', 'b')", want: true },
  { name: 'find first', expr: "'abc 123 def 456'.find('[0-9]+')", want: '123' },
  { name: 'find none', expr: "'abc'.find('[0-9]+')", want: '' },
  { name: 'findAll', expr: "'abc 123 def 456'.findAll('[0-9]+')", want: ['123', '456'] },
  { name: 'findAll limit', expr: "'1 2 3'.findAll('[0-9]', 2)", want: ['1', '2'] },
  { name: 'backreference rejected at compile time', expr: "'aa'.matches('(a)\\\\1')", error: 'invalid escape sequence' },
  { name: 'lookahead rejected at compile time', expr: "'a'.find('a(?=b)')", error: 'invalid or unsupported Perl syntax' },
  { name: 'bad pattern from data rejected at run time', expr: "'a'.matches(p)", bindings: { p: '(?<=a)' }, error: 'invalid regular expression' },
];

const env = celEnv([{ name: 'p', type: 'string' }]);
describe('cel regex', () => runCelTable(rows, env));

describe('cel regex runs in linear time', () => {
  test("'(a+)+$' on 'a'×n + '!' grows linearly, not exponentially", () => {
    const program = env.compile("p.matches('(a+)+$')");
    const timeFor = (n: number): number => {
      const s = `${'a'.repeat(n)}!`;
      program.evaluate({ p: s }); // warm the pattern cache and the JIT
      const t0 = performance.now();
      for (let i = 0; i < 20; i++) expect(program.evaluate({ p: s })).toBe(false);
      return performance.now() - t0;
    };
    const small = timeFor(30);
    const large = timeFor(30 * 8);
    // A backtracking engine doubles per added 'a' (2^210 times slower at 8×);
    // RE2 is linear: 8× the input costs about 8×. Allow 40× for a noisy machine.
    expect(large).toBeLessThan(Math.max(small, 1) * 40);
  });
});
