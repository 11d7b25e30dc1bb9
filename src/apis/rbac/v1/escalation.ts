// The RBAC kinds' writes through the escalation guard (auth/authz/rbac/escalation.ts),
// as kube's policy-based role and binding storage wraps them: roles need their
// author to hold their rules (or `escalate`), bindings need `bind` on the role or
// its rules. An update that changes only what the garbage collector writes (owner
// references, finalizers) is never checked (kube's IsOnlyMutatingGCFields).
import type { EscalationGuard } from '../../../auth/authz/rbac/escalation.js';
import { policyRulesOf } from '../../../auth/authz/rbac/rules.js';
import { deepEqual } from '../../../registry/validation/common.js';
import type { Strategy, WriteContext } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';

type AuthorizeWrite = NonNullable<Strategy['authorizeWrite']>;

function isOnlyMutatingGcFields(obj: KubeObject, prev: KubeObject | undefined): boolean {
  if (prev === undefined) return false;
  const { ownerReferences: _o, finalizers: _f, managedFields: _m, ...meta } = obj.metadata;
  const { ownerReferences: _po, finalizers: _pf, managedFields: _pm, ...prevMeta } = prev.metadata;
  return deepEqual({ ...obj, metadata: meta }, { ...prev, metadata: prevMeta });
}

function own(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null && Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The name kube's `escalate` check asks about: the URL's, which a create has none of. */
const requestName = (obj: KubeObject, prev: KubeObject | undefined): string => (prev === undefined ? '' : (obj.metadata.name ?? ''));

export function roleWriteCheck(guard: EscalationGuard, resource: 'roles' | 'clusterroles'): AuthorizeWrite {
  return async (obj: KubeObject, prev: KubeObject | undefined, ctx: WriteContext) => {
    if (isOnlyMutatingGcFields(obj, prev)) return;
    await guard.checkRole({
      user: ctx.user!,
      resource,
      namespace: ctx.namespace,
      name: requestName(obj, prev),
      objectName: obj.metadata.name ?? '',
      rules: policyRulesOf(obj),
      aggregation: own(obj, 'aggregationRule') != null || own(prev, 'aggregationRule') != null,
    });
  };
}

export function bindingWriteCheck(guard: EscalationGuard, resource: 'rolebindings' | 'clusterrolebindings'): AuthorizeWrite {
  return async (obj: KubeObject, prev: KubeObject | undefined, ctx: WriteContext) => {
    if (isOnlyMutatingGcFields(obj, prev)) return;
    const roleRef = own(obj, 'roleRef');
    await guard.checkBinding({
      user: ctx.user!,
      resource,
      namespace: ctx.namespace,
      name: obj.metadata.name ?? '',
      roleRef: { kind: text(own(roleRef, 'kind')), name: text(own(roleRef, 'name')), apiGroup: text(own(roleRef, 'apiGroup')) },
    });
  };
}
