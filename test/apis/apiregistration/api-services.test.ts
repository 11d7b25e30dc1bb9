// APIServices through the real store (kube-aggregator's rules, one row each) and
// over HTTP (the generic verbs and the NAME SERVICE AVAILABLE AGE table): the
// generic resource tester names objects freely, which an APIService's
// <version>.<group> name does not allow.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiServices } from '../../../src/apis/apiregistration/v1/index.js';
import type { KubeObject } from '../../../src/schema/object.js';
import type { Harness } from '../../endpoints/harness.js';
import { NOW } from '../../endpoints/harness.js';
import { createBuiltinHttpHarness, createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

/** A response body as an object to spread into the next request. */
const objectOf = (res: { json: () => unknown }): Record<string, unknown> => res.json() as Record<string, unknown>;
const specOf = (res: { json: () => unknown }): Record<string, unknown> => objectOf(res).spec as Record<string, unknown>;

let h: StoreHarness;
beforeAll(async () => {
  h = await createStoreHarness();
});
afterAll(() => h.close());

const service = { namespace: 'metrics', name: 'metrics-server' };
let n = 0;
/** Each object its own version, so rows do not collide on the name. */
function apiService(spec: Record<string, unknown>, name?: string): KubeObject {
  const full = { group: 'metrics.k8s.io', version: `v${++n}beta1`, groupPriorityMinimum: 100, versionPriority: 100, service, insecureSkipTLSVerify: true, ...spec };
  return { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: name ?? `${String(full.version)}.${String(full.group)}` }, spec: full };
}

describe('create', () => {
  test('service port defaults to 443; no status for a service-backed API', async () => {
    const out = await h.create(apiServices, apiService({}));
    expect(out.errors).toEqual([]);
    expect(out.stored?.spec).toMatchObject({ service: { ...service, port: 443 } });
    expect(out.stored?.status).toBeUndefined();
  });

  test('a local APIService is Available at once', async () => {
    const out = await h.create(apiServices, apiService({ group: 'local.example.com', service: undefined, insecureSkipTLSVerify: undefined }));
    expect(out.errors).toEqual([]);
    expect(out.stored?.status).toEqual({
      conditions: [{ type: 'Available', status: 'True', lastTransitionTime: `${NOW.toISOString().slice(0, 19)}Z`, reason: 'Local', message: 'Local APIServices are always available' }],
    });
  });

  const cases: { name: string; obj: KubeObject; want: string[] }[] = [
    { name: 'name not <version>.<group>', obj: apiService({ version: 'v1beta1' }, 'metrics'), want: ['metadata.name: Invalid value: "metrics": must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"'] },
    { name: 'empty group with a version other than v1', obj: apiService({ group: '', version: 'v1beta1' }, 'v1beta1.'), want: ['spec.group: Required value: only v1 may have an empty group and it better be legacy kube'] },
    { name: 'groupPriorityMinimum 0', obj: apiService({ groupPriorityMinimum: 0 }), want: ['spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000'] },
    { name: 'groupPriorityMinimum over 20000', obj: apiService({ groupPriorityMinimum: 20001 }), want: ['spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000'] },
    { name: 'versionPriority 0', obj: apiService({ versionPriority: 0 }), want: ['spec.versionPriority: Invalid value: 0: must be positive and less than 1000'] },
    { name: 'service without name and namespace', obj: apiService({ service: { port: 443 } }), want: ['spec.service.namespace: Required value', 'spec.service.name: Required value'] },
    { name: 'service port out of range', obj: apiService({ service: { ...service, port: 70000 } }), want: ['spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive'] },
    {
      name: 'insecureSkipTLSVerify with a caBundle',
      obj: apiService({ caBundle: Buffer.from('x').toString('base64') }),
      want: ['spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present'],
    },
    {
      name: 'local with a caBundle',
      obj: apiService({ service: undefined, insecureSkipTLSVerify: undefined, caBundle: Buffer.from('abc').toString('base64') }),
      want: ['spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const out = await h.create(apiServices, c.obj);
      expect(out.errors).toEqual(c.want);
      expect(out.stored).toBeUndefined();
    });
  }
});

describe('over HTTP', () => {
  let http: Harness;
  const url = '/apis/apiregistration.k8s.io/v1/apiservices';
  beforeAll(async () => {
    http = await createBuiltinHttpHarness();
  });
  afterAll(() => http.close());

  test('create, get, list as a table, update, status, dry run, delete', async () => {
    const created = await http.app.inject({ method: 'POST', url, payload: apiService({ version: 'v1beta1' }) as object });
    expect(created.statusCode).toBe(201);
    const name = 'v1beta1.metrics.k8s.io';
    expect((await http.app.inject({ method: 'GET', url: `${url}/${name}` })).json()).toEqual(created.json());
    const table = await http.app.inject({ method: 'GET', url, headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(table.json().columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Service', 'Available', 'Age']);
    expect(table.json().rows[0].cells.slice(0, 3)).toEqual([name, 'metrics/metrics-server', 'Unknown']);
    const updated = await http.app.inject({ method: 'PUT', url: `${url}/${name}`, payload: { ...objectOf(created), spec: { ...specOf(created), versionPriority: 5 } } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().spec.versionPriority).toBe(5);
    const condition = { type: 'Available', status: 'False', reason: 'ServiceNotFound', message: 'no service', lastTransitionTime: '2026-01-01T00:00:00Z' };
    const status = await http.app.inject({ method: 'PUT', url: `${url}/${name}/status`, payload: { ...objectOf(updated), status: { conditions: [condition] } } });
    expect(status.statusCode).toBe(200);
    const bad = await http.app.inject({ method: 'PUT', url: `${url}/${name}/status`, payload: { ...objectOf(status), status: { conditions: [{ ...condition, status: 'Maybe' }] } } });
    expect(bad.statusCode).toBe(422);
    const row = await http.app.inject({ method: 'GET', url: `${url}/${name}`, headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(row.json().rows[0].cells[2]).toBe('False (ServiceNotFound)');
    const dry = await http.app.inject({ method: 'POST', url: `${url}?dryRun=All`, payload: apiService({ version: 'v1' }) as object });
    expect(dry.statusCode).toBe(201);
    expect((await http.app.inject({ method: 'GET', url: `${url}/v1.metrics.k8s.io` })).statusCode).toBe(404);
    expect((await http.app.inject({ method: 'DELETE', url: `${url}/${name}` })).statusCode).toBe(200);
    expect((await http.app.inject({ method: 'GET', url: `${url}/${name}` })).statusCode).toBe(404);
  });
});
