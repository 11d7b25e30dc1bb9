// SelfSubjectReview (`kubectl auth whoami`): a virtual resource that answers a
// create with the requesting user's identity and stores nothing. Served at v1 and
// v1beta1 because kubectl 1.27 only tries v1beta1.
import { defineResource, type ResourceDefinition, type VirtualCreateContext } from '../../registry/define-resource.js';
import type { KubeObject } from '../../schema/object.js';

function review(apiVersion: string, ctx: VirtualCreateContext): KubeObject {
  const { username, uid, groups, extra } = ctx.user;
  const userInfo: Record<string, unknown> = { username };
  if (uid !== undefined && uid !== '') userInfo.uid = uid;
  userInfo.groups = [...groups];
  if (extra !== undefined && Object.keys(extra).length > 0) userInfo.extra = structuredClone(extra);
  return { kind: 'SelfSubjectReview', apiVersion, metadata: { creationTimestamp: null }, status: { userInfo } };
}

export function selfSubjectReviewsAt(version: 'v1' | 'v1beta1'): ResourceDefinition {
  return defineResource({
    group: 'authentication.k8s.io',
    version,
    kind: 'SelfSubjectReview',
    plural: 'selfsubjectreviews',
    scope: 'Cluster',
    virtualCreate: (_obj, ctx) => review(`authentication.k8s.io/${version}`, ctx),
  });
}
