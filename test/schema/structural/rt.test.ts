import { test, expect } from 'vitest';
import { builtinDefinitions } from '../../../src/schema/definitions.js';
import { structuralDefinition, toOpenApi } from '../../../src/schema/structural/index.js';
test('rt', () => {
  let bad = 0;
  const t0 = performance.now();
  for (const name of Object.keys(builtinDefinitions)) {
    const n = structuralDefinition(builtinDefinitions, name)!;
    const a = JSON.stringify(toOpenApi(n)); const b = JSON.stringify(builtinDefinitions[name]);
    if (a !== b) { if (bad++ < 3) console.log(name, a.slice(0, 300), '\n', b.slice(0, 300)); }
  }
  console.log('bad', bad, 'ms', performance.now() - t0);
  expect(bad).toBe(0);
});
