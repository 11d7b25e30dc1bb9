// LIST: selectors become one predicate (registry/selection.ts, 400 for bad syntax
// or unsupported fields), paging and resourceVersion pass to the store. A Table
// Accept (kubectl get) answers a Table carrying the list's paging metadata.
import type { FastifyRequest } from 'fastify';
import { buildPredicate } from '../../registry/selection.js';
import { parseIncludeObject, tableForList, tableForObject, type TableOptions } from '../../registry/table.js';
import type { ListOptions } from '../../registry/store/types.js';
import type { KubeList, KubeObject } from '../../schema/object.js';
import type { ResourceVersionMatch } from '../../storage/storage.js';
import { tableVersionFor } from '../negotiation.js';
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

/**
 * How to print this request's objects when its Accept asks for a Table (get, list
 * and watch); undefined otherwise. A bad includeObject is 400, checked only then,
 * as kube does. Ages are measured against the wall clock at answer time.
 */
export function tableOptionsFor(request: FastifyRequest, scope: HandlerScope): TableOptions | undefined {
  const def = scope.definition;
  const type = { apiVersion: def.group === '' ? def.version : `${def.group}/${def.version}`, kind: def.kind };
  const version = tableVersionFor(request, type, scope.codecs);
  if (version === undefined) return undefined;
  const includeObject = parseIncludeObject(scope.query.get('includeObject'));
  return { table: def.table, version, includeObject, type, now: new Date() };
}

/** The object or list itself, or its Table when the request asked for one. */
export function asTableIfAsked(request: FastifyRequest, scope: HandlerScope, result: KubeObject | KubeList): unknown {
  const opts = tableOptionsFor(request, scope);
  if (opts === undefined) return result;
  return 'items' in result && Array.isArray(result.items) ? tableForList(result as KubeList, opts) : tableForObject(result as KubeObject, opts);
}

export const listHandler: Handler = async (request, reply, scope) => {
  const list = await scope.store.list({ ...listOptionsFrom(scope), user: userOf(request) });
  return respond(request, reply, { code: 200, object: asTableIfAsked(request, scope, list), scope });
};
