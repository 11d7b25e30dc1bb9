import { createHash } from 'node:crypto';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { gnosticV2 } from '../../../src/endpoints/openapi/gnostic.js';
import type { OpenApi } from '../../../src/endpoints/openapi/openapi.js';
import { appFor, BUILT_AT, openApiFor } from './support.js';

const PB_AT = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const PB_DOT = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

interface NamedAny { name: string; value: { yaml: string } }
type Decoded = Record<string, any>;

let openapi: OpenApi;
let app: FastifyInstance;
beforeAll(async () => {
  openapi = openApiFor();
  app = await appFor(openapi);
});
afterAll(() => app.close());

function ext(list: NamedAny[] | undefined, name: string): unknown {
  const found = (list ?? []).find((e) => e.name === name);
  return found === undefined ? undefined : yaml.load(found.value.yaml);
}

describe('/openapi/v2 negotiation', () => {
  const cases: { name: string; accept: string | undefined; wantStatus: number; wantType: string }[] = [
    { name: 'no Accept is JSON', accept: undefined, wantStatus: 200, wantType: 'application/json' },
    { name: 'application/json', accept: 'application/json', wantStatus: 200, wantType: 'application/json' },
    { name: '*/* is JSON', accept: '*/*', wantStatus: 200, wantType: 'application/json' },
    { name: 'kubectl 1.27 protobuf (@ spelling) answers with the dot spelling', accept: PB_AT, wantStatus: 200, wantType: PB_DOT },
    { name: 'dot spelling is accepted too', accept: PB_DOT, wantStatus: 200, wantType: PB_DOT },
    { name: 'q-values pick protobuf over JSON', accept: `application/json;q=0.5, ${PB_AT}`, wantStatus: 200, wantType: PB_DOT },
    { name: 'other types are 406', accept: 'text/html', wantStatus: 406, wantType: '' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await app.inject({ method: 'GET', url: '/openapi/v2', headers: c.accept === undefined ? {} : { accept: c.accept } });
      expect(res.statusCode).toBe(c.wantStatus);
      expect(res.headers['content-type']).not.toContain('@');
      if (c.wantStatus === 200) {
        expect(res.headers['content-type']).toBe(c.wantType);
        expect(res.headers.vary).toBe('Accept');
        expect(res.headers['last-modified']).toBe(BUILT_AT.toUTCString());
      }
    });
  }

  test('406 is a NotAcceptable Status', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi/v2', headers: { accept: 'application/xml' } });
    expect(res.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotAcceptable', code: 406 });
  });

  test('ETag is the quoted uppercase SHA-512 of the JSON; If-None-Match gives 304 for both formats', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi/v2' });
    const want = `"${createHash('sha512').update(res.rawPayload).digest('hex').toUpperCase()}"`;
    expect(res.headers.etag).toBe(want);
    for (const accept of ['application/json', PB_AT]) {
      const again = await app.inject({ method: 'GET', url: '/openapi/v2', headers: { accept, 'if-none-match': want } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
    const stale = await app.inject({ method: 'GET', url: '/openapi/v2', headers: { 'if-none-match': '"0A"' } });
    expect(stale.statusCode).toBe(200);
  });
});

describe('/openapi/v2 content', () => {
  test('JSON covers exactly the served resources', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi/v2' })).json();
    expect(doc.swagger).toBe('2.0');
    expect(doc.info.title).toBe('Kubernetes');
    expect(doc.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch.operationId).toBe('patchCoreV1NamespacedPod');
    expect(doc.paths['/apis/rbac.authorization.k8s.io/v1/clusterroles/{name}'].get.responses['200'].schema.$ref).toBe(
      '#/definitions/io.k8s.api.rbac.v1.ClusterRole',
    );
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments']).toBeUndefined();
    expect(doc.definitions['io.k8s.api.apps.v1.Deployment']).toBeUndefined();
    for (const name of ['Status', 'DeleteOptions', 'ListMeta', 'WatchEvent', 'APIResourceList', 'Patch']) {
      expect(doc.definitions[`io.k8s.apimachinery.pkg.apis.meta.v1.${name}`], name).toBeDefined();
    }
    // Only served group versions in the shared meta types' GVK lists.
    expect(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']['x-kubernetes-group-version-kind']).toEqual([
      { group: '', kind: 'DeleteOptions', version: 'v1' },
      { group: 'rbac.authorization.k8s.io', kind: 'DeleteOptions', version: 'v1' },
    ]);
  });

  test('protobuf decodes to the same paths, definitions and YAML vendor extensions', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi/v2', headers: { accept: PB_AT } });
    const Document = gnosticV2.lookupType('openapi.v2.Document');
    const doc = Document.toObject(Document.decode(res.rawPayload), { defaults: false }) as Decoded;
    expect(doc.swagger).toBe('2.0');
    expect(doc.info).toEqual({ title: 'Kubernetes', version: openapi.current().swagger.info.version });
    expect(doc.paths.path.map((p: Decoded) => p.name)).toEqual(Object.keys(openapi.current().swagger.paths));
    expect(doc.definitions.additional_properties.map((d: Decoded) => d.name)).toEqual(Object.keys(openapi.current().swagger.definitions));

    const podItem = doc.paths.path.find((p: Decoded) => p.name === '/api/v1/namespaces/{namespace}/pods/{name}').value;
    expect(podItem.patch.operation_id).toBe('patchCoreV1NamespacedPod');
    expect(ext(podItem.patch.vendor_extension, 'x-kubernetes-group-version-kind')).toEqual({ group: '', kind: 'Pod', version: 'v1' });
    expect(ext(podItem.patch.vendor_extension, 'x-kubernetes-action')).toBe('patch');
    const query = podItem.patch.parameters
      .map((p: Decoded) => p.parameter?.non_body_parameter?.query_parameter_sub_schema?.name)
      .filter((n: unknown) => n !== undefined);
    expect(query).toContain('fieldValidation');
    expect(podItem.patch.consumes).toContain('application/strategic-merge-patch+json');

    const pod = doc.definitions.additional_properties.find((d: Decoded) => d.name === 'io.k8s.api.core.v1.Pod').value;
    expect(ext(pod.vendor_extension, 'x-kubernetes-group-version-kind')).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(pod.properties.additional_properties.map((p: Decoded) => p.name)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    const spec = doc.definitions.additional_properties.find((d: Decoded) => d.name === 'io.k8s.api.core.v1.PodSpec').value;
    const containers = spec.properties.additional_properties.find((p: Decoded) => p.name === 'containers').value;
    expect(containers.type.value).toEqual(['array']);
    expect(containers.items.schema[0]._ref).toBe('#/definitions/io.k8s.api.core.v1.Container');
    expect(ext(containers.vendor_extension, 'x-kubernetes-patch-merge-key')).toBe('name');
    expect(ext(containers.vendor_extension, 'x-kubernetes-patch-strategy')).toBe('merge');
    const labels = doc.definitions.additional_properties
      .find((d: Decoded) => d.name === 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')
      .value.properties.additional_properties.find((p: Decoded) => p.name === 'labels').value;
    expect(labels.additional_properties.schema.type.value).toEqual(['string']);
  });
});
