// The generic store: one ResourceStore per served definition. Reads, deletes and
// watches have a file each; every write (create, update, subresources) is the one
// write pipeline of registry/write/. What storage answers leaves in the served
// version through the definition's codec (version-codec.ts): here for get and
// delete, in read.ts, delete-collection.ts and watch.ts for the collection verbs,
// and in the pipeline for writes. Virtual resources
// (definition.virtualCreate) store nothing: create answers what virtualCreate
// computes and every other verb is refused. Computed read-only resources
// (definition.virtualRead: componentstatuses) answer get and list from it.
import { methodNotSupported, notFound } from '../../errors/status-error.js';
import { apiVersionOf } from '../../schema/object.js';
import type { KubeObject } from '../../schema/object.js';
import type { StoreContext } from './context.js';
import { deleteCollection } from './delete-collection.js';
import { remove } from './delete.js';
import { setTypeMeta, thaw } from './metadata.js';
import { get, list } from './read.js';
import { subresourceStore } from './subresource.js';
import type { CreateOptions, DeleteResult, ResourceStore, WriteResult } from './types.js';
import { write } from '../write/pipeline.js';
import { watch } from './watch.js';

async function virtualCreate(ctx: StoreContext, input: KubeObject, opts: CreateOptions): Promise<WriteResult> {
  const obj = thaw(input);
  obj.metadata ??= {};
  setTypeMeta(obj, ctx.definition);
  const user = opts.user ?? { username: '', groups: [] };
  const object = await ctx.definition.virtualCreate!(obj, { user, namespace: opts.namespace, dryRun: opts.dryRun === true });
  return { object, warnings: [] };
}

/** A DELETE's answer in the served version: the object, and the response when it is the object. */
async function servedDelete(ctx: StoreContext, result: DeleteResult): Promise<DeleteResult> {
  if (!ctx.codec.converts) return result;
  const object = await ctx.codec.fromStorage(result.object);
  return { ...result, object, response: result.response === result.object ? object : result.response };
}

export function createResourceStore(ctx: StoreContext): ResourceStore {
  const def = ctx.definition;
  const refuse = (verb: string) => () => Promise.reject(methodNotSupported(ctx.resource, verb));
  const reader = def.virtualRead;
  if (reader !== undefined) {
    return {
      definition: def,
      create: refuse('create'),
      get: async (opts) => {
        const found = await reader.get(opts.name);
        if (found === undefined) throw notFound(ctx.resource, opts.name);
        return found;
      },
      // Computed now: no resourceVersion to resume from, so none is given (as kube's list answers).
      list: async (opts = {}) => ({
        apiVersion: apiVersionOf(def),
        kind: def.listKind,
        metadata: {},
        items: (await reader.list()).filter((obj) => opts.predicate?.(obj) ?? true),
      }),
      update: refuse('update'),
      write: refuse('update'),
      delete: refuse('delete'),
      deleteCollection: refuse('deletecollection'),
      watch: refuse('watch'),
      subresource: () => undefined,
    };
  }
  if (def.virtualCreate !== undefined) {
    return {
      definition: def,
      create: (obj, opts = {}) => virtualCreate(ctx, obj, opts),
      get: refuse('get'),
      list: refuse('list'),
      update: refuse('update'),
      write: refuse('update'),
      delete: refuse('delete'),
      deleteCollection: refuse('deletecollection'),
      watch: refuse('watch'),
      subresource: () => undefined,
    };
  }
  return {
    definition: ctx.codec.served,
    create: (obj, { handOver, ...opts } = {}) => {
      // Only a generated name is drawn again after a collision, from the same
      // body; a body that may be read twice is copied per attempt.
      const fresh = handOver === true && (obj.metadata?.generateName ?? '') === '';
      return write(ctx, { ...opts, verb: 'create', transform: () => ({ object: obj, fresh }) });
    },
    get: async (opts) => ctx.codec.fromStorage(await get(ctx, opts)),
    list: (opts) => list(ctx, opts),
    update: (obj, opts) => write(ctx, { ...opts, verb: 'update', transform: () => ({ object: obj }) }),
    write: (request) => write(ctx, request),
    delete: async (opts) => servedDelete(ctx, await remove(ctx, opts)),
    deleteCollection: (opts) => deleteCollection(ctx, opts),
    watch: (opts) => watch(ctx, opts),
    subresource: (name) => subresourceStore(ctx, name),
  };
}

export type * from './types.js';
