// One row = expression, bindings, and the expected value or error; every
// function table in test/cel runs through runCelTable.
import { expect, test } from 'vitest';
import { createCelEnvironment, type CelEnvironment, type CelVariable } from '../../src/cel/index.js';

export interface CelRow {
  readonly name: string;
  readonly expr: string;
  readonly bindings?: Readonly<Record<string, unknown>>;
  /** Expected value (ints as bigint). */
  readonly want?: unknown;
  /** Expected error: a substring of the compile or evaluation error. */
  readonly error?: string;
}

export function celEnv(variables: readonly CelVariable[] = []): CelEnvironment {
  return createCelEnvironment({ variables });
}

export function runCelTable(rows: readonly CelRow[], env: CelEnvironment = celEnv()): void {
  for (const row of rows) {
    test(row.name, () => {
      const run = (): unknown => env.compile(row.expr).evaluate(row.bindings ?? {});
      if (row.error !== undefined) expect(run).toThrow(row.error);
      else expect(run()).toEqual(row.want);
    });
  }
}
