// PATCH of a declared subresource (kubectl scale, kubectl patch --subresource=status):
// the generic patch handler, pointed at the subresource. Its reads are the
// subresource's view (the parent, or the Scale) and its writes go through the
// subresource's write path, and the body is checked against the view's kind and
// schema (strategic merge of a Scale uses the Scale's patch metadata). Nothing about
// patching is repeated here.
import type { ResourceStore } from '../../registry/store/types.js';
import { patchHandler } from './patch.js';
import type { Handler } from './scope.js';
import { subresourceBodyDefinition, subresourceOf } from './subresource.js';

export const subresourcePatchHandler: Handler = (request, reply, scope) => {
  const sub = subresourceOf(scope);
  const store: ResourceStore = {
    ...scope.store,
    get: (opts) => sub.get(opts),
    // A subresource write never creates its parent.
    update: async (obj, opts) => ({ ...(await sub.update(obj, opts)), created: false }),
  };
  return patchHandler(request, reply, { ...scope, definition: subresourceBodyDefinition(scope, sub), store });
};
