// A PATCH that loses a race: the registry's write re-applies the patch to the
// newer object inside storage's guaranteed update (no loop in the endpoint); a
// conflict with a resourceVersion the patch itself set is the answer. The race is
// real: a storage wrapper lets another writer win between the read and the
// compare-and-swap of the patch's first attempt.
import { DEFAULT_FEATURE_GATES } from '../../src/features/feature-gates.js';
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { defaultCodecs } from '../../src/codecs/registry.js';
import { patchHandler } from '../../src/endpoints/handlers/patch.js';
import type { HandlerScope } from '../../src/endpoints/handlers/scope.js';
import { resolveRequestInfo } from '../../src/endpoints/request-info.js';
import { isStatusError } from '../../src/errors/status-error.js';
import { objectKey } from '../../src/registry/keys.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import { cloneJson, type KubeObject } from '../../src/schema/object.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import type { Storage } from '../../src/storage/storage.js';
import { exampleCheckSchema, exampleResources, testNamespaces, widgets } from '../support/example-group.js';

const URL = '/apis/example.test/v1/namespaces/default/widgets/w';

interface Race {
  /** Writes another writer makes, one per attempt of the patch, before the patch's compare-and-swap. */
  pending: number;
  /** The patch's attempts (calls of its tryUpdate). */
  attempts: number;
}

/** Storage where another writer bumps spec.size between a write's read and its compare-and-swap. */
function racingStorage(inner: Storage, race: Race): Storage {
  return {
    create: (key, obj) => inner.create(key, obj),
    get: (key, opts) => inner.get(key, opts),
    list: (prefix, opts) => inner.list(prefix, opts),
    delete: (key, opts) => inner.delete(key, opts),
    watch: (prefix, opts) => inner.watch(prefix, opts),
    count: (prefix) => inner.count(prefix),
    currentResourceVersion: () => inner.currentResourceVersion(),
    ping: () => inner.ping(),
    close: () => inner.close(),
    guaranteedUpdate: (key, opts) =>
      inner.guaranteedUpdate(key, {
        ...opts,
        tryUpdate: async (ctx) => {
          race.attempts++;
          const next = await opts.tryUpdate(ctx);
          if (race.pending > 0) {
            race.pending--;
            await inner.guaranteedUpdate(key, {
              tryUpdate: ({ current }) => {
                const moved = cloneJson(current!);
                const spec = moved.spec as { size: number };
                spec.size += 1;
                return moved;
              },
            });
          }
          return next;
        },
      }),
  };
}

let inner: Storage;
let registry: Registry;
let race: Race;
let app: FastifyInstance;
let stored: KubeObject;

beforeEach(async () => {
  inner = createObjectStore({ kv: openMemoryKv() });
  race = { pending: 0, attempts: 0 };
  registry = createRegistry({ storage: racingStorage(inner, race), resources: exampleResources, admission: createAdmissionChain(), clock: () => new Date(0) });
  await registry.store(testNamespaces).create({ metadata: { name: 'default' } });
  stored = (await registry.store(widgets).create({ metadata: { name: 'w' }, spec: { size: 1 } }, { namespace: 'default' })).object;
  app = fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.addHook('onRequest', async (request) => {
    request.kapi = { info: resolveRequestInfo(request.method, request.url), user: undefined, auditId: 'test', warnings: [] } as unknown as typeof request.kapi;
  });
  app.setErrorHandler((err, _request, reply) => (isStatusError(err) ? reply.code(err.code).send(err.toStatus()) : reply.code(500).send(String(err))));
  app.patch('/apis/*', async (request, reply) => {
    const scope: HandlerScope = {
      definition: widgets,
      store: registry.store(widgets),
      codecs: defaultCodecs,
      checkSchema: exampleCheckSchema,
      info: request.kapi.info,
      query: new URLSearchParams(request.url.split('?')[1] ?? ''),
      namespace: 'default',
      minRequestTimeoutSeconds: 1800,
      featureGates: DEFAULT_FEATURE_GATES,
      responseCompression: true,
    };
    return patchHandler(request, reply, scope);
  });
  await app.ready();
});

afterEach(async () => {
  await app.close();
  await inner.close();
});

function patch(body: object) {
  return app.inject({ method: 'PATCH', url: URL, headers: { 'content-type': 'application/merge-patch+json' }, payload: JSON.stringify(body) });
}

async function current(): Promise<KubeObject> {
  return inner.get(objectKey(widgets, { namespace: 'default', name: 'w' }));
}

test('a patch that loses a race is re-applied to the newer object, keeping the other writer\'s change', async () => {
  race.pending = 1;
  const res = await patch({ metadata: { labels: { team: 'a' } } });
  expect(res.statusCode).toBe(200);
  expect(race.attempts).toBe(2);
  // The other writer moved size to 2; the patch landed on top of it.
  expect(res.json()).toMatchObject({ metadata: { labels: { team: 'a' } }, spec: { size: 2 } });
  expect(await current()).toMatchObject({ metadata: { labels: { team: 'a' } }, spec: { size: 2 } });
});

test('several lost races are all retried', async () => {
  race.pending = 3;
  const res = await patch({ spec: { size: 9 } });
  expect(res.statusCode).toBe(200);
  expect(race.attempts).toBe(4);
  expect((await current()).spec).toEqual({ size: 9 });
});

test('a resourceVersion the patch pins is a precondition: after a lost race it is stale, and 409 is the answer', async () => {
  race.pending = 1;
  const res = await patch({ metadata: { resourceVersion: stored.metadata.resourceVersion }, spec: { size: 5 } });
  expect(res.statusCode).toBe(409);
  expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
  expect(race.attempts).toBe(2);
  // The other writer's change stands; the patch wrote nothing.
  expect((await current()).spec).toEqual({ size: 2 });
});

test('a stale pinned resourceVersion is refused at once, without a write', async () => {
  const res = await patch({ metadata: { resourceVersion: '1' }, spec: { size: 5 } });
  expect(res.statusCode).toBe(409);
  expect(race.attempts).toBe(1);
  expect((await current()).metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
});
