// kube-controller-manager's clusterrole-aggregation-controller
// (pkg/controller/clusterroleaggregation): a ClusterRole with
// aggregationRule.clusterRoleSelectors gets as its rules the rules of every other
// ClusterRole a selector matches — selectors in order, the matched roles of each
// by name, each rule once (the first time it is seen, compared field by field as
// kube's semantic DeepEqual does). That is how admin, edit and view are made of
// the system:aggregate-to-* roles and of any user role labelled
// rbac.authorization.k8s.io/aggregate-to-<role>: "true".
//
// One sync handles every aggregated role from one list: roles that aggregate
// each other (edit into admin) are settled in memory, in a bounded number of
// rounds, before anything is written, so a change costs one write per role that
// changes. Roles whose selectors select each other can have no settled state
// (stale rules passed around); then nothing is written and a warning is logged,
// so hostile selectors cannot make the controller write forever.
import { isStatusError } from '../errors/status-error.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { Registry } from '../registry/registry.js';
import { cachedList } from './lister.js';
import type { KubeObject } from '../schema/object.js';
import { LabelSelectorError, labelSelectorRequirements, matchesLabels, type LabelRequirement, type LabelSelector } from '../schema/label-selector.js';
import { ruleJson, ruleView } from '../apis/rbac/reconcile.js';

type Json = Record<string, unknown>;

/** What the controller needs from the registry; each method is one API call. */
export interface ClusterRoleAggregationClient {
  list(): Promise<KubeObject[]>;
  /**
   * PUT the role with these rules, under the resourceVersion it was read at. A
   * Conflict or NotFound is not an error: the change that caused it is an event
   * that syncs again.
   */
  updateRules(role: KubeObject, rules: Json[]): Promise<void>;
}

export interface ClusterRoleAggregationLogger {
  warn(obj: object, msg: string): void;
}

export interface ClusterRoleAggregatorOptions {
  readonly client: ClusterRoleAggregationClient;
  readonly logger?: ClusterRoleAggregationLogger;
  /** Rounds of settling aggregated roles that feed each other (default 10). */
  readonly maxRounds?: number;
}

export interface AggregationSyncResult {
  /** Names of the roles whose rules were written. */
  readonly updated: readonly string[];
  /** false: the aggregated roles did not settle; nothing was written. */
  readonly settled: boolean;
}

export interface ClusterRoleAggregator {
  sync(): Promise<AggregationSyncResult>;
}

interface Aggregated {
  readonly role: KubeObject;
  readonly name: string;
  readonly selectors: readonly LabelRequirement[][];
}

/** A rule as kube compares it: its five lists, normalized, as one string. */
interface KeyedRule {
  readonly key: string;
  readonly json: Json;
}

function keyedRules(role: KubeObject): KeyedRule[] {
  const rules = Array.isArray(role.rules) ? (role.rules as unknown[]) : [];
  return rules.map((r) => {
    const json = ruleJson(ruleView(r));
    return { key: JSON.stringify(json), json };
  });
}

function labelsOf(role: KubeObject): Readonly<Record<string, unknown>> {
  const labels = role.metadata.labels;
  return typeof labels === 'object' && labels !== null && !Array.isArray(labels) ? labels : {};
}

/** The role's compiled selectors; undefined when it is not aggregated or a selector does not convert. */
function aggregatedOf(role: KubeObject, logger: ClusterRoleAggregationLogger | undefined): Aggregated | undefined {
  const rule = role.aggregationRule;
  if (typeof rule !== 'object' || rule === null || !Object.hasOwn(rule, 'clusterRoleSelectors')) return undefined;
  const selectors = (rule as Json).clusterRoleSelectors;
  if (!Array.isArray(selectors)) return undefined;
  const name = role.metadata.name ?? '';
  try {
    return {
      role,
      name,
      selectors: selectors.map((s) => {
        // Not a selector object at all: it selects nothing rather than (read as `{}`) everything.
        if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new LabelSelectorError(`${JSON.stringify(s)} is not a label selector`);
        return labelSelectorRequirements(s as LabelSelector);
      }),
    };
  } catch (err) {
    // kube's sync fails on it every time; logging once per sync is the same news without the retries.
    if (err instanceof LabelSelectorError) {
      logger?.warn({ clusterRole: name, err: err.message }, 'clusterrole aggregation: selector does not convert; role skipped');
      return undefined;
    }
    throw err;
  }
}

function sameRules(a: readonly KeyedRule[], b: readonly KeyedRule[]): boolean {
  return a.length === b.length && a.every((r, i) => r.key === b[i]!.key);
}

export function createClusterRoleAggregator(opts: ClusterRoleAggregatorOptions): ClusterRoleAggregator {
  const maxRounds = opts.maxRounds ?? 10;
  return {
    async sync() {
      const roles = [...(await opts.client.list())].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
      const aggregated = roles.map((r) => aggregatedOf(r, opts.logger)).filter((a): a is Aggregated => a !== undefined);
      if (aggregated.length === 0) return { updated: [], settled: true };
      // The rules each role has now, as later rounds see them (aggregated roles feed each other).
      const current = new Map<string, KeyedRule[]>(roles.map((r) => [r.metadata.name ?? '', keyedRules(r)]));
      const stored = new Map(current);
      const aggregate = (a: Aggregated): KeyedRule[] => {
        const seen = new Set<string>();
        const out: KeyedRule[] = [];
        for (const selector of a.selectors) {
          for (const other of roles) {
            const otherName = other.metadata.name ?? '';
            if (otherName === a.name || !matchesLabels(selector, labelsOf(other))) continue;
            for (const r of current.get(otherName) ?? []) {
              if (seen.has(r.key)) continue;
              seen.add(r.key);
              out.push(r);
            }
          }
        }
        return out;
      };
      let settled = false;
      for (let round = 0; round < maxRounds && !settled; round++) {
        settled = true;
        for (const a of aggregated) {
          const next = aggregate(a);
          if (sameRules(next, current.get(a.name) ?? [])) continue;
          current.set(a.name, next);
          settled = false;
        }
      }
      if (!settled) {
        opts.logger?.warn({ clusterRoles: aggregated.map((a) => a.name) }, 'clusterrole aggregation: aggregated roles select each other and do not settle; nothing written');
        return { updated: [], settled: false };
      }
      const updated: string[] = [];
      for (const a of aggregated) {
        const next = current.get(a.name) ?? [];
        if (sameRules(next, stored.get(a.name) ?? [])) continue;
        await opts.client.updateRules(a.role, next.map((r) => structuredClone(r.json)));
        updated.push(a.name);
      }
      return { updated, settled: true };
    },
  };
}

/** The field manager the controller's writes are recorded under (kube's). */
export const AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';

/** The client over the registry's ClusterRole store (the same one any caller uses). */
export function registryClusterRoleClient(registry: Registry, clusterRoles: ResourceDefinition): ClusterRoleAggregationClient {
  const store = registry.store(clusterRoles);
  return {
    // A lister read (the watch cache): a stale role is a Conflict on update, and its newer state an event that syncs again.
    list: () => cachedList(store),
    updateRules: async (role, rules) => {
      try {
        await store.update({ ...role, rules }, { name: role.metadata.name ?? '', fieldManager: AGGREGATION_FIELD_MANAGER });
      } catch (err) {
        if (isStatusError(err) && (err.reason === 'Conflict' || err.reason === 'NotFound')) return;
        throw err;
      }
    },
  };
}
