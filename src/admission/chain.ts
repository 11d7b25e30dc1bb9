// The admission chain: one ordered list of plugins, run mutating-then-validating by
// the generic store (registry/store/) on every write. Order is data here, not
// implied by where plugins are registered (STYLE §10, "scattered order").
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './plugin.js';
import { namespaceLifecycle } from './plugins/namespace-lifecycle/index.js';

export interface AdmissionChain {
  readonly plugins: readonly AdmissionPlugin[];
  admit(attrs: AdmissionAttributes, lookup: AdmissionLookup): Promise<void>;
  validate(attrs: AdmissionAttributes, lookup: AdmissionLookup): Promise<void>;
}

/** kube-apiserver's default-enabled plugins that kapi implements, in kube's order. */
export function defaultAdmissionPlugins(): AdmissionPlugin[] {
  return [namespaceLifecycle()];
}

export function createAdmissionChain(opts: { plugins?: readonly AdmissionPlugin[] } = {}): AdmissionChain {
  const plugins = opts.plugins ?? defaultAdmissionPlugins();
  return {
    plugins,
    async admit(attrs, lookup) {
      for (const p of plugins) if (p.admit !== undefined) await p.admit(attrs, lookup);
    },
    async validate(attrs, lookup) {
      for (const p of plugins) if (p.validate !== undefined) await p.validate(attrs, lookup);
    },
  };
}
