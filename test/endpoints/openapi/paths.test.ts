import { describe, expect, test } from 'vitest';
import { groupVersionTag, groupWord, resourcePaths } from '../../../src/endpoints/openapi/paths.js';
import { defineResource, type ResourceDefinition } from '../../../src/registry/define-resource.js';

const schemas = (kind: string) => ({ kind, list: `${kind}List`, subresources: {} });

function operationIds(def: ResourceDefinition): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, item] of Object.entries(resourcePaths(def, schemas(def.schema.name)))) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const op = item[method];
      if (op !== undefined) out[`${method.toUpperCase()} ${path}`] = `${op.operationId} ${op['x-kubernetes-action']}`;
    }
  }
  return out;
}

describe('group words and tags', () => {
  const cases: { name: string; group: string; wantWord: string; wantTag: string }[] = [
    { name: 'core', group: '', wantWord: 'Core', wantTag: 'core_v1' },
    { name: 'single word', group: 'apps', wantWord: 'Apps', wantTag: 'apps_v1' },
    { name: 'k8s.io suffix dropped', group: 'rbac.authorization.k8s.io', wantWord: 'RbacAuthorization', wantTag: 'rbacAuthorization_v1' },
    { name: 'custom domain kept', group: 'stable.example.com', wantWord: 'StableExampleCom', wantTag: 'stableExampleCom_v1' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(groupWord(c.group)).toBe(c.wantWord);
      expect(groupVersionTag({ group: c.group, version: 'v1' })).toBe(c.wantTag);
    });
  }
});

describe('resourcePaths', () => {
  const cases: { name: string; def: ResourceDefinition; want: Record<string, string> }[] = [
    {
      name: 'namespaced kind with every verb and a status subresource',
      def: defineResource({
        group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', scope: 'Namespaced',
        subresources: { status: { verbs: ['get', 'update', 'patch'] } },
      }),
      want: {
        'GET /apis/apps/v1/namespaces/{namespace}/deployments': 'listAppsV1NamespacedDeployment list',
        'POST /apis/apps/v1/namespaces/{namespace}/deployments': 'createAppsV1NamespacedDeployment post',
        'DELETE /apis/apps/v1/namespaces/{namespace}/deployments': 'deleteAppsV1CollectionNamespacedDeployment deletecollection',
        'GET /apis/apps/v1/namespaces/{namespace}/deployments/{name}': 'readAppsV1NamespacedDeployment get',
        'PUT /apis/apps/v1/namespaces/{namespace}/deployments/{name}': 'replaceAppsV1NamespacedDeployment put',
        'PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}': 'patchAppsV1NamespacedDeployment patch',
        'DELETE /apis/apps/v1/namespaces/{namespace}/deployments/{name}': 'deleteAppsV1NamespacedDeployment delete',
        'GET /apis/apps/v1/deployments': 'listAppsV1DeploymentForAllNamespaces list',
        'GET /apis/apps/v1/watch/namespaces/{namespace}/deployments': 'watchAppsV1NamespacedDeploymentList watchlist',
        'GET /apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}': 'watchAppsV1NamespacedDeployment watch',
        'GET /apis/apps/v1/watch/deployments': 'watchAppsV1DeploymentListForAllNamespaces watchlist',
        'GET /apis/apps/v1/namespaces/{namespace}/deployments/{name}/status': 'readAppsV1NamespacedDeploymentStatus get',
        'PUT /apis/apps/v1/namespaces/{namespace}/deployments/{name}/status': 'replaceAppsV1NamespacedDeploymentStatus put',
        'PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}/status': 'patchAppsV1NamespacedDeploymentStatus patch',
      },
    },
    {
      name: 'cluster-scoped kind limited to get and list',
      def: defineResource({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', scope: 'Cluster', verbs: ['get', 'list'] }),
      want: {
        'GET /api/v1/nodes': 'listCoreV1Node list',
        'GET /api/v1/nodes/{name}': 'readCoreV1Node get',
      },
    },
    {
      name: 'virtual create-only kind',
      def: defineResource({
        group: 'authentication.k8s.io', version: 'v1', kind: 'SelfSubjectReview', plural: 'selfsubjectreviews', scope: 'Cluster',
        virtualCreate: (o) => o,
      }),
      want: { 'POST /apis/authentication.k8s.io/v1/selfsubjectreviews': 'createAuthenticationV1SelfSubjectReview post' },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(operationIds(c.def)).toEqual(c.want);
    });
  }

  test('delete answers with the object only for kinds that return it', () => {
    const base = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', scope: 'Namespaced' } as const;
    const ref = (def: ResourceDefinition) =>
      resourcePaths(def, schemas('io.k8s.api.core.v1.Pod'))['/api/v1/namespaces/{namespace}/pods/{name}']!.delete!.responses['200']!.schema;
    expect(ref(defineResource({ ...base, strategy: { returnDeletedObject: true } }))).toEqual({ $ref: '#/definitions/io.k8s.api.core.v1.Pod' });
    expect(ref(defineResource(base))).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status' });
  });
});
