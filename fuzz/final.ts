// The end-of-run checks: the server still answers (/readyz 200), and every stored
// object of every served kind passes validation again. Each object found through
// discovery (resources with list and update) is PUT back unchanged with
// ?dryRun=All&fieldValidation=Strict: an object the server itself now refuses,
// or whose metadata has the wrong JSON types, got stored when it should have
// been refused, and the input that last wrote it is named.
import type { Client } from './client.js';
import type { FuzzInput } from './input.js';
import { bodyText, metadataTypeErrors, normalize, parseJson, type Violation } from './invariants.js';
import { isMap } from './kinds.js';

export interface FinalResult {
  readonly checkedObjects: number;
  readonly violations: { violation: Violation; input: FuzzInput; writer?: FuzzInput }[];
}

interface ServedResource {
  readonly groupVersion: string;
  readonly name: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

const TIMEOUT_MS = 30_000;

function probe(method: string, path: string, body?: unknown): FuzzInput {
  return {
    index: -1, origin: 'final-check', method, path, transport: 'h2',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
  };
}

async function getJson(client: Client, path: string): Promise<unknown> {
  const out = await client.send(probe('GET', path), TIMEOUT_MS);
  if (out.kind !== 'answer' || out.status !== 200) throw new Error(`GET ${path}: ${out.kind === 'answer' ? out.status : out.kind}`);
  return parseJson(out.body);
}

async function servedResources(client: Client): Promise<ServedResource[]> {
  const groupVersions = ['v1'];
  const groups = await getJson(client, '/apis');
  if (isMap(groups) && Array.isArray(groups.groups)) {
    for (const g of groups.groups) if (isMap(g) && Array.isArray(g.versions)) for (const v of g.versions) if (isMap(v) && typeof v.groupVersion === 'string') groupVersions.push(v.groupVersion);
  }
  const out: ServedResource[] = [];
  for (const gv of groupVersions) {
    const list = await getJson(client, gv === 'v1' ? '/api/v1' : `/apis/${gv}`);
    if (!isMap(list) || !Array.isArray(list.resources)) continue;
    for (const r of list.resources) {
      if (!isMap(r) || typeof r.name !== 'string' || r.name.includes('/') || !Array.isArray(r.verbs)) continue;
      if (r.verbs.includes('list') && r.verbs.includes('update')) out.push({ groupVersion: gv, name: r.name, kind: String(r.kind), namespaced: r.namespaced === true });
    }
  }
  return out;
}

function itemPath(r: ServedResource, ns: unknown, name: string): string {
  const base = r.groupVersion === 'v1' ? '/api/v1' : `/apis/${r.groupVersion}`;
  const nsPart = r.namespaced && typeof ns === 'string' ? `/namespaces/${encodeURIComponent(ns)}` : '';
  return `${base}${nsPart}/${r.name}/${encodeURIComponent(name)}`;
}

export function objectKey(kind: unknown, ns: unknown, name: unknown): string {
  return `${String(kind)}/${typeof ns === 'string' ? ns : ''}/${String(name)}`;
}

export async function finalChecks(client: Client, writers: ReadonlyMap<string, FuzzInput>): Promise<FinalResult> {
  const violations: FinalResult['violations'] = [];
  const ready = await client.send(probe('GET', '/readyz'), TIMEOUT_MS);
  if (ready.kind !== 'answer' || ready.status !== 200) {
    violations.push({ violation: { signature: 'server not ready at the end: GET /readyz', detail: ready.kind === 'answer' ? bodyText(ready) : ready.kind }, input: probe('GET', '/readyz') });
    return { checkedObjects: 0, violations };
  }
  let checked = 0;
  for (const r of await servedResources(client)) {
    const base = r.groupVersion === 'v1' ? '/api/v1' : `/apis/${r.groupVersion}`;
    const list = await getJson(client, `${base}/${r.name}`);
    const items = isMap(list) && Array.isArray(list.items) ? list.items : [];
    const work = items.filter(isMap).map(async (item) => {
      checked++;
      const meta = isMap(item.metadata) ? item.metadata : {};
      const writer = writers.get(objectKey(r.kind, meta.namespace, meta.name));
      const obj = { ...item, apiVersion: r.groupVersion, kind: r.kind };
      const typeErrors = metadataTypeErrors(obj);
      let path: string;
      try {
        path = itemPath(r, meta.namespace, String(meta.name));
      } catch (err) {
        // A name no URL can carry (a lone surrogate): kube's decoder never stores one.
        violations.push({ violation: { signature: `stored ${r.kind} has a name no URL can carry`, detail: `${String(err)}\nobject: ${JSON.stringify(obj).slice(0, 4000)}` }, input: probe('GET', `${base}/${r.name}`, undefined), writer });
        return;
      }
      const put = probe('PUT', `${path}?dryRun=All&fieldValidation=Strict`, obj);
      if (typeErrors.length > 0) {
        violations.push({ violation: { signature: `stored ${r.kind} has wrongly typed metadata: ${typeErrors[0]!.replace(/\[\d+\]/g, '[i]')}`, detail: JSON.stringify(obj).slice(0, 4000) }, input: put, writer });
        return;
      }
      const out = await client.send(put, TIMEOUT_MS);
      if (out.kind === 'answer' && out.status === 200) return;
      const answer = out.kind === 'answer' ? parseJson(out.body) : undefined;
      const why = isMap(answer) ? `${String(answer.reason)}: ${normalize(String(answer.message).split('\n')[0]!)}` : out.kind;
      violations.push({
        violation: { signature: `stored ${r.kind} refused on re-validation: ${out.kind === 'answer' ? out.status : out.kind} ${why}`, detail: `${out.kind === 'answer' ? bodyText(out) : out.kind}\nobject: ${JSON.stringify(obj).slice(0, 4000)}` },
        input: put, writer,
      });
    });
    await Promise.all(work);
  }
  return { checkedObjects: checked, violations };
}
