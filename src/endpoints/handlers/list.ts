// LIST: selectors become one predicate (registry/selection.ts, 400 for bad syntax
// or unsupported fields), paging and resourceVersion pass to the store. A Table
// Accept (kubectl get) answers a Table carrying the list's paging metadata; a
// PartialObjectMetadataList Accept (client-go's metadata client) the list's
// metadata-only form. Large lists go out item by item (list-stream.ts).
import type { FastifyRequest } from 'fastify';
import { buildPredicate } from '../../registry/selection.js';
import { parseIncludeObject, tableForList, tableForObject, type TableOptions } from '../../registry/table.js';
import type { ListOptions } from '../../registry/store/types.js';
import type { KubeList, KubeObject } from '../../schema/object.js';
import type { ResourceVersionMatch } from '../../storage/storage.js';
import { outputTargetFor, tableVersionFor, type NegotiatedOutput } from '../negotiation.js';
import { sendList } from '../list-stream.js';
import { acceptsGzip } from '../compression.js';
import { asPartialMetadata } from '../partial-metadata.js';
import { forbiddenField, path } from '../../schema/field-errors.js';
import { intParam, invalidOptions } from './options.js';
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

function resourceType(scope: HandlerScope): { apiVersion: string; kind: string } {
  const def = scope.definition;
  return { apiVersion: def.group === '' ? def.version : `${def.group}/${def.version}`, kind: def.kind };
}

/**
 * How to print this request's objects when its Accept asks for a Table (get, list
 * and watch); undefined otherwise. A bad includeObject is 400, checked only then,
 * as kube does. Ages are measured against the wall clock at answer time.
 */
export function tableOptionsFor(request: FastifyRequest, scope: HandlerScope, negotiated?: NegotiatedOutput): TableOptions | undefined {
  const type = resourceType(scope);
  const version = negotiated === undefined ? tableVersionFor(request, type, scope.codecs) : negotiated.table;
  if (version === undefined) return undefined;
  const includeObject = parseIncludeObject(scope.query.get('includeObject'));
  return { table: scope.definition.table, version, includeObject, type, now: new Date() };
}

/**
 * The object or list itself, or the form the request's Accept asks for: its
 * Table, or its metadata-only form (kube's transformResponseObject). Negotiated
 * once here; a 406 for an Accept nothing fits comes before any encoding.
 */
export function transformForAccept(request: FastifyRequest, scope: HandlerScope, result: KubeObject | KubeList): unknown {
  const negotiated = outputTargetFor(request, resourceType(scope), scope.codecs);
  if (negotiated.partial !== undefined) return asPartialMetadata(result, negotiated.partial);
  const opts = tableOptionsFor(request, scope, negotiated);
  if (opts === undefined) return result;
  return 'items' in result && Array.isArray(result.items) ? tableForList(result as KubeList, opts) : tableForObject(result as KubeObject, opts);
}

export const listHandler: Handler = async (request, reply, scope) => {
  // kube's ListOptions validation: initial events belong to watches.
  if (scope.query.has('sendInitialEvents')) invalidOptions('ListOptions', [forbiddenField(path('sendInitialEvents'), 'sendInitialEvents is forbidden for list')]);
  const list = await scope.store.list({ ...listOptionsFrom(scope), user: userOf(request) });
  const object = transformForAccept(request, scope, list);
  // Item by item where the codec allows it (list-stream.ts); Tables, YAML and ?pretty whole.
  const gzip = scope.responseCompression && acceptsGzip(request.headers['accept-encoding']);
  if (await sendList(request, reply, { list: object as KubeList, codecs: scope.codecs, gzip })) return reply;
  return respond(request, reply, { code: 200, object, scope });
};
