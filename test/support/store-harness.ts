// Built-in kinds through the real registry (issue #9, item 7): the generic store
// over the memory backend, with the injected clock and uid source, so a kind's
// rules are tested in the order the store runs them (ObjectMeta, reset fields,
// prepare, validate, allocation, admission) and never in a copy of that order.
// Two doors onto the same kinds: StoreHarness (in-process writes that answer the
// stored object or the Invalid causes) and createBuiltinHttpHarness (the endpoint
// stack, for the generic resource tester).
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { builtinApis } from '../../src/apis/index.js';
import { namespaces } from '../../src/apis/core/v1/namespaces.js';
import type { TokenIssuer } from '../../src/apis/core/v1/service-account-token.js';
import { createServiceAllocator, parseIpRange, parsePortRange } from '../../src/apis/core/v1/service-allocation.js';
import { createAuthorizer } from '../../src/auth/authz/create.js';
import { createTokenKeys } from '../../src/auth/serviceaccount/tokens.js';
import { isStatusError } from '../../src/errors/status-error.js';
import type { ResourceDefinition } from '../../src/registry/define-resource.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import type { KubeObject } from '../../src/schema/object.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import type { Storage } from '../../src/storage/storage.js';
import { NOW, createHarness, type Harness } from '../endpoints/harness.js';

/** The ranges main.ts defaults to (--service-cluster-ip-range, --service-node-port-range). */
const CLUSTER_IP_RANGE = '10.0.0.0/24';
const NODE_PORT_RANGE = '30000-32767';

/** One signing key per test file: EC P-256, cheap to make, as a generated --service-account-key-file. */
let tokenIssuer: TokenIssuer | undefined;
function testTokenIssuer(): TokenIssuer {
  tokenIssuer ??= createTokenKeys({
    issuer: 'https://kubernetes.default.svc.cluster.local',
    signingKeyPem: generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  return tokenIssuer;
}

/**
 * Every built-in definition the server serves over `storage`, composed as main.ts
 * composes them (builtinApis with a token signer, the service ranges' allocator
 * and an authorizer). The one place that knows how: when the composition changes
 * (a catalog option, another dependency), only this function and
 * createBuiltinRegistry change.
 */
export function builtinKinds(storage: Storage): ResourceDefinition[] {
  return builtinApis({
    tokenIssuer: testTokenIssuer(),
    serviceAllocator: createServiceAllocator({
      storage,
      clusterIPRange: parseIpRange(CLUSTER_IP_RANGE),
      nodePortRange: parsePortRange(NODE_PORT_RANGE),
    }),
    authorizer: createAuthorizer({ modes: ['AlwaysAllow'] }).authorize,
  });
}

/**
 * The served kinds for enumerating them (names, scopes, verbs) when tests are
 * collected; their allocator is bound to a store nobody writes, so serve through
 * a harness, not these.
 */
export function listBuiltinKinds(): readonly ResourceDefinition[] {
  return builtinKinds(createObjectStore({ kv: openMemoryKv() }));
}

/** Whether a definition is stored (false: computed on create only, e.g. selfsubjectreviews). */
export function isStored(def: ResourceDefinition): boolean {
  return def.virtualCreate === undefined;
}

/** The registry main.ts builds, over the given storage: built-in kinds, default admission, injected clock and uids. */
function createBuiltinRegistry(storage: Storage): Registry {
  let uid = 0;
  return createRegistry({
    storage,
    resources: builtinKinds(storage),
    admission: createAdmissionChain(),
    clock: () => NOW,
    uid: () => `uid-${++uid}`,
  });
}

export interface HarnessOptions {
  /** Namespaces created before the test runs (NamespaceLifecycle refuses writes into absent ones). */
  readonly namespaces?: readonly string[];
}

const DEFAULT_NAMESPACES = ['default', 'ns'];

async function openBuiltinRegistry(opts: HarnessOptions): Promise<{ storage: Storage; registry: Registry }> {
  const storage = createObjectStore({ kv: openMemoryKv() });
  const registry = createBuiltinRegistry(storage);
  for (const name of opts.namespaces ?? DEFAULT_NAMESPACES) await registry.store(namespaces).create({ metadata: { name } });
  return { storage, registry };
}

/**
 * The metadata the store fills on every object it writes (uid and creation time
 * from the injected sources, the revision), as matchers for whole-object
 * expectations: a kind's rules are asserted exactly, the store's values by shape.
 */
export function systemMetadata(): Record<string, unknown> {
  return {
    uid: expect.stringMatching(/^uid-\d+$/),
    creationTimestamp: `${NOW.toISOString().slice(0, 19)}Z`,
    resourceVersion: expect.stringMatching(/^[1-9]\d*$/),
  };
}

/** One cause of an Invalid Status (apimachinery's StatusCause). */
export interface Cause {
  readonly field: string;
  readonly reason: string;
  readonly message: string;
}

export interface WriteOutcome {
  /** What the store answered; undefined when the write was refused as Invalid. */
  readonly object: KubeObject | undefined;
  /** The object read back through the store after the write; undefined when there is none. */
  readonly stored: KubeObject | undefined;
  /** The Invalid Status's causes; empty when the write succeeded. */
  readonly causes: readonly Cause[];
  /**
   * The causes as apimachinery's field.Error prints them (`spec.ports: Required
   * value`), the text the kinds' validators produce, so rows read like kube's messages.
   */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

export interface StoreHarness {
  readonly registry: Registry;
  readonly storage: Storage;
  /** POST: namespaced kinds are created in metadata.namespace (default `default`), as the URL would say. */
  create(def: ResourceDefinition, obj: KubeObject): Promise<WriteOutcome>;
  /**
   * PUT of the main resource to metadata.name. Without metadata.resourceVersion,
   * the stored one is filled in, as a client's read-modify-write sends it.
   */
  update(def: ResourceDefinition, obj: KubeObject): Promise<WriteOutcome>;
  /** PUT of the status subresource, filled in the same way. */
  updateStatus(def: ResourceDefinition, obj: KubeObject): Promise<WriteOutcome>;
  /** PUT of another declared subresource (pods/resize), filled in the same way. */
  updateSubresource(def: ResourceDefinition, subresource: string, obj: KubeObject): Promise<WriteOutcome>;
  /** The stored object, or undefined when there is none. */
  get(def: ResourceDefinition, at: { name: string; namespace?: string }): Promise<KubeObject | undefined>;
  close(): Promise<void>;
}

function scopeOf(def: ResourceDefinition, obj: KubeObject): { name: string; namespace: string | undefined } {
  return {
    name: obj.metadata.name ?? '',
    namespace: def.scope === 'Namespaced' ? (obj.metadata.namespace ?? 'default') : undefined,
  };
}

/** Invalid becomes causes; anything else (400, 409, 500) is not a kind rule's answer and fails the test. */
function causesOf(err: unknown): Cause[] {
  if (!isStatusError(err) || err.reason !== 'Invalid') throw err;
  return (err.details?.causes ?? []).map((c) => ({ field: c.field ?? '', reason: c.reason ?? '', message: c.message ?? '' }));
}

function printed(causes: readonly Cause[]): string[] {
  return causes.map((c) => (c.field === '' ? c.message : `${c.field}: ${c.message}`));
}

export async function createStoreHarness(opts: HarnessOptions = {}): Promise<StoreHarness> {
  const { storage, registry } = await openBuiltinRegistry(opts);

  async function get(def: ResourceDefinition, at: { name: string; namespace?: string }): Promise<KubeObject | undefined> {
    try {
      return await registry.store(def).get({ name: at.name, ...(at.namespace === undefined ? {} : { namespace: at.namespace }) });
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') return undefined;
      throw err;
    }
  }

  async function write(def: ResourceDefinition, obj: KubeObject, run: (scope: { name: string; namespace: string | undefined }) => Promise<{ object: KubeObject; warnings: readonly string[] }>): Promise<WriteOutcome> {
    const scope = scopeOf(def, obj);
    let object: KubeObject | undefined;
    let warnings: readonly string[] = [];
    let causes: Cause[] = [];
    try {
      ({ object, warnings } = await run(scope));
    } catch (err) {
      causes = causesOf(err);
    }
    // Read back under the name the store chose (generateName) or the one asked for.
    const name = object?.metadata.name ?? scope.name;
    const stored = name === '' ? undefined : await get(def, { name, ...(scope.namespace === undefined ? {} : { namespace: scope.namespace }) });
    return { object, stored, causes, errors: printed(causes), warnings };
  }

  async function withStoredVersion(def: ResourceDefinition, obj: KubeObject): Promise<KubeObject> {
    if (obj.metadata.resourceVersion !== undefined) return obj;
    const scope = scopeOf(def, obj);
    const current = await get(def, { name: scope.name, ...(scope.namespace === undefined ? {} : { namespace: scope.namespace }) });
    if (current === undefined) return obj;
    return { ...obj, metadata: { ...obj.metadata, resourceVersion: current.metadata.resourceVersion } };
  }

  async function updateSubresource(def: ResourceDefinition, name: string, obj: KubeObject): Promise<WriteOutcome> {
    const sub = registry.store(def).subresource(name);
    if (sub === undefined) throw new Error(`${def.plural} declares no ${name} subresource`);
    const body = await withStoredVersion(def, structuredClone(obj));
    return write(def, body, (scope) => sub.update(body, { name: scope.name, ...(scope.namespace === undefined ? {} : { namespace: scope.namespace }) }));
  }

  return {
    registry,
    storage,
    get,
    create: (def, obj) =>
      write(def, obj, (scope) => registry.store(def).create(structuredClone(obj), scope.namespace === undefined ? {} : { namespace: scope.namespace })),
    update: async (def, obj) => {
      const body = await withStoredVersion(def, structuredClone(obj));
      return write(def, body, (scope) => registry.store(def).update(body, { name: scope.name, ...(scope.namespace === undefined ? {} : { namespace: scope.namespace }) }));
    },
    updateStatus: (def, obj) => updateSubresource(def, 'status', obj),
    updateSubresource,
    close: () => storage.close(),
  };
}

/**
 * The endpoint stack of test/endpoints/harness.ts (a fixed admin user in place of
 * the filter chain, StatusErrors rendered as the real error handler renders them,
 * discovery and OpenAPI over the catalog) serving the built-in kinds instead of
 * the example.test group: that harness takes no resource list, but its catalog is
 * live, so the example kinds are swapped out for builtinKinds() before any request.
 */
export async function createBuiltinHttpHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const h = await createHarness({ namespaces: [] });
  const { catalog } = h.registry;
  for (const def of catalog.list()) catalog.remove(def);
  for (const def of builtinKinds(h.storage)) catalog.add(def);
  // Created by the built-in Namespace kind, not the example group's stand-in.
  for (const name of opts.namespaces ?? DEFAULT_NAMESPACES) await h.registry.store(namespaces).create({ metadata: { name } });
  return h;
}
