// SelfSubjectRulesReview (`kubectl auth can-i --list`): the rules the server's
// authorizer can enumerate for the requesting user in spec.namespace. Nothing is
// stored; the answer carries only status, as kube's REST answers.
import { badRequest } from '../../../errors/status-error.js';
import { defineResource, type ResourceDefinition } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import type { RulesResolver } from './rules-resolver.js';

export function selfSubjectRulesReviews(resolve: RulesResolver): ResourceDefinition {
  return defineResource({
    group: 'authorization.k8s.io',
    version: 'v1',
    kind: 'SelfSubjectRulesReview',
    plural: 'selfsubjectrulesreviews',
    scope: 'Cluster',
    virtualCreate: async (obj, ctx): Promise<KubeObject> => {
      const spec = (typeof obj.spec === 'object' && obj.spec !== null ? obj.spec : {}) as Record<string, unknown>;
      const namespace = typeof spec.namespace === 'string' ? spec.namespace : '';
      if (namespace === '') throw badRequest('no namespace on request');
      const rules = await resolve(ctx.user, namespace);
      const status: Record<string, unknown> = {
        resourceRules: rules.resourceRules.map((r) => ({ ...r })),
        nonResourceRules: rules.nonResourceRules.map((r) => ({ ...r })),
        incomplete: rules.incomplete,
      };
      if (rules.evaluationError !== undefined) status.evaluationError = rules.evaluationError;
      return { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: {}, status };
    },
  });
}
