// DeleteCollection: list what matches (all pages, one snapshot), then delete each
// item through the same path as a single DELETE so admission and finalizers apply.
// Items that vanish meanwhile are skipped. The answer is the list of deleted items,
// as kube's store returns it, in the served version (version-codec.ts).
import { isStatusError } from '../../errors/status-error.js';
import type { KubeList, KubeObject } from '../../schema/object.js';
import type { StoreContext } from './context.js';
import { remove } from './delete.js';
import { list } from './read.js';
import type { DeleteCollectionOptions } from './types.js';

export async function deleteCollection(ctx: StoreContext, opts: DeleteCollectionOptions = {}): Promise<KubeList> {
  const first = await list(ctx, opts);
  const items = [...first.items];
  for (let page = first; page.metadata.continue !== undefined; ) {
    page = await list(ctx, { ...opts, resourceVersion: undefined, resourceVersionMatch: undefined, continue: page.metadata.continue });
    items.push(...page.items);
  }
  const deleted: KubeObject[] = [];
  for (const item of items) {
    try {
      const result = await remove(ctx, { ...opts, namespace: item.metadata.namespace ?? '', name: item.metadata.name ?? '' });
      deleted.push(result.object);
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') continue;
      throw err;
    }
  }
  const served = ctx.codec.converts ? await Promise.all(deleted.map((obj) => ctx.codec.fromStorage(obj))) : deleted;
  return { ...first, metadata: { resourceVersion: first.metadata.resourceVersion }, items: served.map(({ apiVersion: _a, kind: _k, ...rest }) => rest as KubeObject) };
}
