// Warning header values as kube-apiserver's warning recorder writes them
// (k8s.io/apiserver/pkg/endpoints/filters/warning.go + apimachinery net.NewWarningHeader).
import { describe, expect, test } from 'vitest';
import { decodeHeaderText, warningHeaderValues } from '../../src/endpoints/warning-header.js';

const long = (ch: string, n: number) => ch.repeat(n);

const cases: { name: string; input: string[]; want: string[] }[] = [
  { name: 'plain text', input: ['a is deprecated'], want: ['299 - "a is deprecated"'] },
  { name: 'quote and backslash escaped', input: ['say "hi" \\ bye'], want: ['299 - "say \\"hi\\" \\\\ bye"'] },
  { name: 'non-Latin-1 text is kept (sent as UTF-8)', input: ['unknown field "dätä€"'], want: ['299 - "unknown field \\"dätä€\\""'] },
  { name: 'astral characters are kept', input: ['😀'], want: ['299 - "😀"'] },
  { name: 'empty text dropped', input: [''], want: [] },
  { name: 'duplicates dropped', input: ['a', 'b', 'a'], want: ['299 - "a"', '299 - "b"'] },
  { name: 'CR LF drop the whole warning (header injection)', input: ['a\r\nX-Injected: 1', 'ok'], want: ['299 - "ok"'] },
  { name: 'NUL drops the warning', input: ['a\u0000b'], want: [] },
  { name: 'tab is a control character too', input: ['a\tb'], want: [] },
  { name: 'DEL and C1 controls drop the warning', input: ['a\u007fb', 'c\u0085d'], want: [] },
  { name: 'lone surrogate becomes U+FFFD', input: ['x\ud800y'], want: ['299 - "x\ufffdy"'] },
  { name: 'within 4096 runes nothing is cut', input: [long('a', 4000), long('b', 96)], want: [`299 - "${long('a', 4000)}"`, `299 - "${long('b', 96)}"`] },
  {
    name: 'past 4096 runes every warning is cut to 256 runes, earlier ones replayed',
    input: [long('a', 4000), long('b', 300)],
    want: [`299 - "${long('a', 256)}"`, `299 - "${long('b', 256)}"`],
  },
  {
    name: 'runes, not UTF-16 units or bytes, are counted and cut',
    input: [long('€', 4000), long('😀', 300)],
    want: [`299 - "${long('€', 256)}"`, `299 - "${long('😀', 256)}"`],
  },
  {
    name: 'once truncating and the budget is spent, later warnings are dropped',
    input: [...Array.from({ length: 20 }, (_, i) => `${i}-${long('x', 300)}`)],
    // The 14th crosses 4096: 14 replayed at 256 = 3584, two more reach 4096, the rest dropped.
    want: Array.from({ length: 16 }, (_, i) => `299 - "${`${i}-${long('x', 300)}`.slice(0, 256)}"`),
  },
];

describe('warningHeaderValues', () => {
  for (const c of cases) {
    test(c.name, () => {
      const values = warningHeaderValues(c.input);
      // Node accepts only latin1 code units in a header; every value must pass.
      for (const v of values) expect(/^[\t\x20-\x7e\x80-\xff]*$/.test(v)).toBe(true);
      expect(values.map(decodeHeaderText)).toEqual(c.want);
    });
  }
});
