import { describe, expect, test } from 'vitest';
import { CONTROLLER_NAMES, controllerEnabled } from '../../src/server/controller-names.js';

describe('--controllers decides like kube-controller-manager', () => {
  const cases: Array<{ list: string[]; name: string; want: boolean }> = [
    { list: ['*'], name: 'namespace-controller', want: true },
    { list: ['*'], name: 'token-cleaner-controller', want: false },
    { list: ['*', 'tokencleaner'], name: 'token-cleaner-controller', want: true },
    { list: ['*', 'token-cleaner-controller'], name: 'token-cleaner-controller', want: true },
    { list: ['*', 'bootstrapsigner'], name: 'token-cleaner-controller', want: false },
    { list: ['*', '-namespace'], name: 'namespace-controller', want: false },
    { list: ['-namespace-controller', '*'], name: 'namespace-controller', want: false },
    // The first entry naming it decides.
    { list: ['namespace', '-namespace'], name: 'namespace-controller', want: true },
    { list: ['-namespace', 'namespace'], name: 'namespace-controller', want: false },
    // Without `*` only what is named runs.
    { list: ['tokencleaner'], name: 'namespace-controller', want: false },
    { list: [], name: 'namespace-controller', want: false },
    { list: ['*'], name: 'no-such-controller', want: false },
  ];
  for (const c of cases) {
    test(`${JSON.stringify(c.list)} ${c.name} -> ${c.want}`, () => {
      expect(controllerEnabled(c.list, c.name)).toBe(c.want);
    });
  }

  test('names and aliases are unique', () => {
    const all = CONTROLLER_NAMES.flatMap((c) => [c.name, ...c.aliases]);
    expect(new Set(all).size).toBe(all.length);
  });
});
