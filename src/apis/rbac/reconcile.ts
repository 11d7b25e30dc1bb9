// kube's RBAC reconciliation (pkg/registry/rbac/reconciliation, as the
// rbac/bootstrap-roles hook and `kubectl auth reconcile` run it without
// --remove-extra-permissions): what to write so that a stored role or binding
// grants at least what the default policy says, never less and never by taking
// anything away.
//   - labels and annotations: the wanted ones are added, a stored value wins;
//   - rules: each wanted rule is broken into one-verb/one-resource rules and the
//     ones no stored rule covers (kube's policy comparator) are appended;
//   - aggregation: missing cluster role selectors are appended;
//   - bindings: missing subjects are appended; another roleRef means recreate;
//   - an object annotated rbac.authorization.kubernetes.io/autoupdate=false is
//     protected: nothing is written to it.
// Pure functions of JSON-shaped objects; server/bootstrap-rbac.ts does the I/O.
import type { KubeObject } from '../../schema/object.js';
import { deepEqual } from '../../registry/validation/common.js';
import { AUTOUPDATE_ANNOTATION } from './bootstrap-policy.js';
import { breakdownRule, policyRuleOf as ruleView, ruleCovers, type PolicyRule } from '../../auth/authz/rbac/rules.js';

type Json = Record<string, unknown>;

/** A rule as read from a stored object: lists of strings, any of them absent (auth/authz/rbac/rules.ts). */
export type RuleView = PolicyRule;

// One home for reading rules, breaking them down and comparing them: RBAC's
// authorizer and escalation checks use the same (kube's validation.Covers).
export { breakdownRule, policyRuleOf as ruleView, ruleCovers } from '../../auth/authz/rbac/rules.js';

function own(obj: unknown, field: string): unknown {
  return typeof obj === 'object' && obj !== null && Object.hasOwn(obj, field) ? (obj as Json)[field] : undefined;
}

/** The rule as stored: empty lists left out, fields in kube's order. */
export function ruleJson(r: RuleView): Json {
  const out: Json = { verbs: [...r.verbs] };
  if (r.apiGroups.length > 0) out.apiGroups = [...r.apiGroups];
  if (r.resources.length > 0) out.resources = [...r.resources];
  if (r.resourceNames.length > 0) out.resourceNames = [...r.resourceNames];
  if (r.nonResourceURLs.length > 0) out.nonResourceURLs = [...r.nonResourceURLs];
  return out;
}

/** The broken-down wanted rules that no owner rule covers (kube's Covers), in order. */
export function uncoveredRules(owners: readonly RuleView[], wanted: readonly RuleView[]): RuleView[] {
  // A wanted rule stored as it is covers itself: the common case (every restart) skips the breakdown.
  const stored = new Set(owners.map((o) => JSON.stringify(ruleJson(o))));
  const out: RuleView[] = [];
  for (const rule of wanted) {
    if (stored.has(JSON.stringify(ruleJson(rule)))) continue;
    for (const sub of breakdownRule(rule)) if (!owners.some((o) => ruleCovers(o, sub))) out.push(sub);
  }
  return out;
}

export type ReconcileOperation = 'none' | 'create' | 'update' | 'recreate';

export interface ReconcileResult {
  readonly operation: ReconcileOperation;
  /** The object to write; the stored one when operation is 'none'. */
  readonly object: KubeObject;
  /** autoupdate=false: a wanted change was not made. */
  readonly protected: boolean;
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

/** Wanted entries added, stored values winning (kube's merge(expected, existing)). */
function mergeMap(wanted: unknown, stored: unknown): { map: Record<string, string>; changed: boolean } {
  const map = stringMap(stored);
  let changed = false;
  for (const [k, v] of Object.entries(stringMap(wanted))) {
    if (!Object.hasOwn(map, k)) {
      map[k] = v;
      changed = true;
    }
  }
  return { map: { ...map }, changed };
}

function isProtected(obj: KubeObject): boolean {
  return stringMap(obj.metadata.annotations)[AUTOUPDATE_ANNOTATION] === 'false';
}

/** Shared by roles and bindings: the merged metadata and whether it differs. */
function reconcileMetadata(stored: KubeObject, wanted: KubeObject): { metadata: KubeObject['metadata']; changed: boolean } {
  const labels = mergeMap(wanted.metadata.labels, stored.metadata.labels);
  const annotations = mergeMap(wanted.metadata.annotations, stored.metadata.annotations);
  return { metadata: { ...stored.metadata, labels: labels.map, annotations: annotations.map }, changed: labels.changed || annotations.changed };
}

function finish(stored: KubeObject, next: KubeObject, changed: boolean, operation: ReconcileOperation = 'update'): ReconcileResult {
  if (!changed) return { operation: 'none', object: stored, protected: false };
  if (isProtected(stored)) return { operation: 'none', object: stored, protected: true };
  return { operation, object: next, protected: false };
}

/** computeReconciledRole for a Role or ClusterRole (stored undefined: create the wanted one). */
export function reconcileRole(stored: KubeObject | undefined, wanted: KubeObject): ReconcileResult {
  if (stored === undefined) return { operation: 'create', object: wanted, protected: false };
  const meta = reconcileMetadata(stored, wanted);
  const storedRules = Array.isArray(stored.rules) ? (stored.rules as unknown[]) : [];
  const missing = uncoveredRules(storedRules.map(ruleView), (Array.isArray(wanted.rules) ? (wanted.rules as unknown[]) : []).map(ruleView));
  const next: KubeObject = { ...stored, metadata: meta.metadata };
  if (missing.length > 0) next.rules = [...storedRules, ...missing.map(ruleJson)];
  let aggregationChanged = false;
  const wantedSelectors = own(own(wanted, 'aggregationRule'), 'clusterRoleSelectors');
  if (Array.isArray(wantedSelectors)) {
    const storedRule = own(stored, 'aggregationRule');
    const storedSelectors = own(storedRule, 'clusterRoleSelectors');
    const have = Array.isArray(storedSelectors) ? storedSelectors : [];
    const add = wantedSelectors.filter((w) => !have.some((h) => deepEqual(h, w)));
    if (add.length > 0) {
      aggregationChanged = true;
      next.aggregationRule = { ...(typeof storedRule === 'object' && storedRule !== null ? storedRule : {}), clusterRoleSelectors: [...have, ...add] };
    }
  }
  return finish(stored, next, meta.changed || missing.length > 0 || aggregationChanged);
}

function subjectKey(s: unknown): string {
  return JSON.stringify([own(s, 'kind'), own(s, 'apiGroup') ?? '', own(s, 'name'), own(s, 'namespace') ?? '']);
}

/** computeReconciledRoleBinding: missing subjects appended; a different roleRef is a recreate. */
export function reconcileBinding(stored: KubeObject | undefined, wanted: KubeObject): ReconcileResult {
  if (stored === undefined) return { operation: 'create', object: wanted, protected: false };
  const meta = reconcileMetadata(stored, wanted);
  if (!deepEqual(own(stored, 'roleRef'), own(wanted, 'roleRef'))) {
    // The roleRef is immutable: kube deletes the binding and creates the wanted one (its subjects too).
    const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ts, managedFields: _mf, ...kept } = meta.metadata;
    const recreated: KubeObject = { ...wanted, metadata: kept };
    return finish(stored, recreated, true, 'recreate');
  }
  const storedSubjects = Array.isArray(stored.subjects) ? (stored.subjects as unknown[]) : [];
  const have = new Set(storedSubjects.map(subjectKey));
  const add = (Array.isArray(wanted.subjects) ? (wanted.subjects as unknown[]) : []).filter((s) => !have.has(subjectKey(s)));
  const next: KubeObject = { ...stored, metadata: meta.metadata, ...(add.length > 0 ? { subjects: [...storedSubjects, ...add] } : {}) };
  return finish(stored, next, meta.changed || add.length > 0);
}
