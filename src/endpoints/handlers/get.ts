// GET of one object: resourceVersion/resourceVersionMatch pass to the store, which
// validates them as kube does. A Table Accept (kubectl get) answers a one-row Table,
// a PartialObjectMetadata Accept the object's metadata-only form.
import type { ResourceVersionMatch } from '../../storage/storage.js';
import { transformForAccept } from './list.js';
import { respond, userOf, type Handler } from './scope.js';

export const getHandler: Handler = async (request, reply, scope) => {
  const object = await scope.store.get({
    user: userOf(request),
    namespace: scope.namespace,
    name: scope.info.name,
    resourceVersion: scope.query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: (scope.query.get('resourceVersionMatch') ?? undefined) as ResourceVersionMatch | undefined,
  });
  return respond(request, reply, { code: 200, object: transformForAccept(request, scope, object), scope });
};
