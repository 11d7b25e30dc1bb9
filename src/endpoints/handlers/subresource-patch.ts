// PATCH of a declared subresource (kubectl scale, kubectl patch --subresource=status):
// the generic patch pointed at the subresource. The registry's write reads and
// writes the subresource's view (the parent, or the Scale), and the body is checked
// against the view's kind and schema (strategic merge of a Scale uses the Scale's
// patch metadata). Nothing about patching is repeated here.
import { patchResource } from './patch.js';
import type { Handler } from './scope.js';
import { subresourceBodyDefinition, subresourceOf } from './subresource.js';

export const subresourcePatchHandler: Handler = (request, reply, scope) => {
  const sub = subresourceOf(scope);
  return patchResource(request, reply, { ...scope, definition: subresourceBodyDefinition(scope, sub) }, sub.name);
};
