// Cost of the Kubernetes library functions, static (the estimate a rule is
// refused by) and actual (what an evaluation is charged), per
// k8s.io/apiserver/pkg/cel/library/cost.go and cel-go's runtime cost tracker.
import { describe, expect, test } from 'vitest';
import { authorizerValue, createCelEnvironment, ruleVariables, AUTHORIZER_TYPE } from '../../src/cel/index.js';
import { compileStructural } from '../../src/schema/structural/index.js';

const schema = {
  type: 'object',
  properties: {
    s: { type: 'string', maxLength: 100 },
    l: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 10 } },
  },
};
const authorizer = authorizerValue({ check: () => ({ decision: 'Allow', reason: '' }) }, { username: 'u', groups: [] });
const variables = [...ruleVariables(compileStructural(schema)), { name: 'authorizer', type: AUTHORIZER_TYPE }];

interface CostRow {
  readonly name: string;
  readonly expr: string;
  /** Value of self.s for the evaluation. */
  readonly s: string;
  readonly wantStatic: number;
  readonly wantRuntime: number;
}

// self.s: select self 1 + .s 1; a 100-character bound traverses for ceil(0.1 × 100) = 10.
const rows: CostRow[] = [
  { name: 'isIP traverses its argument', expr: 'isIP(self.s)', s: '10.0.0.1', wantStatic: 12, wantRuntime: 3 },
  { name: 'ip() traverses', expr: 'ip(self.s).family()', s: '::1', wantStatic: 13, wantRuntime: 4 },
  { name: 'ip.isCanonical parses and compares (0.2/char)', expr: 'ip.isCanonical(self.s)', s: '::1', wantStatic: 22, wantRuntime: 3 },
  { name: 'isCIDR traverses', expr: 'isCIDR(self.s)', s: '10.0.0.0/8', wantStatic: 12, wantRuntime: 3 },
  { name: 'containsIP(string) compares addresses and parses', expr: "cidr('10.0.0.0/8').containsIP(self.s)", s: '10.1.2.3', wantStatic: 17, wantRuntime: 5 },
  { name: 'containsCIDR(cidr) compares, masks and compares bits', expr: "cidr('10.0.0.0/8').containsCIDR(cidr('10.1.0.0/16'))", s: '', wantStatic: 10, wantRuntime: 6 },
  { name: 'cidr.ip() is a field read', expr: "cidr('10.0.0.0/8').ip().family()", s: '', wantStatic: 3, wantRuntime: 3 },
  { name: 'url traverses, accessors are 1', expr: 'url(self.s).getHost()', s: 'https://a.b/', wantStatic: 13, wantRuntime: 5 },
  { name: 'isURL has no table entry (1)', expr: 'isURL(self.s)', s: '/x', wantStatic: 3, wantRuntime: 3 },
  { name: 'quantity traverses, comparisons are 1', expr: "quantity(self.s).isLessThan(quantity('1Gi'))", s: '500Mi', wantStatic: 14, wantRuntime: 5 },
  { name: 'semver traverses, accessors are 1', expr: 'semver(self.s, true).major()', s: 'v1.2', wantStatic: 13, wantRuntime: 4 },
  { name: 'an authorization check costs 350,000', expr: "authorizer.group('').resource('pods').check('get').allowed()", s: '', wantStatic: 350_004, wantRuntime: 350_004 },
  { name: 'string equality is priced by the shorter side', expr: 'self.s == self.s', s: 'x'.repeat(100), wantStatic: 14, wantRuntime: 14 },
  // The estimate prices a comparison at least 1; at run time comparing with '' costs ceil(0.1 × 0) = 0.
  { name: 'string concatenation by both sizes', expr: "self.s + self.s == ''", s: 'x'.repeat(100), wantStatic: 25, wantRuntime: 24 },
  { name: 'contains: receiver × argument', expr: "self.s.contains('abc')", s: 'x'.repeat(100), wantStatic: 12, wantRuntime: 12 },
  { name: 'lowerAscii traverses the receiver', expr: 'self.s.lowerAscii()', s: 'x'.repeat(55), wantStatic: 12, wantRuntime: 8 },
  { name: 'matches: string × pattern', expr: "self.s.matches('^a+$')", s: 'a'.repeat(100), wantStatic: 13, wantRuntime: 13 },
  { name: 'in over a list costs its size', expr: "'x' in self.l", s: '', wantStatic: 52, wantRuntime: 5 },
  { name: 'constants and && cost nothing at run time', expr: 'true && false', s: '', wantStatic: 0, wantRuntime: 0 },
  { name: 'a list literal costs 10', expr: 'size([1, 2, 3])', s: '', wantStatic: 11, wantRuntime: 11 },
];

describe('cel library cost', () => {
  const env = createCelEnvironment({ variables, costLimit: Infinity });
  for (const row of rows) {
    test(row.name, () => {
      const program = env.compile(row.expr);
      expect(program.estimatedCost).toBe(row.wantStatic);
      program.evaluate({ self: { s: row.s, l: ['a', 'b', 'c'] }, authorizer });
      expect(program.lastCost).toBe(row.wantRuntime);
    });
  }

  test('label selectors are priced as parsed requirements (AuthorizeWithSelectors)', () => {
    const gated = createCelEnvironment({ variables, costLimit: Infinity, featureGates: { authorizeWithSelectors: true } });
    const program = gated.compile("authorizer.group('').resource('pods').labelSelector(self.s).check('list').allowed()");
    // 10 + ceil(0.1 × 100) + ceil(0.5 × 100) × 50 = 2,520 for the selector.
    expect(program.estimatedCost).toBe(1 + 1 + 1 + 2 + 2_520 + 350_000 + 1);
    program.evaluate({ self: { s: 'app=web', l: [] }, authorizer });
    // 10 + ceil(0.7) + ceil(3.5) × 50 = 211.
    expect(program.lastCost).toBe(1 + 1 + 1 + 2 + 211 + 350_000 + 1);
  });

  test('two authorization checks fit the per-call limit, three do not', () => {
    const e = createCelEnvironment({ variables, costLimit: Infinity });
    const check = "authorizer.group('').resource('pods').check('get').allowed()";
    expect(() => e.compile(`${check} && ${check}`).evaluate({ authorizer })).not.toThrow();
    expect(() => e.compile(`${check} && ${check} && ${check}`).evaluate({ authorizer })).toThrow('actual cost limit exceeded');
  });

  test('a long string in a loop is stopped by its size-based cost', () => {
    const e = createCelEnvironment({ variables: [{ name: 'xs', type: 'list<string>' }], costLimit: Infinity, perCallLimit: 10_000 });
    const program = e.compile("xs.exists(x, x.contains('needle'))");
    const long = 'x'.repeat(10_000);
    expect(() => program.evaluate({ xs: [long, long, long, long, long, long, long, long, long, long] })).toThrow('actual cost limit exceeded');
    expect(program.evaluate({ xs: ['short'] })).toBe(false);
  });
});
