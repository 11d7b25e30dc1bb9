// The Swagger paths of one served resource, shaped like kube-apiserver's
// (endpoints/installer.go routes): the namespaced or cluster collection and item,
// the all-namespaces list, the watch paths, and one item path per subresource, with
// kube's operationIds (`patchCoreV1NamespacedPod`) and tags (`core_v1`). Which
// operations exist follows only the definition's verbs.
import { hasProtobufMessage } from '../../codecs/protobuf.js';
import type { ResourceDefinition } from '../../registry/define-resource.js';
import type { Verb } from '../../schema/api-resource.js';
import { definitionRef } from '../../schema/definitions.js';
import type { GroupVersionKind } from '../../schema/object.js';
import { LIST_PARAMETERS, PRETTY, operationParameters, pathParameter, statusRef } from './parameters.js';
import type { Action, HttpMethod, SwaggerOperation, SwaggerParameter, SwaggerPathItem, SwaggerResponse } from './swagger.js';

export const WATCH_EVENT = 'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent';

export const PATCH_MEDIA_TYPES: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];
export const OBJECT_MEDIA_TYPES: readonly string[] = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
/** What list and watch operations produce: the watch streams the server frames (codecs/framing.ts). */
const STREAM_MEDIA_TYPES: readonly string[] = [
  ...OBJECT_MEDIA_TYPES,
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
];
/** A kind with no protobuf message is watched in JSON only (negotiation never picks protobuf for it). */
const JSON_STREAM_MEDIA_TYPES: readonly string[] = [...OBJECT_MEDIA_TYPES, 'application/json;stream=watch'];

function streamMediaTypes(gvk: GroupVersionKind): readonly string[] {
  const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
  return hasProtobufMessage(apiVersion, gvk.kind) ? STREAM_MEDIA_TYPES : JSON_STREAM_MEDIA_TYPES;
}

/** Definition names a resource's operations answer with. */
export interface ResourceSchemas {
  readonly kind: string;
  readonly list: string;
  /** Per subresource, the definition of what it answers with (Scale for /scale). */
  readonly subresources: Readonly<Record<string, { readonly schema: string; readonly gvk: GroupVersionKind }>>;
}

const capitalize = (s: string): string => (s === '' ? s : s[0]!.toUpperCase() + s.slice(1));

/** `Core`, `Apps`, `RbacAuthorization`, `StableExampleCom`: kube's group word in operationIds. */
export function groupWord(group: string): string {
  if (group === '') return 'Core';
  return group.replace(/\.k8s\.io$/, '').split(/[.-]/).map(capitalize).join('');
}

/** `core_v1`, `rbacAuthorization_v1`: the tag kube puts on a group version's operations. */
export function groupVersionTag(gv: { group: string; version: string }): string {
  const word = groupWord(gv.group);
  return `${word[0]!.toLowerCase()}${word.slice(1)}_${gv.version}`;
}

const RESPONSES_BY_ACTION: Readonly<Record<Action, readonly string[]>> = {
  get: ['200'],
  list: ['200'],
  post: ['200', '201', '202'],
  put: ['200', '201'],
  patch: ['200', '201'],
  delete: ['200', '202'],
  deletecollection: ['200'],
  watch: ['200'],
  watchlist: ['200'],
};

const CODE_TEXT: Readonly<Record<string, string>> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '401': 'Unauthorized' };

interface OperationSpec {
  readonly action: Action;
  readonly operationId: string;
  /** What a 2xx answers with. */
  readonly response: SwaggerResponse['schema'];
  /** The body of post/put. */
  readonly schemaName: string;
  readonly gvk: GroupVersionKind;
}

function operation(def: ResourceDefinition, spec: OperationSpec): SwaggerOperation {
  const responses: Record<string, SwaggerResponse> = {};
  for (const code of RESPONSES_BY_ACTION[spec.action]) responses[code] = { description: CODE_TEXT[code]!, schema: spec.response };
  responses['401'] = { description: CODE_TEXT['401']! };
  const parameters = operationParameters(spec.action, spec.schemaName);
  const streams = spec.action === 'list' || spec.action === 'watch' || spec.action === 'watchlist';
  return {
    operationId: spec.operationId,
    tags: [groupVersionTag(def)],
    consumes: spec.action === 'patch' ? PATCH_MEDIA_TYPES : ['*/*'],
    produces: streams ? streamMediaTypes(spec.gvk) : OBJECT_MEDIA_TYPES,
    schemes: ['https'],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
    'x-kubernetes-action': spec.action,
    'x-kubernetes-group-version-kind': { group: spec.gvk.group, kind: spec.gvk.kind, version: spec.gvk.version },
  };
}

/** HTTP method and operationId verb of each action. */
const ACTIONS: Readonly<Record<Action, { method: HttpMethod; word: string }>> = {
  list: { method: 'get', word: 'list' },
  post: { method: 'post', word: 'create' },
  deletecollection: { method: 'delete', word: 'delete' },
  get: { method: 'get', word: 'read' },
  put: { method: 'put', word: 'replace' },
  patch: { method: 'patch', word: 'patch' },
  delete: { method: 'delete', word: 'delete' },
  watch: { method: 'get', word: 'watch' },
  watchlist: { method: 'get', word: 'watch' },
};

const COLLECTION_ACTIONS: readonly { verb: Verb; action: Action }[] = [
  { verb: 'list', action: 'list' },
  { verb: 'create', action: 'post' },
  { verb: 'deletecollection', action: 'deletecollection' },
];
const ITEM_ACTIONS: readonly { verb: Verb; action: Action }[] = [
  { verb: 'get', action: 'get' },
  { verb: 'update', action: 'put' },
  { verb: 'patch', action: 'patch' },
  { verb: 'delete', action: 'delete' },
];
/** A subresource's verbs map to item actions; `create` is a POST (binding, eviction). */
const SUBRESOURCE_ACTIONS: readonly { verb: Verb; action: Action }[] = [...ITEM_ACTIONS, { verb: 'create', action: 'post' }];

/** All paths of one resource, keyed by URL template. */
export function resourcePaths(def: ResourceDefinition, schemas: ResourceSchemas): Record<string, SwaggerPathItem> {
  const namespaced = def.scope === 'Namespaced';
  const root = def.group === '' ? `/api/${def.version}` : `/apis/${def.group}/${def.version}`;
  const gvWord = `${groupWord(def.group)}${capitalize(def.version)}`;
  const scopeWord = namespaced ? 'Namespaced' : '';
  const nsPath = namespaced ? '/namespaces/{namespace}' : '';
  const scopeParams: SwaggerParameter[] = namespaced ? [pathParameter('namespace')] : [];
  const itemParams = [pathParameter('name'), ...scopeParams, PRETTY];
  const gvk: GroupVersionKind = { group: def.group, version: def.version, kind: def.kind };
  const kindRef = { $ref: definitionRef(schemas.kind) };
  const has = (verb: Verb): boolean => def.verbs.includes(verb);
  const paths: Record<string, SwaggerPathItem> = {};
  const add = (path: string, parameters: readonly SwaggerParameter[], method: HttpMethod, op: SwaggerOperation): void => {
    paths[path] = { ...paths[path], [method]: op, parameters };
  };

  for (const { verb, action } of COLLECTION_ACTIONS) {
    if (!has(verb)) continue;
    const collection = action === 'deletecollection' ? `Collection${scopeWord}` : scopeWord;
    const response = action === 'list' ? { $ref: definitionRef(schemas.list) } : action === 'post' ? kindRef : statusRef();
    const id = `${ACTIONS[action].word}${gvWord}${collection}${def.kind}`;
    add(`${root}${nsPath}/${def.plural}`, [...scopeParams, PRETTY], ACTIONS[action].method, operation(def, { action, operationId: id, response, schemaName: schemas.kind, gvk }));
  }
  for (const { verb, action } of ITEM_ACTIONS) {
    if (!has(verb)) continue;
    const response = action === 'delete' && def.strategy.returnDeletedObject !== true ? statusRef() : kindRef;
    const id = `${ACTIONS[action].word}${gvWord}${scopeWord}${def.kind}`;
    add(`${root}${nsPath}/${def.plural}/{name}`, itemParams, ACTIONS[action].method, operation(def, { action, operationId: id, response, schemaName: schemas.kind, gvk }));
  }
  if (namespaced && has('list')) {
    const id = `list${gvWord}${def.kind}ForAllNamespaces`;
    add(`${root}/${def.plural}`, [PRETTY], 'get', operation(def, { action: 'list', operationId: id, response: { $ref: definitionRef(schemas.list) }, schemaName: schemas.kind, gvk }));
  }
  if (has('watch')) addWatchPaths({ def, schemas, gvk, root, gvWord, scopeWord, nsPath, scopeParams, add });
  for (const [sub, subDef] of Object.entries(def.subresources)) {
    const subSchema = schemas.subresources[sub] ?? { schema: schemas.kind, gvk };
    if (subDef.connect !== undefined) {
      // A stream (pods/log): text first, a string answer, its options as path-level query parameters.
      const id = `read${gvWord}${scopeWord}${def.kind}${capitalize(sub)}`;
      const op = operation(def, { action: 'get', operationId: id, response: { type: 'string' }, schemaName: subSchema.schema, gvk: subSchema.gvk });
      const params = [...itemParams, ...(subDef.connectParameters ?? []).map((p) => ({ name: p.name, in: 'query' as const, type: p.type, uniqueItems: true }))];
      add(`${root}${nsPath}/${def.plural}/{name}/${sub}`, params.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), 'get', { ...op, produces: ['text/plain', ...op.produces] });
      continue;
    }
    for (const { verb, action } of SUBRESOURCE_ACTIONS) {
      if (!subDef.verbs.includes(verb)) continue;
      const id = `${ACTIONS[action].word}${gvWord}${scopeWord}${def.kind}${capitalize(sub)}`;
      const spec = { action, operationId: id, response: { $ref: definitionRef(subSchema.schema) }, schemaName: subSchema.schema, gvk: subSchema.gvk };
      add(`${root}${nsPath}/${def.plural}/{name}/${sub}`, itemParams, ACTIONS[action].method, operation(def, spec));
    }
  }
  return paths;
}

interface WatchPathsInput {
  readonly def: ResourceDefinition;
  readonly schemas: ResourceSchemas;
  readonly gvk: GroupVersionKind;
  readonly root: string;
  readonly gvWord: string;
  readonly scopeWord: string;
  readonly nsPath: string;
  readonly scopeParams: readonly SwaggerParameter[];
  readonly add: (path: string, parameters: readonly SwaggerParameter[], method: HttpMethod, op: SwaggerOperation) => void;
}

// The /watch/ paths are deprecated in favour of ?watch=true but kube-apiserver still
// serves and publishes them.
function addWatchPaths(w: WatchPathsInput): void {
  const event = { $ref: definitionRef(WATCH_EVENT) };
  const base = { response: event, schemaName: w.schemas.kind, gvk: w.gvk };
  const listParams = [...w.scopeParams, PRETTY, ...LIST_PARAMETERS];
  const { def } = w;
  w.add(`${w.root}/watch${w.nsPath}/${def.plural}`, listParams, 'get', operation(def, { ...base, action: 'watchlist', operationId: `watch${w.gvWord}${w.scopeWord}${def.kind}List` }));
  w.add(`${w.root}/watch${w.nsPath}/${def.plural}/{name}`, [pathParameter('name'), ...listParams], 'get', operation(def, { ...base, action: 'watch', operationId: `watch${w.gvWord}${w.scopeWord}${def.kind}` }));
  if (def.scope === 'Namespaced') {
    w.add(`${w.root}/watch/${def.plural}`, [PRETTY, ...LIST_PARAMETERS], 'get', operation(def, { ...base, action: 'watchlist', operationId: `watch${w.gvWord}${def.kind}ListForAllNamespaces` }));
  }
}
