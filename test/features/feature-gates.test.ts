import { describe, expect, test } from 'vitest';
import { createFeatureGates, parseFeatureGates, type FeatureName } from '../../src/features/feature-gates.js';
import { createApiMetrics, recordFeatureGates } from '../../src/server/metrics.js';
import { OptionsError, parseOptions } from '../../src/server/options.js';

// component-base featuregate_test.go's TestFeatureGateFlag, on kube 1.36's table.
const cases: { name: string; flag: string; problems?: string[]; warnings?: string[]; on?: FeatureName[]; off?: FeatureName[] }[] = [
  { name: 'empty', flag: '', on: ['WatchList'], off: ['CBORServingAndStorage'] },
  { name: 'beta off, alpha on', flag: 'WatchList=false,CBORServingAndStorage=true', on: ['CBORServingAndStorage'], off: ['WatchList'] },
  { name: 'spaces trimmed, empty items skipped', flag: ' WatchList = false ,, DeclarativeValidationTakeover= true', on: ['DeclarativeValidationTakeover'], off: ['WatchList'] },
  { name: 'Go booleans', flag: 'WatchList=F,CBORServingAndStorage=1', on: ['CBORServingAndStorage'], off: ['WatchList'] },
  { name: 'AllAlpha', flag: 'AllAlpha=true', on: ['CBORServingAndStorage', 'AllowUnsafeMalformedObjectDeletion', 'WatchList'] },
  { name: 'AllBeta=false, one beta kept', flag: 'AllBeta=false,DeclarativeValidation=true', on: ['DeclarativeValidation', 'AuthorizeWithSelectors'], off: ['WatchList', 'APIResponseCompression'] },
  { name: 'AllAlpha, one alpha kept off', flag: 'CBORServingAndStorage=false,AllAlpha=true', off: ['CBORServingAndStorage'], on: ['AllowUnsafeMalformedObjectDeletion'] },
  { name: 'unknown', flag: 'NoSuchGate=true', problems: ['unrecognized feature gate: NoSuchGate'] },
  { name: 'bad value', flag: 'WatchList=maybe', problems: ['invalid value of WatchList=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'] },
  { name: 'no value', flag: 'WatchList', problems: ['missing bool value for WatchList'] },
  { name: 'locked GA', flag: 'AuthorizeWithSelectors=false', problems: ['cannot set feature gate AuthorizeWithSelectors to false, feature is locked to true'] },
  { name: 'locked GA to its default warns', flag: 'ConsistentListFromCache=true', warnings: ['Setting GA feature gate ConsistentListFromCache=true. It will be removed in a future release.'] },
  { name: 'deprecated warns', flag: 'KMSv1=true', warnings: ['Setting deprecated feature gate KMSv1=true. It will be removed in a future release.'], on: ['KMSv1'] },
  { name: '__proto__ is an unknown gate', flag: '__proto__=true', problems: ['unrecognized feature gate: __proto__'] },
  { name: 'constructor is an unknown gate', flag: 'constructor=true,toString=false', problems: ['unrecognized feature gate: constructor', 'unrecognized feature gate: toString'] },
];

describe('parseFeatureGates', () => {
  for (const c of cases) {
    test(c.name, () => {
      const parsed = parseFeatureGates([c.flag]);
      expect(parsed.problems).toEqual(c.problems ?? []);
      expect(parsed.warnings).toEqual(c.warnings ?? []);
      const gates = createFeatureGates(parsed.set);
      for (const name of c.on ?? []) expect(gates.enabled(name), name).toBe(true);
      for (const name of c.off ?? []) expect(gates.enabled(name), name).toBe(false);
    });
  }

  test('a 1 MiB value is one short problem', () => {
    const parsed = parseFeatureGates([`${'A'.repeat(1 << 20)}=true`]);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]!.length).toBeLessThan(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('--feature-gates on the command line', () => {
  const starts: { name: string; argv: string[]; want: string }[] = [
    { name: 'unknown gate', argv: ['--feature-gates=Nope=true'], want: 'invalid argument "Nope=true" for "--feature-gates" flag: unrecognized feature gate: Nope' },
    { name: 'locked gate', argv: ['--feature-gates', 'ConsistentListFromCache=false'], want: 'invalid argument "ConsistentListFromCache=false" for "--feature-gates" flag: cannot set feature gate ConsistentListFromCache to false, feature is locked to true' },
    { name: '1 MiB flag', argv: [`--feature-gates=${'x'.repeat(1 << 20)}=true`], want: 'unrecognized feature gate: xxxx' },
  ];
  for (const c of starts) {
    test(`${c.name} stops the start with one line`, () => {
      let caught: unknown;
      try {
        parseOptions(c.argv, { cwd: '/tmp', interfaces: () => ({}) });
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(OptionsError);
      const problems = (caught as OptionsError).problems;
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(c.want);
      expect(problems[0]!.length).toBeLessThan(600);
    });
  }

  test('repeats accumulate; warnings kept for the log', () => {
    const options = parseOptions(['--feature-gates=WatchList=false', '--feature-gates=KMSv1=true'], { cwd: '/tmp', interfaces: () => ({}) });
    expect([...options.featureGates]).toEqual([['WatchList', false], ['KMSv1', true]]);
    expect(options.featureGateWarnings).toEqual(['Setting deprecated feature gate KMSv1=true. It will be removed in a future release.']);
  });
});

describe('kubernetes_feature_enabled', () => {
  test('1/0 per gate with its stage ("" for GA)', async () => {
    const metrics = createApiMetrics();
    recordFeatureGates(metrics, createFeatureGates(parseFeatureGates(['WatchList=false,CBORServingAndStorage=true']).set));
    const text = await metrics.registry.metrics();
    expect(text).toContain('kubernetes_feature_enabled{name="WatchList",stage="BETA"} 0');
    expect(text).toContain('kubernetes_feature_enabled{name="CBORServingAndStorage",stage="ALPHA"} 1');
    expect(text).toContain('kubernetes_feature_enabled{name="AuthorizeWithSelectors",stage=""} 1');
    expect(text).toContain('kubernetes_feature_enabled{name="KMSv1",stage="DEPRECATED"} 0');
  });
});
