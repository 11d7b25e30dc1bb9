// The in-process controllers by kube-controller-manager's names, and its
// --controllers rule: `*` turns on those on by default, `name` turns one on,
// `-name` turns it off, and either form may use the controller's older short name
// (`tokencleaner` for token-cleaner-controller) as kube-controller-manager still
// accepts them. Pure, so options.ts can check the flag before anything starts;
// server/controllers.ts maps each name to what it starts.

export interface ControllerName {
  /** kube-controller-manager's name since 1.28. */
  readonly name: string;
  /** The names it had before (still accepted). */
  readonly aliases: readonly string[];
  readonly enabledByDefault: boolean;
}

export const CONTROLLER_NAMES: readonly ControllerName[] = [
  { name: 'namespace-controller', aliases: ['namespace'], enabledByDefault: true },
  { name: 'serviceaccount-controller', aliases: ['serviceaccount'], enabledByDefault: true },
  { name: 'root-ca-certificate-publisher-controller', aliases: ['root-ca-cert-publisher'], enabledByDefault: true },
  { name: 'serviceaccount-token-controller', aliases: ['serviceaccount-token'], enabledByDefault: true },
  { name: 'clusterrole-aggregation-controller', aliases: ['clusterrole-aggregation'], enabledByDefault: true },
  { name: 'bootstrap-signer-controller', aliases: ['bootstrapsigner'], enabledByDefault: false },
  { name: 'token-cleaner-controller', aliases: ['tokencleaner'], enabledByDefault: false },
];

export const DEFAULT_CONTROLLERS: readonly string[] = ['*'];

function known(entry: string): ControllerName | undefined {
  return CONTROLLER_NAMES.find((c) => c.name === entry || c.aliases.includes(entry));
}

/** One line per entry of --controllers that names no controller (the flag's error). */
export function controllersFlagProblems(list: readonly string[]): string[] {
  const problems: string[] = [];
  for (const entry of list) {
    if (entry === '*') continue;
    const bare = entry.startsWith('-') ? entry.slice(1) : entry;
    if (known(bare) === undefined) {
      problems.push(`--controllers: ${JSON.stringify(bare)} is not in the list of known controllers (${CONTROLLER_NAMES.map((c) => c.name).join(', ')})`);
    }
  }
  return problems;
}

/** Whether --controllers (already checked) turns the controller of this name on. */
export function controllerEnabled(list: readonly string[], name: string): boolean {
  const spec = known(name);
  if (spec === undefined) return false;
  const names = [spec.name, ...spec.aliases];
  // The first entry that names it decides (kube-controller-manager's rule); `*` only
  // speaks for the controllers on by default.
  for (const entry of list) {
    if (names.includes(entry)) return true;
    if (entry.startsWith('-') && names.includes(entry.slice(1))) return false;
  }
  return list.includes('*') && spec.enabledByDefault;
}
