// STYLE.md §1's layering, as .dependency-cruiser.cjs encodes it (npm run lint:deps,
// part of npm test). The src/ case is the gate itself; the fixture case proves the
// rules can fail: a tree laid out like src/ with an upward import, a type-only
// upward import (issue 9's UserInfo case) and a cycle must report exactly those.
import { fileURLToPath } from 'node:url';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = `${ROOT}.dependency-cruiser.cjs`;

interface Found {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

async function violations(baseDir: string): Promise<Found[]> {
  const options = await extractDepcruiseOptions(CONFIG);
  const result = await cruise(['src'], { ...options, baseDir }, {}, { tsConfig: extractTSConfig(`${ROOT}tsconfig.json`) });
  if (typeof result.output === 'string') throw new Error('expected a cruise result, not a report');
  return result.output.summary.violations
    .map((v: IViolation) => ({ rule: v.rule.name, from: v.from, to: v.to }))
    .sort((a, b) => a.rule.localeCompare(b.rule) || a.from.localeCompare(b.from));
}

describe('layering (.dependency-cruiser.cjs)', () => {
  test('src/ imports only down the flow and has no cycles', async () => {
    expect(await violations(ROOT)).toEqual([]);
  });

  test('an import up the flow, a type-only one and a cycle are each reported', async () => {
    expect(await violations(fileURLToPath(new URL('fixtures/upward', import.meta.url)))).toEqual([
      { rule: 'layer-auth', from: 'src/auth/authenticator.ts', to: 'src/registry/define-resource.ts' },
      { rule: 'layer-storage', from: 'src/storage/storage.ts', to: 'src/endpoints/handler.ts' },
      { rule: 'no-circular', from: 'src/registry/store.ts', to: 'src/registry/watch.ts' },
    ]);
  });
});
