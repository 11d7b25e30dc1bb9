// What the restart tests write, read back and compare: objects of several kinds
// written over HTTPS, a snapshot of everything stored (read over HTTP, as any
// client sees it), and the service allocation records read straight from the
// storage backend, to show no value leaked or is held twice.
import { expect } from 'vitest';
import { IP_PREFIX, NODE_PORT_PREFIX } from '../../../src/apis/core/v1/service-allocation.js';
import type { KV } from '../../../src/storage/kv.js';
import { createObjectStore } from '../../../src/storage/object-store.js';
import { adminCredentials, call, type Answer, type Credentials } from './http.js';
import { eventually, type RunningKapi } from './server.js';

export type Target = Pick<RunningKapi, 'port'> & { readonly kubeconfig: string };

interface Item {
  metadata: { name: string; namespace?: string; uid: string; resourceVersion: string };
  [key: string]: unknown;
}

function creds(server: Target): Credentials {
  return adminCredentials(server.kubeconfig);
}

async function send(server: Target, opts: { method?: string; path: string; body?: unknown }): Promise<Answer> {
  return call(server as RunningKapi, creds(server), {
    method: opts.method ?? 'GET',
    path: opts.path,
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body), headers: { 'content-type': 'application/json' } }),
  });
}

/** POST that must answer 201; answers the stored object. */
export async function create(server: Target, path: string, body: unknown): Promise<Item> {
  const res = await send(server, { method: 'POST', path, body });
  expect(res.status, `POST ${path}: ${res.body.toString()}`).toBe(201);
  return res.json() as Item;
}

/** GET that must answer 200. */
export async function get(server: Target, path: string): Promise<any> {
  const res = await send(server, { path });
  expect(res.status, `GET ${path}: ${res.body.toString()}`).toBe(200);
  return res.json();
}

/**
 * One object of each kind the restart matrix covers, in namespace `ns`: the
 * namespace, a config map, a secret, a ClusterIP service, a NodePort service
 * asking for a named IP, a service account and a pod.
 */
export async function writeFixtures(server: Target, ns: string): Promise<void> {
  await create(server, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const at = `/api/v1/namespaces/${ns}`;
  await create(server, `${at}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'restart' } });
  await create(server, `${at}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' }, stringData: { password: 's3cret' } });
  await create(server, `${at}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
  await create(server, `${at}/services`, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'edge' },
    spec: { type: 'NodePort', selector: { app: 'edge' }, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] },
  });
  await create(server, `${at}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } });
  await create(server, `${at}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'runner', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
  // The namespace's default service account and kube-root-ca.crt come from a controller: wait for
  // them, so a snapshot taken now does not race it.
  await eventually(`defaults of namespace ${ns}`, async () => {
    const sa = await send(server, { path: `${at}/serviceaccounts/default` });
    const cm = await send(server, { path: `${at}/configmaps/kube-root-ca.crt` });
    return sa.status === 200 && cm.status === 200;
  });
}

const KINDS = ['namespaces', 'configmaps', 'secrets', 'services', 'endpoints', 'serviceaccounts', 'pods'] as const;

/** Everything of the covered kinds, keyed `<kind>/<namespace>/<name>`, whole objects. */
export async function snapshot(server: Target): Promise<Record<string, Item>> {
  const out: Record<string, Item> = {};
  for (const kind of KINDS) {
    const list = await get(server, `/api/v1/${kind}`);
    for (const item of list.items as Item[]) out[`${kind}/${item.metadata.namespace ?? ''}/${item.metadata.name}`] = item;
  }
  return out;
}

/** The service allocation records as stored: value -> uid of the service holding it. */
export async function allocationRecords(kv: KV): Promise<{ ips: Record<string, string>; nodePorts: Record<string, string> }> {
  const storage = createObjectStore({ kv });
  try {
    const read = async (prefix: string) => {
      const out: Record<string, string> = {};
      for (const item of (await storage.list(prefix)).items) out[item.metadata.name ?? ''] = item.metadata.uid ?? '';
      return out;
    };
    return { ips: await read(IP_PREFIX), nodePorts: await read(NODE_PORT_PREFIX) };
  } finally {
    await storage.close();
  }
}

/** What the services in a snapshot hold: exactly the records that must exist. */
export function heldValues(state: Record<string, Item>): { ips: Record<string, string>; nodePorts: Record<string, string> } {
  const ips: Record<string, string> = {};
  const nodePorts: Record<string, string> = {};
  for (const [key, item] of Object.entries(state)) {
    if (!key.startsWith('services/')) continue;
    const spec = item.spec as { clusterIP?: string; ports?: Array<{ nodePort?: number }> };
    if (spec.clusterIP !== undefined && spec.clusterIP !== 'None') ips[spec.clusterIP] = item.metadata.uid;
    for (const p of spec.ports ?? []) if (p.nodePort !== undefined) nodePorts[String(p.nodePort)] = item.metadata.uid;
  }
  return { ips, nodePorts };
}

/** After a restart: a new config map and a new service can be written, and the service gets a value nobody holds. */
export async function checkWritesWork(server: Target, ns: string, suffix: string): Promise<void> {
  const before = heldValues(await snapshot(server));
  await create(server, `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `after-${suffix}` }, data: { ok: 'yes' } });
  const svc = await create(server, `/api/v1/namespaces/${ns}/services`, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `after-${suffix}` },
    spec: { type: 'NodePort', ports: [{ port: 8080 }] },
  });
  const spec = svc.spec as { clusterIP: string; ports: Array<{ nodePort: number }> };
  expect(Object.keys(before.ips)).not.toContain(spec.clusterIP);
  expect(Object.keys(before.nodePorts)).not.toContain(String(spec.ports[0]!.nodePort));
}

/** default/kubernetes as a start must leave it: first IP, 443 to the secure port, endpoints on the port. */
export async function checkKubernetesService(server: Target): Promise<void> {
  const svc = await get(server, '/api/v1/namespaces/default/services/kubernetes');
  expect(svc.spec).toMatchObject({ type: 'ClusterIP', clusterIP: '10.0.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: server.port }] });
  const eps = await get(server, '/api/v1/namespaces/default/endpoints/kubernetes');
  expect(eps.subsets).toHaveLength(1);
  expect(eps.subsets[0].ports).toEqual([{ name: 'https', port: server.port, protocol: 'TCP' }]);
}

/** A seeded random source, so a failing run's kill points can be replayed (KAPI_RESTART_SEED). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function restartSeed(): number {
  const given = process.env['KAPI_RESTART_SEED'];
  return given === undefined ? Date.now() % 1_000_000 : Number(given);
}

/**
 * Creates config maps `<prefix>-<n>` one after another until the server stops
 * answering; answers the names it acknowledged (201), which must survive a crash.
 */
export async function writeUntilGone(server: Target, ns: string, prefix: string): Promise<string[]> {
  const acked: string[] = [];
  for (let i = 0; ; i++) {
    const name = `${prefix}-${i}`;
    let res: Answer;
    try {
      res = await send(server, { method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } } });
    } catch {
      // Connection refused or reset: the server is gone, which is what this waits for.
      return acked;
    }
    if (res.status !== 201) throw new Error(`POST configmap ${name}: ${res.status} ${res.body.toString()}`);
    acked.push(name);
  }
}
