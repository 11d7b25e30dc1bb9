// Which query, path and body parameters each action takes, as kube-apiserver
// publishes them (kubernetes-1.36-openapi-v2.json). Parameters are written inline,
// never as `#/parameters/` references: kubectl's query-param verifier reads
// `fieldValidation` only from inline parameters of the PATCH operation.
import { definitionRef } from '../../schema/definitions.js';
import type { Action, SwaggerParameter } from './swagger.js';

const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
const PATCH = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
export const META_DEFINITIONS = { STATUS, DELETE_OPTIONS, PATCH } as const;

function query(name: string, type: 'string' | 'boolean' | 'integer'): SwaggerParameter {
  return { name, in: 'query', type, uniqueItems: true };
}

export const pathParameter = (name: 'name' | 'namespace'): SwaggerParameter => ({
  name,
  in: 'path',
  required: true,
  type: 'string',
  uniqueItems: true,
});

export const PRETTY = query('pretty', 'string');

/** LIST and WATCH selection; also the path-level parameters of the watch paths. */
export const LIST_PARAMETERS: readonly SwaggerParameter[] = [
  query('allowWatchBookmarks', 'boolean'),
  query('continue', 'string'),
  query('fieldSelector', 'string'),
  query('labelSelector', 'string'),
  query('limit', 'integer'),
  query('resourceVersion', 'string'),
  query('resourceVersionMatch', 'string'),
  query('sendInitialEvents', 'boolean'),
  query('timeoutSeconds', 'integer'),
  query('watch', 'boolean'),
];

// Write parameters: their presence on PATCH is how kubectl 1.29+ decides the server
// validates fields itself (query_param_verifier_v3).
const WRITE_PARAMETERS: readonly SwaggerParameter[] = [
  query('dryRun', 'string'),
  query('fieldManager', 'string'),
  query('fieldValidation', 'string'),
];

const DELETE_PARAMETERS: readonly SwaggerParameter[] = [
  query('gracePeriodSeconds', 'integer'),
  query('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'),
  query('orphanDependents', 'boolean'),
  query('propagationPolicy', 'string'),
];

function body(schemaName: string, required: boolean): SwaggerParameter {
  return { name: 'body', in: 'body', ...(required ? { required: true } : {}), schema: { $ref: definitionRef(schemaName) } };
}

const byName = (a: SwaggerParameter, b: SwaggerParameter): number =>
  a.in === 'body' ? -1 : b.in === 'body' ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** Operation-level parameters of an action on a kind whose definition is `schemaName`. */
export function operationParameters(action: Action, schemaName: string): SwaggerParameter[] {
  switch (action) {
    case 'list':
      return [...LIST_PARAMETERS];
    case 'post':
    case 'put':
      return [body(schemaName, true), ...WRITE_PARAMETERS];
    case 'patch':
      return [body(PATCH, true), ...WRITE_PARAMETERS, query('force', 'boolean')];
    case 'delete':
      return [body(DELETE_OPTIONS, false), query('dryRun', 'string'), ...DELETE_PARAMETERS].sort(byName);
    case 'deletecollection':
      return [
        body(DELETE_OPTIONS, false),
        query('dryRun', 'string'),
        ...DELETE_PARAMETERS,
        ...LIST_PARAMETERS.filter((p) => p.name !== 'watch' && p.name !== 'allowWatchBookmarks'),
      ].sort(byName);
    case 'get':
    case 'watch':
    case 'watchlist':
      return [];
  }
}

export function statusRef(): { $ref: string } {
  return { $ref: definitionRef(STATUS) };
}
