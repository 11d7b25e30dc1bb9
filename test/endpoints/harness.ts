// An in-process server for endpoint tests: the example.test group over memory
// storage, served from a catalog the test may change (add or remove definitions
// while the app runs), with discovery and OpenAPI over that same catalog; a fixed
// admin user in place of the real filter chain, and a test-only error handler that
// renders StatusErrors the way the real one does (via encodeStatusFor). Time and
// uids are deterministic.
import fastify, { type FastifyInstance } from 'fastify';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { registerDiscoveryRoutes } from '../../src/endpoints/discovery/routes.js';
import { installResources } from '../../src/endpoints/installer.js';
import { encodeStatusFor } from '../../src/endpoints/negotiation.js';
import { createOpenApi, registerOpenApiRoutes } from '../../src/endpoints/openapi/index.js';
import { resolveRequestInfo } from '../../src/endpoints/request-info.js';
import { StatusError } from '../../src/errors/status-error.js';
import { toStatusError } from '../../src/server/error-handler.js';
import type { UserInfo } from '../../src/schema/user.js';
import { createCatalog } from '../../src/registry/catalog.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import type { Storage } from '../../src/storage/storage.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { exampleResources, testNamespaces } from '../support/example-group.js';

export const ADMIN: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };
export const NOW = new Date('2026-01-02T03:04:05.678Z');

export interface Harness {
  readonly app: FastifyInstance;
  /** registry.catalog is what the app serves; add and remove definitions to change it while it runs. */
  readonly registry: Registry;
  readonly storage: Storage;
  close(): Promise<void>;
}

function quoteWarning(text: string): string {
  return `299 - "${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export async function createHarness(opts: { namespaces?: readonly string[]; responseCompression?: boolean } = {}): Promise<Harness> {
  const storage = createObjectStore({ kv: openMemoryKv() });
  let uid = 0;
  const catalog = createCatalog(exampleResources);
  const registry = createRegistry({
    storage,
    catalog,
    admission: createAdmissionChain(),
    clock: () => NOW,
    uid: () => `uid-${++uid}`,
  });
  for (const name of opts.namespaces ?? ['default']) {
    await registry.store(testNamespaces).create({ metadata: { name } });
  }
  const app = fastify();
  app.addHook('onRequest', async (request) => {
    request.kapi = { info: resolveRequestInfo(request.method, request.url), user: ADMIN, auditId: 'test', warnings: [] };
  });
  app.addHook('onSend', async (request, reply) => {
    for (const w of request.kapi.warnings) reply.header('Warning', quoteWarning(w));
  });
  app.setErrorHandler((err, request, reply) => {
    // As the real handler: Fastify's own refusals (a Content-Type it cannot parse) are the client's 4xx.
    const { status } = toStatusError(err);
    const encoded = encodeStatusFor(request, status.toStatus());
    for (const [name, value] of Object.entries(status.headers)) reply.header(name, value);
    return reply.code(status.code).header('Content-Type', encoded.contentType).send(encoded.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const status = new StatusError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} });
    const encoded = encodeStatusFor(request, status.toStatus());
    return reply.code(404).header('Content-Type', encoded.contentType).send(encoded.body);
  });
  registerDiscoveryRoutes(app, { catalog, serverAddress: '127.0.0.1:6443' });
  registerOpenApiRoutes(app, createOpenApi({ catalog, now: () => NOW }));
  installResources(app, { registry, ...(opts.responseCompression === undefined ? {} : { responseCompression: opts.responseCompression }) });
  await app.ready();
  return { app, registry, storage, close: async () => { await app.close(); await storage.close(); } };
}
