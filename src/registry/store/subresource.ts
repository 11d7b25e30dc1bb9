// Subresources of the generic store (status, scale, finalize), served from what a
// definition declares (SubresourceDefinition), never per resource. A read answers
// the subresource's view of the parent: the parent itself, or the Scale computed
// from declared paths; the parent in the served version (version-codec.ts), a
// Scale as it is (its paths are the stored version's). A write is the registry's
// one write (registry/write/) with the subresource named, so it runs the same
// steps in the same order; a computing subresource (serviceaccounts/token)
// answers what its hook computes, and a streaming one (pods/log) the stream its
// hook opens. Those hooks read the parent as stored.
import type { KubeObject } from '../../schema/object.js';
import type { Scope } from '../../schema/api-resource.js';
import type { SubresourceDefinition } from '../define-resource.js';
import { objectKey } from '../keys.js';
import type { StoreContext } from './context.js';
import { get } from './read.js';
import { SCALE_KIND, scaleOf } from './subresource-scale.js';
import { write } from '../write/pipeline.js';
import { isStorageError } from '../../errors/storage-error.js';
import type { CreateOptions, SubresourceStore, WriteResult } from './types.js';

/** The store of a declared subresource; undefined for one the definition does not declare. */
export function subresourceStore(ctx: StoreContext, name: string): SubresourceStore | undefined {
  const declaration = Object.hasOwn(ctx.definition.subresources, name) ? ctx.definition.subresources[name] : undefined;
  if (declaration === undefined) return undefined;
  const scale = declaration.scale;
  return {
    name,
    declaration,
    kind: declaration.responseKind ?? (declaration.scale === undefined ? ctx.gvk : SCALE_KIND),
    get: async (opts) => {
      const parent = await get(ctx, opts);
      return scale === undefined ? ctx.codec.fromStorage(parent) : scaleOf(parent, scale);
    },
    update: (obj, opts) => write(ctx, { ...opts, verb: 'update', subresource: name, transform: () => ({ object: obj }) }),
    ...(declaration.create === undefined ? {} : { create: (body, opts) => computeCreate(ctx, declaration.create!, body, opts) }),
    ...(declaration.connect === undefined
      ? {}
      : {
          connect: (opts) =>
            declaration.connect!({ name: opts.name, query: opts.query, signal: opts.signal, parent: () => get(ctx, opts), getObject: (kind, namespace, name) => getStored(ctx, kind, namespace, name) }),
        }),
  };
}

/** Another stored object a subresource reads (a bound object reference, a pod's Node); undefined when absent. */
async function getStored(ctx: StoreContext, kind: { group: string; plural: string; scope: Scope }, namespace: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await ctx.storage.get(objectKey(kind, { namespace, name }));
  } catch (err) {
    if (isStorageError(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** A computing subresource's POST: the stored parent (404 when absent) and the body go to its hook. */
async function computeCreate(
  ctx: StoreContext,
  compute: NonNullable<SubresourceDefinition['create']>,
  body: KubeObject,
  opts: CreateOptions & { name: string },
): Promise<WriteResult> {
  const parent = await get(ctx, { namespace: opts.namespace, name: opts.name });
  const object = await compute(parent, body, {
    user: opts.user,
    dryRun: opts.dryRun === true,
    now: ctx.clock(),
    getObject: (kind, namespace, name) => getStored(ctx, kind, namespace, name),
  });
  return { object, warnings: [] };
}
