// LIST: selectors become one predicate (registry/selection.ts, 400 for bad syntax
// or unsupported fields), paging and resourceVersion pass to the store.
import { buildPredicate } from '../../registry/selection.js';
import type { ListOptions } from '../../registry/store/types.js';
import type { ResourceVersionMatch } from '../../storage/storage.js';
import { intParam } from './options.js';
import { respond, userOf, type Handler, type HandlerScope } from './scope.js';

/** The list options every collection verb (list, watch, deletecollection) reads from the query. */
export function listOptionsFrom(scope: HandlerScope): Omit<ListOptions, 'user'> {
  const q = scope.query;
  const predicate = buildPredicate({
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    resource: scope.definition,
  });
  const limit = intParam(q, 'limit');
  return {
    namespace: scope.namespace,
    ...(predicate === undefined ? {} : { predicate }),
    ...(limit === undefined ? {} : { limit }),
    ...(q.get('continue') ? { continue: q.get('continue')! } : {}),
    ...(q.get('resourceVersion') !== null ? { resourceVersion: q.get('resourceVersion')! } : {}),
    ...(q.get('resourceVersionMatch') ? { resourceVersionMatch: q.get('resourceVersionMatch') as ResourceVersionMatch } : {}),
  };
}

export const listHandler: Handler = async (request, reply, scope) => {
  const list = await scope.store.list({ ...listOptionsFrom(scope), user: userOf(request) });
  return respond(request, reply, { code: 200, object: list, scope });
};
