// The RBAC policy in memory: Roles, ClusterRoles and their bindings, kept from the
// watch cache (mirror.ts) and indexed by subject, so a decision reads a few map
// entries and never storage. Rules are read once per object change, not per request.
// visitRulesFor walks the rules that apply to a user in kube's order (cluster role
// bindings, then role bindings of the namespace, each by name), as kube's
// DefaultRuleResolver.VisitRulesFor does, and names where each rule comes from.
import { goQuote } from '../../../schema/go-quote.js';
import type { KubeObject } from '../../../schema/object.js';
import type { UserInfo } from '../../../schema/user.js';
import { policyRulesOf, type PolicyRule } from './rules.js';

export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
}

export interface Binding {
  readonly name: string;
  /** '' for ClusterRoleBindings. */
  readonly namespace: string;
  readonly roleKind: string;
  readonly roleName: string;
  readonly subjects: readonly Subject[];
}

/**
 * Called per rule in order; `false` stops the walk. `error` is a role that could not
 * be read. `source` words where the rule comes from; it is built only when called
 * (quoting names costs more than the rest of a decision).
 */
export type RuleVisitor = (source: () => string, rule: PolicyRule | undefined, error: string | undefined) => boolean;

const SA_PREFIX = 'system:serviceaccount:';

function str(obj: unknown, key: string): string {
  const v = typeof obj === 'object' && obj !== null && Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : '';
}

export function bindingOf(obj: KubeObject): Binding {
  const roleRef = (obj as { roleRef?: unknown }).roleRef;
  const subjects = (obj as { subjects?: unknown }).subjects;
  return {
    name: obj.metadata.name ?? '',
    namespace: obj.metadata.namespace ?? '',
    roleKind: str(roleRef, 'kind'),
    roleName: str(roleRef, 'name'),
    subjects: Array.isArray(subjects) ? subjects.map((s) => ({ kind: str(s, 'kind'), name: str(s, 'name'), namespace: str(s, 'namespace') })) : [],
  };
}

/** Index keys a subject of a binding in `namespace` ('' for cluster bindings) answers to. */
function subjectKey(s: Subject, namespace: string): string | undefined {
  switch (s.kind) {
    case 'User':
      return `U:${s.name}`;
    case 'Group':
      return `G:${s.name}`;
    case 'ServiceAccount': {
      // kube defaults a role binding's service account to the binding's namespace.
      const ns = s.namespace === '' ? namespace : s.namespace;
      return ns === '' ? undefined : `S:${ns}/${s.name}`;
    }
    default:
      return undefined;
  }
}

/** The keys a user matches: their name, each group, and their service account if they are one. */
export function userKeys(user: UserInfo): string[] {
  const keys = [`U:${user.username}`, ...user.groups.map((g) => `G:${g}`)];
  if (user.username.startsWith(SA_PREFIX)) {
    const rest = user.username.slice(SA_PREFIX.length);
    const colon = rest.indexOf(':');
    if (colon > 0 && colon < rest.length - 1 && rest.indexOf(':', colon + 1) < 0) keys.push(`S:${rest.slice(0, colon)}/${rest.slice(colon + 1)}`);
  }
  return keys;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  return s.namespace !== '' && s.namespace !== bindingNamespace ? `${s.kind} ${goQuote(`${s.namespace}/${s.name}`)}` : `${s.kind} ${goQuote(s.name)}`;
}

/** A binding as indexed: each subject's key computed once, when the binding changes. */
interface Indexed {
  readonly binding: Binding;
  readonly keys: readonly (string | undefined)[];
}

/** Bindings of one scope (the cluster, or one namespace), by name and by subject key. */
class BindingSet {
  readonly byName = new Map<string, Indexed>();
  private readonly bySubject = new Map<string, Set<string>>();

  put(b: Binding): void {
    this.remove(b.name);
    const keys = b.subjects.map((s) => subjectKey(s, b.namespace));
    this.byName.set(b.name, { binding: b, keys });
    for (const key of keys) {
      if (key === undefined) continue;
      let names = this.bySubject.get(key);
      if (names === undefined) this.bySubject.set(key, (names = new Set()));
      names.add(b.name);
    }
  }

  remove(name: string): void {
    const old = this.byName.get(name);
    if (old === undefined) return;
    this.byName.delete(name);
    for (const key of old.keys) {
      const names = key === undefined ? undefined : this.bySubject.get(key);
      names?.delete(name);
      if (names?.size === 0) this.bySubject.delete(key!);
    }
  }

  /** The bindings naming one of `keys`, with the first subject that matched, by binding name (kube's list order). */
  matching(keys: readonly string[]): { binding: Binding; subject: Subject }[] {
    const names: string[] = [];
    for (const k of keys) {
      const hit = this.bySubject.get(k);
      if (hit !== undefined) for (const n of hit) names.push(n);
    }
    if (names.length === 0) return [];
    // A binding naming the user twice (by name and by group) is visited once.
    const ordered = names.length === 1 ? names : [...new Set(names)].sort();
    return ordered.map((n) => {
      const { binding, keys: own } = this.byName.get(n)!;
      const at = own.findIndex((k) => k !== undefined && keys.includes(k));
      return { binding, subject: binding.subjects[at]! };
    });
  }
}

/** A text built the first time it is asked for, then kept (a cached walk answers many requests). */
function once(build: () => string): () => string {
  let text: string | undefined;
  return () => (text ??= build());
}

interface WalkEntry {
  readonly source: () => string;
  readonly rule: PolicyRule | undefined;
  readonly error: string | undefined;
}

/** Walks kept per (subject keys, namespace) until the policy changes. */
const MAX_CACHED_WALKS = 4096;

export class PolicyIndex {
  private readonly walks = new Map<string, readonly WalkEntry[]>();
  private readonly clusterRoles = new Map<string, readonly PolicyRule[]>();
  private readonly roles = new Map<string, readonly PolicyRule[]>();
  private clusterBindings = new BindingSet();
  private readonly roleBindings = new Map<string, BindingSet>();

  replaceClusterRoles(objects: Iterable<KubeObject>): void {
    this.changed();
    this.clusterRoles.clear();
    for (const o of objects) this.putClusterRole(o);
  }
  putClusterRole(o: KubeObject): void {
    this.changed();
    this.clusterRoles.set(o.metadata.name ?? '', policyRulesOf(o));
  }
  deleteClusterRole(o: KubeObject): void {
    this.changed();
    this.clusterRoles.delete(o.metadata.name ?? '');
  }

  replaceRoles(objects: Iterable<KubeObject>): void {
    this.changed();
    this.roles.clear();
    for (const o of objects) this.putRole(o);
  }
  putRole(o: KubeObject): void {
    this.changed();
    this.roles.set(`${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`, policyRulesOf(o));
  }
  deleteRole(o: KubeObject): void {
    this.changed();
    this.roles.delete(`${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`);
  }

  replaceClusterRoleBindings(objects: Iterable<KubeObject>): void {
    this.changed();
    const next = new BindingSet();
    for (const o of objects) next.put(bindingOf(o));
    this.clusterBindings = next;
  }
  putClusterRoleBinding(o: KubeObject): void {
    this.changed();
    this.clusterBindings.put(bindingOf(o));
  }
  deleteClusterRoleBinding(o: KubeObject): void {
    this.changed();
    this.clusterBindings.remove(o.metadata.name ?? '');
  }

  replaceRoleBindings(objects: Iterable<KubeObject>): void {
    this.changed();
    this.roleBindings.clear();
    for (const o of objects) this.putRoleBinding(o);
  }
  putRoleBinding(o: KubeObject): void {
    this.changed();
    const ns = o.metadata.namespace ?? '';
    let set = this.roleBindings.get(ns);
    if (set === undefined) this.roleBindings.set(ns, (set = new BindingSet()));
    set.put(bindingOf(o));
  }
  deleteRoleBinding(o: KubeObject): void {
    this.changed();
    const ns = o.metadata.namespace ?? '';
    const set = this.roleBindings.get(ns);
    set?.remove(o.metadata.name ?? '');
    if (set?.byName.size === 0) this.roleBindings.delete(ns);
  }

  /**
   * The rules a role reference grants in `namespace` (kube's GetRoleReferenceRules),
   * or the NotFound text kube's listers give for a missing role.
   */
  roleRules(kind: string, name: string, namespace: string): { rules: readonly PolicyRule[] } | { error: string } {
    if (kind === 'ClusterRole') {
      const rules = this.clusterRoles.get(name);
      return rules === undefined ? { error: `clusterrole.rbac.authorization.k8s.io ${goQuote(name)} not found` } : { rules };
    }
    if (kind === 'Role') {
      const rules = this.roles.get(`${namespace}/${name}`);
      return rules === undefined ? { error: `role.rbac.authorization.k8s.io ${goQuote(name)} not found` } : { rules };
    }
    return { error: `unsupported role reference kind: ${goQuote(kind)}` };
  }

  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    for (const e of this.entriesFor(userKeys(user), namespace)) if (!visit(e.source, e.rule, e.error)) return;
  }

  /** Any change of the policy: every cached walk is stale. */
  private changed(): void {
    this.walks.clear();
  }

  /**
   * The walk for these subject keys in this namespace, cached until the policy
   * changes: the same user asks again and again, and a walk costs more than the
   * rule checks it feeds. Bounded: past the limit the oldest walk is dropped.
   */
  private entriesFor(keys: readonly string[], namespace: string): readonly WalkEntry[] {
    const cacheKey = `${namespace}\u0000${keys.join('\u0000')}`;
    const hit = this.walks.get(cacheKey);
    if (hit !== undefined) return hit;
    const entries: WalkEntry[] = [];
    for (const { binding, subject } of this.clusterBindings.matching(keys)) {
      const source = once(() => `ClusterRoleBinding ${goQuote(binding.name)} of ${binding.roleKind} ${goQuote(binding.roleName)} to ${describeSubject(subject, '')}`);
      this.walkBinding(binding, '', source, entries);
    }
    if (namespace !== '') {
      for (const { binding, subject } of this.roleBindings.get(namespace)?.matching(keys) ?? []) {
        const source = once(() => `RoleBinding ${goQuote(`${binding.name}/${binding.namespace}`)} of ${binding.roleKind} ${goQuote(binding.roleName)} to ${describeSubject(subject, binding.namespace)}`);
        this.walkBinding(binding, namespace, source, entries);
      }
    }
    if (this.walks.size >= MAX_CACHED_WALKS) this.walks.delete(this.walks.keys().next().value!);
    this.walks.set(cacheKey, entries);
    return entries;
  }

  private walkBinding(binding: Binding, namespace: string, source: () => string, out: WalkEntry[]): void {
    const found = this.roleRules(binding.roleKind, binding.roleName, namespace);
    if ('error' in found) out.push({ source, rule: undefined, error: found.error });
    else for (const rule of found.rules) out.push({ source, rule, error: undefined });
  }
}
