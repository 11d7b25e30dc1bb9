// Cost: the static estimate refuses a rule at compile time, the runtime budget
// stops an evaluation, and the CRD defaults are kube-apiserver's.
import { describe, expect, test } from 'vitest';
import { CelCompileError, CostLimitExceeded, createCelEnvironment, CRD_COST_LIMITS, ruleVariables } from '../../src/cel/index.js';
import { compileStructural } from '../../src/schema/structural/index.js';

const listSchema = (maxItems?: number) => compileStructural({
  type: 'object',
  properties: {
    items: { type: 'array', ...(maxItems === undefined ? {} : { maxItems }), items: { type: 'string', maxLength: 64 } },
  },
});

describe('cel cost limits', () => {
  test('CRD defaults are kube-apiserver constants', () => {
    expect(CRD_COST_LIMITS).toEqual({
      staticEstimatedCostLimit: 10_000_000,
      staticEstimatedCRDCostLimit: 100_000_000,
      perCallLimit: 1_000_000,
      runtimeCostBudget: 10_000_000,
    });
  });

  test('a nested quadratic comprehension over an unbounded list is refused at compile time', () => {
    const env = createCelEnvironment({ variables: ruleVariables(listSchema()) });
    const rule = 'self.items.all(a, self.items.all(b, a == b || a != b))';
    expect(() => env.compile(rule)).toThrow(CelCompileError);
    expect(() => env.compile(rule)).toThrow(/estimated rule cost \d+ exceeds the limit 10000000/);
  });

  test('the same rule compiles once the schema bounds the list', () => {
    const env = createCelEnvironment({ variables: ruleVariables(listSchema(100)) });
    const program = env.compile('self.items.all(a, self.items.all(b, a == b || a != b))');
    expect(program.estimatedCost).toBeGreaterThan(100 * 100);
    expect(program.estimatedCost).toBeLessThan(CRD_COST_LIMITS.staticEstimatedCostLimit);
  });

  test('the limit is a parameter', () => {
    const env = createCelEnvironment({ variables: ruleVariables(listSchema(100)), costLimit: 50 });
    expect(() => env.compile('self.items.all(a, a.size() < 10)')).toThrow(/exceeds the limit 50/);
  });

  test('an expensive evaluation is stopped by the per-call budget', () => {
    const env = createCelEnvironment({
      variables: [{ name: 'xs', type: 'list<int>' }],
      costLimit: Infinity,
      perCallLimit: 10_000,
    });
    const program = env.compile('xs.all(a, xs.all(b, a + b >= 0))');
    const xs = Array.from({ length: 300 }, (_, i) => BigInt(i));
    expect(() => program.evaluate({ xs })).toThrow(CostLimitExceeded);
    expect(() => program.evaluate({ xs })).toThrow('operation cancelled: actual cost limit exceeded');
    expect(program.evaluate({ xs: xs.slice(0, 10) })).toBe(true);
  });

  test('regex cost is string length × pattern length (ceil 0.1 × (n+1)) × ceil(0.25 × len(re))', () => {
    const env = createCelEnvironment({
      variables: ruleVariables(compileStructural({ type: 'object', properties: { name: { type: 'string', maxLength: 99 } } })),
    });
    // select self (1) + .name (1) + matches: ceil(10) × ceil(0.25 × 8 = 2) = 20.
    expect(env.compile("self.name.matches('^[a-z]+$')").estimatedCost).toBe(22);
  });

  test('a list literal costs 10 plus its elements', () => {
    expect(createCelEnvironment().compile('[1, 2, 3]').estimatedCost).toBe(10);
  });
});
