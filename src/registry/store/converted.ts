// A resource served in one version and stored as another (kube's storage
// version): every verb runs on the stored version's store, and objects are
// converted on the way in (toStored, before the write steps, inside the
// guaranteed update, so a transform sees this version's view of the current
// object) and on the way out (fromStored). Conversions of stored objects are
// remembered per object, so a watch event shared by many watchers, or a list
// read twice, is converted once.
import { apiVersionOf, type KubeList, type KubeObject } from '../../schema/object.js';
import type { ObjectPredicate, StorageWatchEvent } from '../../storage/storage.js';
import type { ResourceDefinition } from '../define-resource.js';
import type { Conversion } from '../strategy.js';
import type { DeleteResult, ResourceStore, SubresourceStore, WriteRequest } from './types.js';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function withTypeMeta(obj: KubeObject, def: ResourceDefinition): KubeObject {
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return { kind: def.kind, apiVersion: apiVersionOf(def), ...rest } as KubeObject;
}

function withoutTypeMeta(obj: KubeObject): KubeObject {
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return rest as KubeObject;
}

export function convertedStore(definition: ResourceDefinition, inner: ResourceStore, conversion: Conversion<ResourceDefinition>): ResourceStore {
  const seen = new WeakMap<KubeObject, KubeObject>();
  /** A stored object as this version's, frozen like every object the store answers. */
  const out = (stored: KubeObject): KubeObject => {
    const known = seen.get(stored);
    if (known !== undefined) return known;
    const served = deepFreeze(withTypeMeta(conversion.fromStored(stored), definition));
    if (Object.isFrozen(stored)) seen.set(stored, served);
    return served;
  };
  const into = (served: KubeObject): KubeObject => withTypeMeta(conversion.toStored(served), conversion.stored);
  const predicate = (p: ObjectPredicate | undefined): ObjectPredicate | undefined => (p === undefined ? undefined : (stored) => p(out(stored)));
  const request = (req: WriteRequest): WriteRequest => ({
    ...req,
    transform: async (current) => {
      const wanted = await req.transform(current === undefined ? undefined : out(current));
      return { ...wanted, object: into(wanted.object) };
    },
  });
  const list = (result: KubeList): KubeList => ({
    ...result,
    kind: definition.listKind,
    apiVersion: apiVersionOf(definition),
    items: result.items.map((item) => withoutTypeMeta(out(item))),
  });
  const deleted = (result: DeleteResult): DeleteResult => ({
    ...result,
    object: out(result.object),
    response: result.response.kind === 'Status' ? result.response : out(result.response as KubeObject),
  });
  const subresource = (name: string): SubresourceStore | undefined => {
    const sub = inner.subresource(name);
    if (sub === undefined) return undefined;
    const sameKind = sub.kind.kind === conversion.stored.kind && sub.kind.group === conversion.stored.group;
    if (!sameKind) return sub;
    return {
      ...sub,
      kind: { group: definition.group, version: definition.version, kind: definition.kind },
      get: async (opts) => out(await sub.get(opts)),
      update: async (obj, opts) => {
        const result = await inner.write(request({ ...opts, verb: 'update', subresource: name, transform: () => ({ object: obj }) }));
        return { object: out(result.object), warnings: result.warnings };
      },
    };
  };
  return {
    definition,
    create: async (obj, opts = {}) => {
      const result = await inner.write(request({ ...opts, verb: 'create', transform: () => ({ object: obj }) }));
      return { object: out(result.object), warnings: result.warnings };
    },
    get: async (opts) => out(await inner.get(opts)),
    list: async (opts = {}) => list(await inner.list({ ...opts, predicate: predicate(opts.predicate) })),
    update: async (obj, opts) => {
      const result = await inner.write(request({ ...opts, verb: 'update', transform: () => ({ object: obj }) }));
      return { ...result, object: out(result.object) };
    },
    write: async (req) => {
      const result = await inner.write(request(req));
      return { ...result, object: out(result.object) };
    },
    delete: async (opts) => deleted(await inner.delete(opts)),
    deleteCollection: async (opts = {}) => list(await inner.deleteCollection({ ...opts, predicate: predicate(opts.predicate) })),
    watch: (opts) =>
      inner.watch({
        ...opts,
        predicate: predicate(opts.predicate),
        onEvent: (event: StorageWatchEvent) => opts.onEvent(event.type === 'BOOKMARK' || event.type === 'ERROR' ? event : { type: event.type, object: out(event.object) }),
      }),
    subresource,
  };
}
