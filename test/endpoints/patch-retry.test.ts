// The patch handler's conflict loop, against a scripted store: a conflict caused by
// a concurrent writer re-applies the patch to the newer object; a conflict from a
// resourceVersion the patch itself set is the answer.
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, expect, test } from 'vitest';
import { defaultCodecs } from '../../src/codecs/registry.js';
import { patchHandler } from '../../src/endpoints/handlers/patch.js';
import type { HandlerScope } from '../../src/endpoints/handlers/scope.js';
import { resolveRequestInfo } from '../../src/endpoints/request-info.js';
import { conflict, isStatusError } from '../../src/errors/status-error.js';
import type { ResourceStore, UpdateOptions } from '../../src/registry/store/types.js';
import type { KubeObject } from '../../src/schema/object.js';
import { exampleCheckSchema, widgets } from '../support/example-group.js';

const URL = '/apis/example.test/v1/namespaces/default/widgets/w';
const widget = (rv: string, size: number): KubeObject => ({ apiVersion: 'example.test/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default', resourceVersion: rv }, spec: { size } });

/** Serves the stored objects in turn; update conflicts while `conflicts` > 0 (someone else wrote). */
function scriptedStore(opts: { versions: KubeObject[]; conflicts: number }) {
  const calls = { gets: 0, updates: [] as KubeObject[] };
  let conflicts = opts.conflicts;
  const store = {
    definition: widgets,
    get: async () => opts.versions[Math.min(calls.gets++, opts.versions.length - 1)]!,
    update: async (obj: KubeObject, _o: UpdateOptions) => {
      calls.updates.push(obj);
      const latest = opts.versions[Math.min(calls.gets - 1, opts.versions.length - 1)]!;
      if (conflicts > 0 || obj.metadata.resourceVersion !== latest.metadata.resourceVersion) {
        conflicts--;
        throw conflict({ group: 'example.test', resource: 'widgets' }, 'w');
      }
      return { object: { ...obj, metadata: { ...obj.metadata, resourceVersion: 'new' } }, created: false, warnings: [] };
    },
  } as unknown as ResourceStore;
  return { store, calls };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(store: ResourceStore): Promise<FastifyInstance> {
  const a = fastify();
  a.removeAllContentTypeParsers();
  a.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  a.addHook('onRequest', async (request) => {
    request.kapi = { info: resolveRequestInfo(request.method, request.url), user: undefined, auditId: 'test', warnings: [] } as unknown as typeof request.kapi;
  });
  a.setErrorHandler((err, _request, reply) => (isStatusError(err) ? reply.code(err.code).send(err.toStatus()) : reply.code(500).send(String(err))));
  a.patch('/apis/*', async (request, reply) => {
    const scope: HandlerScope = { definition: widgets, store, codecs: defaultCodecs, checkSchema: exampleCheckSchema, info: request.kapi.info, query: new URLSearchParams(request.url.split('?')[1] ?? ''), namespace: 'default', minRequestTimeoutSeconds: 1800 };
    return patchHandler(request, reply, scope);
  });
  await a.ready();
  return a;
}

const cases: { name: string; conflicts: number; body: object; want: { code: number; updates: number; size?: number } }[] = [
  { name: 'a concurrent write is retried against the newer object', conflicts: 0, body: { spec: { size: 5 } }, want: { code: 200, updates: 2, size: 5 } },
  { name: 'a pinned resourceVersion that went stale is not retried', conflicts: 0, body: { metadata: { resourceVersion: '1' }, spec: { size: 5 } }, want: { code: 409, updates: 2 } },
  { name: 'endless conflicts give up with 409', conflicts: 1000, body: { spec: { size: 5 } }, want: { code: 409, updates: 10 } },
];
for (const c of cases) {
  test(c.name, async () => {
    // The first read sees rv 1; by the time of the write rv 2 exists (first update conflicts on rv).
    const { store, calls } = scriptedStore({ versions: [widget('1', 1), widget('2', 2), widget('2', 2)], conflicts: c.conflicts });
    let first = true;
    const racing = {
      ...store,
      definition: widgets,
      get: store.get,
      update: async (obj: KubeObject, o: UpdateOptions) => {
        // The first attempt always races with a writer that moved the object to rv 2.
        if (first) {
          first = false;
          calls.updates.push(obj);
          throw conflict({ group: 'example.test', resource: 'widgets' }, 'w');
        }
        return store.update(obj, o);
      },
    } as unknown as ResourceStore;
    app = await serve(racing);
    const res = await app.inject({ method: 'PATCH', url: URL, headers: { 'content-type': 'application/merge-patch+json' }, payload: JSON.stringify(c.body) });
    expect(res.statusCode).toBe(c.want.code);
    expect(calls.updates.length).toBe(c.want.updates);
    if (c.want.size !== undefined) {
      expect(res.json().spec.size).toBe(c.want.size);
      // The retry patched the object it re-read (rv 2), not the first one.
      expect(calls.updates.at(-1)!.metadata.resourceVersion).toBe('2');
    }
  });
}
