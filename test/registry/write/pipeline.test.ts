// The write pipeline's contract, through the real registry over the memory
// backend: one declared order of steps for every write (create, update,
// create-on-update, subresource), hooks that receive the write's context, and
// reset fields declared per operation.
import { beforeEach, expect, test } from 'vitest';
import { createAdmissionChain } from '../../../src/admission/chain.js';
import type { AdmissionPlugin } from '../../../src/admission/plugin.js';
import { defineResource, type ResourceDefinition } from '../../../src/registry/define-resource.js';
import { createRegistry, type Registry } from '../../../src/registry/registry.js';
import type { WriteContext } from '../../../src/registry/strategy.js';
import { WRITE_STEPS } from '../../../src/registry/write/steps.js';
import { builtinSchema } from '../../../src/schema/definitions.js';
import type { KubeObject } from '../../../src/schema/object.js';
import type { UserInfo } from '../../../src/schema/user.js';
import { openMemoryKv } from '../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../src/storage/object-store.js';
import { testNamespaces } from '../../support/example-group.js';

const NOW = new Date('2026-03-04T05:06:07Z');
const USER: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

interface Entry {
  readonly step: string;
  readonly seen: Record<string, unknown>;
}

let log: Entry[] = [];
let contexts: WriteContext[] = [];

function spec(obj: KubeObject | undefined): Record<string, unknown> {
  return (obj?.spec as Record<string, unknown> | undefined) ?? {};
}

function record(step: string, obj: KubeObject | undefined, ctx?: WriteContext): void {
  log.push({ step, seen: { ...spec(obj), uid: obj?.metadata.uid, status: obj?.status } });
  if (ctx !== undefined) contexts.push(ctx);
}

function traces(opts: { allowCreateOnUpdate: boolean; resetOnCreate: boolean }): ResourceDefinition {
  return defineResource({
    group: 'example.test',
    version: 'v1',
    kind: 'Trace',
    plural: 'traces',
    scope: 'Namespaced',
    schema: builtinSchema('test.example.v1.Trace'),
    strategy: {
      resetFields: { ...(opts.resetOnCreate ? { create: ['status'] } : {}), update: ['status'] },
      defaults: (obj, ctx) => {
        record('defaults', obj, ctx);
        (obj.spec as Record<string, unknown>).defaulted = true;
      },
      prepareForCreate: (obj, ctx) => record('prepareForCreate', obj, ctx),
      prepareForUpdate: (obj, _prev, ctx) => record('prepareForUpdate', obj, ctx),
      validate: (obj, ctx) => (record('validate', obj, ctx), []),
      warnings: (obj, _prev, ctx) => (record('warnings', obj, ctx), []),
      canonicalize: (obj) => {
        record('canonicalize', obj);
        (obj.spec as Record<string, unknown>).canonical = true;
      },
      allowCreateOnUpdate: opts.allowCreateOnUpdate,
    },
    subresources: { status: { verbs: ['get', 'update', 'patch'], path: 'status' } },
  });
}

const tracer: AdmissionPlugin = {
  name: 'Tracer',
  admit: (attrs) => record('mutating admission', attrs.object),
  validate: (attrs) => record('validating admission', attrs.object),
};

let registry: Registry;
let def: ResourceDefinition;

async function setUp(opts: { allowCreateOnUpdate?: boolean; resetOnCreate?: boolean } = {}): Promise<void> {
  def = traces({ allowCreateOnUpdate: opts.allowCreateOnUpdate ?? false, resetOnCreate: opts.resetOnCreate ?? true });
  registry = createRegistry({
    storage: createObjectStore({ kv: openMemoryKv() }),
    resources: [def, testNamespaces],
    admission: createAdmissionChain({ plugins: [tracer] }),
    clock: () => NOW,
    uid: () => 'uid-1',
  });
  await registry.store(testNamespaces).create({ metadata: { name: 'ns' } });
  log = [];
  contexts = [];
}

beforeEach(() => setUp());

const scope = { namespace: 'ns', user: USER };

test('the steps are declared once, in the issue\'s order', () => {
  expect(WRITE_STEPS.map((s) => s.name)).toEqual([
    'defaults',
    // The storage codec: the steps before it run in the request's version, the ones after in the storage version.
    'convert',
    'mutating admission',
    // kube's policy-based REST storage (RBAC escalation) wraps Create/Update after mutating admission.
    'authorize write',
    'system metadata',
    'reset fields',
    'prepare',
    'validate',
    'warnings',
    'canonicalize',
    'managed fields',
    'allocation',
    'validating admission',
  ]);
});

test('create runs the steps in order: defaults before admission, system metadata and reset fields before prepare', async () => {
  await registry.store(def).create({ metadata: { name: 't' }, spec: { a: 1 }, status: { set: 'by client' } }, scope);
  expect(log.map((e) => e.step)).toEqual(['defaults', 'mutating admission', 'prepareForCreate', 'validate', 'warnings', 'canonicalize', 'validating admission']);
  const at = (step: string) => log.find((e) => e.step === step)!.seen;
  // Mutating admission already sees the defaulted object (kube defaults at decode).
  expect(at('mutating admission')).toMatchObject({ a: 1, defaulted: true });
  // prepare sees the uid the store set and the status reset on create.
  expect(at('prepareForCreate')).toMatchObject({ uid: 'uid-1', status: undefined });
  // Validating admission sees the canonical object, as it will be stored.
  expect(at('validating admission')).toMatchObject({ canonical: true });
  const stored = await registry.store(def).get({ namespace: 'ns', name: 't' });
  expect(stored.spec).toEqual({ a: 1, defaulted: true, canonical: true });
  expect(stored.status).toBeUndefined();
});

test('every hook receives the write\'s context: operation, user, injected clock, namespace, dry run, subresource, request version', async () => {
  await registry.store(def).create({ metadata: { name: 't' }, spec: {} }, { ...scope, dryRun: true });
  expect(contexts.length).toBeGreaterThan(0);
  const requestVersion = { group: 'example.test', version: 'v1' };
  for (const ctx of contexts) expect(ctx).toEqual({ operation: 'CREATE', user: USER, now: NOW, namespace: 'ns', dryRun: true, subresource: '', requestVersion });
});

test('update runs the same list with prepareForUpdate; the stored status is kept whatever the body says', async () => {
  const created = await registry.store(def).create({ metadata: { name: 't' }, spec: { a: 1 } }, scope);
  await registry.store(def).subresource('status')!.update({ ...created.object, status: { phase: 'Ready' } }, { ...scope, name: 't' });
  log = [];
  contexts = [];
  const current = await registry.store(def).get({ namespace: 'ns', name: 't' });
  const result = await registry.store(def).update({ ...current, spec: { a: 2 }, status: { phase: 'Forged' } }, { ...scope, name: 't' });
  expect(log.map((e) => e.step)).toEqual(['defaults', 'mutating admission', 'prepareForUpdate', 'validate', 'warnings', 'canonicalize', 'validating admission']);
  expect(log.find((e) => e.step === 'prepareForUpdate')!.seen).toMatchObject({ status: { phase: 'Ready' } });
  expect(result.object.status).toEqual({ phase: 'Ready' });
  for (const ctx of contexts) expect(ctx).toMatchObject({ operation: 'UPDATE', subresource: '', dryRun: false });
});

test('create-on-update runs the create list', async () => {
  await setUp({ allowCreateOnUpdate: true });
  const result = await registry.store(def).update({ metadata: { name: 'fresh', namespace: 'ns' }, spec: {} }, { ...scope, name: 'fresh' });
  expect(result.created).toBe(true);
  expect(log.map((e) => e.step)).toEqual(['defaults', 'mutating admission', 'prepareForCreate', 'validate', 'warnings', 'canonicalize', 'validating admission']);
  for (const ctx of contexts) expect(ctx.operation).toBe('CREATE');
});

test('a kind that declares no create reset keeps the status it is created with', async () => {
  await setUp({ resetOnCreate: false });
  const created = await registry.store(def).create({ metadata: { name: 't' }, spec: {}, status: { capacity: '4' } }, scope);
  expect(created.object.status).toEqual({ capacity: '4' });
  const again = await registry.store(def).update({ ...created.object, status: { capacity: '8' } }, { ...scope, name: 't' });
  expect(again.object.status).toEqual({ capacity: '4' });
});

test('a status write runs the defaults and both admissions, not the main resource\'s prepare; only status changes', async () => {
  const created = await registry.store(def).create({ metadata: { name: 't' }, spec: { a: 1 } }, scope);
  log = [];
  contexts = [];
  const result = await registry.store(def).subresource('status')!.update(
    { ...created.object, spec: { a: 99 }, status: { phase: 'Ready' } },
    { ...scope, name: 't' },
  );
  expect(log.map((e) => e.step)).toEqual(['defaults', 'mutating admission', 'validate', 'warnings', 'canonicalize', 'validating admission']);
  expect(result.object).toMatchObject({ spec: { a: 1, defaulted: true, canonical: true }, status: { phase: 'Ready' } });
  for (const ctx of contexts) expect(ctx).toMatchObject({ operation: 'UPDATE', subresource: 'status' });
});

test('a failing step stores nothing, and a later write starts clean', async () => {
  const refusing: AdmissionPlugin = {
    name: 'Refuse',
    validate: (attrs) => {
      if (spec(attrs.object).refuse === true) throw new Error('refused');
    },
  };
  registry = createRegistry({
    storage: createObjectStore({ kv: openMemoryKv() }),
    resources: [def, testNamespaces],
    admission: createAdmissionChain({ plugins: [refusing] }),
    clock: () => NOW,
  });
  await registry.store(testNamespaces).create({ metadata: { name: 'ns' } });
  await expect(registry.store(def).create({ metadata: { name: 't' }, spec: { refuse: true } }, scope)).rejects.toThrow('refused');
  await expect(registry.store(def).get({ namespace: 'ns', name: 't' })).rejects.toMatchObject({ code: 404 });
  const ok = await registry.store(def).create({ metadata: { name: 't' }, spec: {} }, scope);
  expect(ok.object.metadata.name).toBe('t');
});
