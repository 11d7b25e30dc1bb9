// API Priority and Fairness configuration every cluster has (kube-apiserver's
// APF bootstrap-configuration post-start hook), ensured on every start: each
// priority level first, then the flow schemas that name them. A missing object
// is created with the autoupdate annotation; a mandatory one (exempt, catch-all)
// is put back to its spec whenever it differs (the exempt level keeps the
// `spec.exempt` a user chose, as in kube); a suggested one only while its
// annotation still says "true" (a user who sets it "false" owns the object).
// The flow schemas' Dangling condition, which kube's APF controller keeps, is
// set on the schemas ensured here (their levels exist, so False).
import type { Registry } from '../registry/registry.js';
import { deepEqual } from '../registry/validation/common.js';
import type { KubeObject } from '../schema/object.js';
import {
  AUTO_UPDATE_ANNOTATION,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from '../apis/flowcontrol/v1/bootstrap-configuration.js';
import { ensureObject, type EnsureAction, type EnsureOptions } from './ensure.js';
import { unlessNotFound } from './bootstrap-scheduling.js';

const GROUP = 'flowcontrol.apiserver.k8s.io';
const PRIORITY_LEVELS = { group: GROUP, version: 'v1', resource: 'prioritylevelconfigurations' } as const;
const FLOW_SCHEMAS = { group: GROUP, version: 'v1', resource: 'flowschemas' } as const;

type Json = Record<string, unknown>;

/** The spec a bootstrap object should have now, given what is stored. */
function wantedSpec(want: KubeObject, current: KubeObject): unknown {
  const spec = want.spec as Json;
  const stored = (current.spec ?? {}) as Json;
  // kube lets users tune the exempt level's own fields.
  if (want.kind === 'PriorityLevelConfiguration' && want.metadata.name === 'exempt' && stored.exempt !== undefined) return { ...spec, exempt: stored.exempt };
  return spec;
}

function timestamp(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

export interface FlowControlBootstrapOptions {
  readonly ensure?: EnsureOptions;
  /** For the conditions' lastTransitionTime; default: the wall clock. */
  readonly clock?: () => Date;
}

/** Ensures the APF configuration; answers what was done to each object, keyed `<resource>/<name>`. */
export async function bootstrapFlowControl(registry: Registry, opts: FlowControlBootstrapOptions = {}): Promise<Record<string, EnsureAction>> {
  const actions: Record<string, EnsureAction> = {};
  const clock = opts.clock ?? (() => new Date());
  const ensureAll = async (gvr: typeof PRIORITY_LEVELS | typeof FLOW_SCHEMAS, objects: readonly KubeObject[], mandatory: boolean) => {
    const store = registry.store(gvr);
    for (const want of objects) {
      const name = want.metadata.name!;
      const result = await ensureObject(
        {
          what: `${gvr.resource} ${name}`,
          read: () => unlessNotFound(store.get({ name })),
          create: () =>
            store.create({
              ...structuredClone(want),
              metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
            } as KubeObject),
          repair: (current) => {
            const autoUpdate = current.metadata.annotations?.[AUTO_UPDATE_ANNOTATION];
            if (!mandatory && autoUpdate !== 'true') return undefined;
            const spec = wantedSpec(want, current);
            if (deepEqual(current.spec, spec)) return undefined;
            return { ...current, spec: structuredClone(spec) } as KubeObject;
          },
          update: (next) => store.update(next, { name }),
          settle: gvr === FLOW_SCHEMAS ? (current) => settleDangling(registry, current, clock) : undefined,
        },
        opts.ensure,
      );
      actions[`${gvr.resource}/${name}`] = result.action;
    }
  };
  await ensureAll(PRIORITY_LEVELS, MANDATORY_PRIORITY_LEVELS, true);
  await ensureAll(PRIORITY_LEVELS, SUGGESTED_PRIORITY_LEVELS, false);
  await ensureAll(FLOW_SCHEMAS, MANDATORY_FLOW_SCHEMAS, true);
  await ensureAll(FLOW_SCHEMAS, SUGGESTED_FLOW_SCHEMAS, false);
  return actions;
}

/** Sets the Dangling condition as kube's APF controller does: False while the level exists. */
async function settleDangling(registry: Registry, fs: KubeObject, clock: () => Date): Promise<'retry' | 'done'> {
  const level = (((fs.spec as Json | undefined)?.priorityLevelConfiguration ?? {}) as Json).name;
  if (typeof level !== 'string') return 'done';
  const exists = (await unlessNotFound(registry.store(PRIORITY_LEVELS).get({ name: level }))) !== undefined;
  const status = exists ? 'False' : 'True';
  const conditions = (((fs.status ?? {}) as Json).conditions ?? []) as Json[];
  const current = Array.isArray(conditions) ? conditions.find((c) => c?.type === 'Dangling') : undefined;
  if (current?.status === status) return 'done';
  const condition = {
    type: 'Dangling',
    status,
    lastTransitionTime: timestamp(clock()),
    reason: exists ? 'Found' : 'NotFound',
    message: exists
      ? `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists`
      : `This FlowSchema references the PriorityLevelConfiguration object named "${level}" but there is no such object`,
  };
  const others = Array.isArray(conditions) ? conditions.filter((c) => c?.type !== 'Dangling') : [];
  const statusStore = registry.store(FLOW_SCHEMAS).subresource('status');
  if (statusStore === undefined) return 'done';
  await statusStore.update({ ...fs, status: { ...((fs.status ?? {}) as Json), conditions: [...others, condition] } } as KubeObject, { name: fs.metadata.name! });
  return 'retry';
}
