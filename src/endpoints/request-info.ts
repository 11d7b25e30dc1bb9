// First stop of every request: what the URL and method mean (verb, group, version,
// namespace, resource, name, subresource). Authorization, admission, audit and the
// installer's dispatch all read the result, so it must agree with kube-apiserver's
// RequestInfoFactory (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go) for
// every URL shape, including the odd ones (legacy /watch/ paths, namespaces/<ns>/status).
import { StatusError, badRequest } from '../errors/status-error.js';
import type { RequestInfo, RequestVerb } from './context.js';

const API_PREFIXES = new Set(['api', 'apis']);
/** Prefixes without a group segment: /api/v1/... is the core group. */
const GROUPLESS_PREFIXES = new Set(['api']);
/** Path segments that name the verb (/api/v1/watch/pods, /api/v1/proxy/...). */
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
/** After namespaces/<ns>, these are subresources of the namespace itself, not a resource. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const METHOD_VERBS: Readonly<Record<string, RequestVerb>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

const NON_RESOURCE_VERBS: ReadonlySet<string> = new Set(['get', 'head', 'options', 'post', 'put', 'patch', 'delete']);

function nonResourceVerb(method: string): RequestVerb {
  const lower = method.toLowerCase();
  // Methods outside the union (TRACE, CONNECT) never reach a route; 'get' keeps the type closed.
  return NON_RESOURCE_VERBS.has(lower) ? (lower as RequestVerb) : 'get';
}

/** kube's splitPath: leading and trailing slashes trimmed, every other slash splits (empty segments kept). */
function splitPath(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 0x2f) start++;
  while (end > start && path.charCodeAt(end - 1) === 0x2f) end--;
  if (start === end) return [];
  return path.slice(start, end).split('/');
}

/**
 * The path as Go's net/http hands it to kube-apiserver (req.URL.Path): percent-escapes
 * decoded before the path is split, so `%2F` separates segments and `%2e%2e` is `..`.
 * Undefined for a malformed escape (Go refuses those with 400 before any handler).
 */
function decodePath(path: string): string | undefined {
  // Most paths carry no escapes; decoding is needed only where a '%' appears.
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** apimachinery's bool query conversion: only "", "0" and "false" (any case) are false. */
function isTrueParam(value: string | null): boolean {
  return value !== null && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** `metadata.name=x` (or `==`) as the only requirement on that field: list/watch of one name. */
function exactNameFromFieldSelector(selector: string | null): string {
  if (selector === null || selector === '') return '';
  for (const term of selector.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m !== null && !term.includes('!=')) {
      const name = m[1]!;
      // Mirrors path.IsValidPathSegmentName: a name usable in a URL.
      return name === '.' || name === '..' || /[/%]/.test(name) ? '' : name;
    }
  }
  return '';
}

function nonResource(path: string, method: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: nonResourceVerb(method),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}

/** Resolves method + URL (path and query) into the apiserver's RequestInfo. */
export function resolveRequestInfo(method: string, url: string): RequestInfo {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  // A malformed escape keeps the raw path: pathProblem refuses it, nothing routes on it.
  const path = decodePath(rawPath) ?? rawPath;
  let parts = splitPath(path);

  if (parts.length < 3 || !API_PREFIXES.has(parts[0]!)) return nonResource(path, method);
  const apiPrefix = parts[0]!;
  parts = parts.slice(1);
  let apiGroup = '';
  if (!GROUPLESS_PREFIXES.has(apiPrefix)) {
    // /apis/<group>/<version> alone is group-version discovery, a non-resource path.
    if (parts.length < 3) return nonResource(path, method);
    apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  const apiVersion = parts[0]!;
  parts = parts.slice(1);

  let verb: RequestVerb;
  if (SPECIAL_VERBS.has(parts[0]!)) {
    // kube answers an error for a bare /watch; a non-resource request 404s just the same.
    if (parts.length < 2) return nonResource(path, method);
    verb = parts[0] as RequestVerb;
    parts = parts.slice(1);
  } else {
    const upper = method.toUpperCase();
    verb = (Object.hasOwn(METHOD_VERBS, upper) ? METHOD_VERBS[upper] : undefined) ?? nonResourceVerb(method);
  }

  let namespace = '';
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1]!;
      // namespaces/<ns>/<resource>/... addresses a resource inside the namespace;
      // namespaces/<ns>[/status|/finalize] addresses the namespace object itself.
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
    }
  }

  const resource = parts[0] ?? '';
  let name = parts[1] ?? '';
  // proxy keeps everything after the name as the proxied path, not a subresource.
  const subresource = parts.length >= 3 && verb !== 'proxy' ? parts[2]! : '';

  let query: URLSearchParams | undefined;
  if (name === '' && verb === 'get') {
    query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    verb = isTrueParam(query.get('watch')) ? 'watch' : 'list';
    name = exactNameFromFieldSelector(query.get('fieldSelector'));
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';

  const info: RequestInfo = { isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts };
  if ((verb !== 'list' && verb !== 'watch' && verb !== 'deletecollection') || q < 0) return info;
  query ??= new URLSearchParams(url.slice(q + 1));
  const labelSelector = query.get('labelSelector') ?? '';
  const fieldSelector = query.get('fieldSelector') ?? '';
  if (labelSelector === '' && fieldSelector === '') return info;
  return { ...info, ...(labelSelector === '' ? {} : { labelSelector }), ...(fieldSelector === '' ? {} : { fieldSelector }) };
}

/** apimachinery's path.IsValidPathSegmentName: what a namespace or name in a URL may not be. */
function segmentNameProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const problems: string[] = [];
  for (const illegal of ['/', '%']) if (name.includes(illegal)) problems.push(`may not contain '${illegal}'`);
  return problems;
}

/**
 * Why a URL must not be served as it reads, or undefined when it may. Non-canonical
 * resource paths never reach another object: an empty segment (`/api/v1//configmaps`,
 * `namespaces//configmaps`) or a `.`/`..` segment where no name belongs matches no
 * route (404, as go-restful's router in kube-apiserver); a namespace or name that
 * apimachinery's IsValidPathSegmentName refuses (`.`, `..`, containing `%`, also
 * when sent encoded) is a 400 with the message of kube's storage key functions
 * (`Name parameter invalid: "..": may not be '..'`). kube-apiserver itself lets a
 * namespace of `..` reach storage (and a 500 "invalid key" from etcd3), and lists every
 * namespace for `namespaces//configmaps`; kapi refuses both (kubernetes#119269).
 */
export function pathProblem(url: string, info: RequestInfo): StatusError | undefined {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  if (decodePath(rawPath) === undefined) return badRequest('the request URL is not valid: it holds a malformed percent-escape');
  if (!info.isResourceRequest) return undefined;
  const segments = splitPath(info.path);
  // Walk the segments as resolveRequestInfo does, noting where the namespace and name sit.
  let i = info.apiPrefix === 'api' ? 2 : 3;
  if (SPECIAL_VERBS.has(segments[i]!) && segments.length > i + 1) i++;
  let namespaceAt = -1;
  let partsAt = i;
  if (segments[i] === 'namespaces' && segments.length > i + 1) {
    namespaceAt = i + 1;
    if (segments.length > i + 2 && !NAMESPACE_SUBRESOURCES.has(segments[i + 2]!)) partsAt = i + 2;
  }
  const nameAt = segments.length > partsAt + 1 ? partsAt + 1 : -1;
  // A proxy's path after the name is the proxied service's, not ours to judge.
  const checkedLength = info.verb === 'proxy' && nameAt >= 0 ? nameAt + 1 : segments.length;
  for (let at = 0; at < checkedLength; at++) {
    const segment = segments[at]!;
    if (at === namespaceAt || at === nameAt) {
      if (segment === '') return notFoundPath();
      const problems = segmentNameProblems(segment);
      const label = at === nameAt ? 'Name' : 'Namespace';
      if (problems.length > 0) return badRequest(`${label} parameter invalid: ${JSON.stringify(segment)}: ${problems.join(';')}`);
    } else if (segment === '' || segment === '.' || segment === '..') {
      return notFoundPath();
    }
  }
  return undefined;
}

function notFoundPath(): StatusError {
  return new StatusError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} });
}
