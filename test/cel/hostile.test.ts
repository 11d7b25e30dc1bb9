// Hostile CEL expressions get a compile error, never a stack overflow (a 500).
import { describe, expect, test } from 'vitest';
import { createCelEnvironment } from '../../src/cel/index.js';

describe('hostile nesting', () => {
  test('an expression nested past cel-go\'s recursion limit is a compile error, never a stack overflow', () => {
    const env = createCelEnvironment();
    for (const expression of [`${'!'.repeat(50_000)}true`, `${'('.repeat(300)}1${')'.repeat(300)}`, `${'['.repeat(20_000)}${']'.repeat(20_000)}`]) {
      expect(() => env.compile(expression)).toThrow(/max recursion depth exceeded|Exceeded maxDepth/);
    }
  });

  test('nesting within the limit still compiles', () => {
    const env = createCelEnvironment();
    expect(env.compile(`${'('.repeat(100)}1${')'.repeat(100)} == 1`).evaluate({})).toBe(true);
  });
});
