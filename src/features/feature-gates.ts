// Feature gates (kube-apiserver's --feature-gates): the 1.36 table
// (generated/feature-gates.ts) plus what the flag set. main.ts builds one
// FeatureGates from the options and passes it to whatever a gate changes; nothing
// reads gates from a global (STYLE §10). Parsing and its messages follow
// k8s.io/component-base/featuregate/feature_gate.go (Set, SetFromMap, Enabled).
// Read today: WatchList (endpoints/handlers/watch.ts), APIResponseCompression
// (main.ts -> endpoints/compression.ts), HPAScaleToZero (main.ts -> apis/autoscaling/v2).
// AuthorizeWithSelectors is GA and locked on: the admission CEL environments have
// its functions always. TODO(#24): wire the rest (MutatingAdmissionPolicy serving,
// CBORServingAndStorage, AllowUnsafeMalformedObjectDeletion, DeclarativeValidation);
// the GA gates locked on
// (StructuredAuthenticationConfiguration, ConsistentListFromCache, the resize gates)
// cannot be turned off, so their constants already agree with the gate.
import { FEATURE_GATE_SPECS, type FeatureName, type FeatureSpec, type FeatureStage } from '../generated/feature-gates.js';

export type { FeatureName, FeatureStage } from '../generated/feature-gates.js';

/** The gates in force: readonly, built once at start. */
export interface FeatureGates {
  enabled(name: FeatureName): boolean;
  /** Every known gate with its stage and value, sorted by name (for /metrics). */
  all(): readonly { readonly name: FeatureName; readonly stage: FeatureStage; readonly enabled: boolean }[];
}

export interface ParsedFeatureGates {
  /** Gate -> value as given; a Map, so `__proto__` or `constructor` are only keys. */
  readonly set: ReadonlyMap<FeatureName, boolean>;
  /** One line per problem (kube's texts); a start with any stops. */
  readonly problems: readonly string[];
  /** kube's warnings for setting GA and deprecated gates, logged at start. */
  readonly warnings: readonly string[];
}

/** Client input is echoed in messages; a 1 MiB flag must not make a 1 MiB line. */
const MAX_ECHO = 100;
const echo = (s: string): string => (s.length > MAX_ECHO ? `${s.slice(0, MAX_ECHO)}...` : s);

export function isFeatureName(name: string): name is FeatureName {
  return Object.hasOwn(FEATURE_GATE_SPECS, name);
}

function specOf(name: FeatureName): FeatureSpec {
  return FEATURE_GATE_SPECS[name];
}

/** Go's strconv.ParseBool. */
function parseGoBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/**
 * The flag's values (each `A=true,B=false`; repeats accumulate, later wins, as
 * pflag's mapStringBool does): empty items skipped, spaces around keys and values
 * trimmed. Every problem is reported, not only the first.
 */
export function parseFeatureGates(values: readonly string[]): ParsedFeatureGates {
  const set = new Map<FeatureName, boolean>();
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const value of values) {
    for (const item of value.split(',')) {
      if (item.length === 0) continue;
      const eq = item.indexOf('=');
      const key = (eq === -1 ? item : item.slice(0, eq)).trim();
      if (eq === -1) {
        problems.push(`missing bool value for ${echo(key)}`);
        continue;
      }
      const raw = item.slice(eq + 1).trim();
      const bool = parseGoBool(raw);
      if (bool === undefined) {
        problems.push(`invalid value of ${echo(key)}=${echo(raw)}, err: strconv.ParseBool: parsing ${JSON.stringify(echo(raw))}: invalid syntax`);
        continue;
      }
      if (!isFeatureName(key)) {
        problems.push(`unrecognized feature gate: ${echo(key)}`);
        continue;
      }
      const spec = specOf(key);
      if (spec.lockToDefault && spec.default !== bool) {
        problems.push(`cannot set feature gate ${key} to ${bool}, feature is locked to ${spec.default}`);
        continue;
      }
      set.set(key, bool);
      if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${key}=${bool}. It will be removed in a future release.`);
      else if (spec.stage === '') warnings.push(`Setting GA feature gate ${key}=${bool}. It will be removed in a future release.`);
    }
  }
  return { set, problems, warnings };
}

/**
 * Explicit values win; then AllAlpha / AllBeta for the gates of their stage that
 * were not set (locked gates keep their default); then the table's default.
 */
export function createFeatureGates(set: ReadonlyMap<FeatureName, boolean> = new Map()): FeatureGates {
  const values = new Map<FeatureName, boolean>();
  const allAlpha = set.get('AllAlpha');
  const allBeta = set.get('AllBeta');
  for (const name of Object.keys(FEATURE_GATE_SPECS) as FeatureName[]) {
    const spec = specOf(name);
    let value = spec.default;
    if (!spec.lockToDefault && spec.stage === 'ALPHA' && allAlpha !== undefined) value = allAlpha;
    if (!spec.lockToDefault && spec.stage === 'BETA' && allBeta !== undefined) value = allBeta;
    const explicit = set.get(name);
    values.set(name, explicit ?? value);
  }
  const all = [...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, enabled]) => ({ name, stage: specOf(name).stage, enabled }));
  return Object.freeze({
    enabled: (name: FeatureName) => values.get(name) ?? false,
    all: () => all,
  });
}

/** kube's defaults, for tests and tools that take no flags. */
export const DEFAULT_FEATURE_GATES: FeatureGates = createFeatureGates();
