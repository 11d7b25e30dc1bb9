// Mutators of the request around the body: Content-Type and other headers, the
// path (namespace, name, resource, non-canonical segments), the query, and the
// method. They never add a small ?timeout= (a 504 from it would be right).
import type { Transport } from './input.js';
import { FUZZ_NAMESPACE, KINDS } from './kinds.js';
import type { Rng } from './rng.js';
import { MEDIA } from './seeds.js';

export interface Draft {
  method: string;
  path: string;
  query: string;
  contentType: string | undefined;
  headers: Record<string, string>;
  transport: Transport;
  allowNoAnswer: boolean;
}

const CONTENT_TYPES: readonly (string | undefined)[] = [
  ...Object.values(MEDIA), undefined, '', 'text/plain', 'application/xml', 'application/cbor', 'application/apply-patch+cbor', 'application/apply-patch+json',
  'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/json;;', 'APPLICATION/JSON', 'application/yaml; charset=x',
  'application/vnd.kubernetes.protobuf;stream=watch', 'application/json-patch+json; q=0.5', '*/*', 'application/*', 'a/b/c', ';', 'application/merge-patch+json, application/json',
  'application/json; charset="ü"', 'multipart/form-data; boundary=x',
];
const ACCEPTS: readonly string[] = ['application/json', 'application/json, */*', '*/*', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;stream=watch', 'application/xml', 'text/html'];
const SEGMENTS: readonly string[] = ['', '.', '..', '%2e%2e', '%2E', '%2f', '%00', '%zz', 'UPPER', 'a'.repeat(300), 'nonexistent', 'default', 'kube-system', '%E2%98%83', 'a%20b', '__proto__', 'constructor', 'toString', 'fz-configmap-1', '-', '*'];
const SUBRESOURCES: readonly string[] = ['status', 'scale', 'finalize', 'token', 'exec', 'proxy', 'log', 'binding', 'eviction', 'ephemeralcontainers', 'attach', 'x'];
const QUERY_ADDITIONS: readonly string[] = [
  'fieldValidation=strict', 'fieldValidation=Bogus', 'fieldValidation=', 'dryRun=All&dryRun=All', 'dryRun=Bogus', 'dryRun=', 'timeout=abc', 'timeout=1h', 'timeout=-1s',
  'resourceVersion=abc', 'resourceVersion=0', 'resourceVersionMatch=Exact', 'pretty=maybe', 'pretty=1', `fieldManager=${'m'.repeat(200)}`, 'fieldManager=%C3%BC%E2%98%83',
  'fieldManager=', 'force=true', 'force=maybe', 'gracePeriodSeconds=x', 'propagationPolicy=Nope', 'labelSelector=a%3D%3D%3D', 'fieldSelector=metadata.name%3D', 'limit=-1',
  'labelSelector=__proto__%3Dx', 'labelSelector=constructor%20in%20(a,b)', 'labelSelector=a%20gt%209223372036854775808', 'labelSelector=!', 'labelSelector=a%20in%20(',
  `labelSelector=${'a%2C'.repeat(3000)}a`, 'labelSelector=a%20notin%20()', 'fieldSelector=metadata.__proto__%3Dx', 'fieldSelector=spec.nodeName%3D%3Dx,status.phase!%3D',
  'continue=%zz', '%zz=1', '=', '&&&', 'a', `x=${'y'.repeat(8000)}`, 'watch=true', 'allowWatchBookmarks=x', '__proto__=1', 'constructor=1', 'toString=x',
];

type RequestMutator = (d: Draft, rng: Rng) => void;

function segments(path: string): string[] {
  return path.split('/');
}

export const REQUEST_MUTATORS: Readonly<Record<string, RequestMutator>> = {
  'content-type'(d, rng) {
    d.contentType = rng.pick(CONTENT_TYPES);
  },
  accept(d, rng) {
    d.headers.accept = rng.pick(ACCEPTS);
  },
  'odd-header'(d, rng) {
    const [name, value] = rng.pick<[string, string]>([
      ['content-encoding', 'gzip'], ['content-encoding', 'br'], ['impersonate-user', 'nobody'], ['impersonate-user', 'system:admin'],
      ['impersonate-group', 'system:masters'], ['authorization', 'Bearer junk'], ['authorization', 'Basic Og=='], ['x-remote-user', 'admin'],
      ['warning', '299 - "x"'], ['x-big', 'b'.repeat(8000)], ['user-agent', 'fuzz/ü'.replace('ü', 'u') + '\u00e9'], ['audit-id', 'a'.repeat(1000)],
      ['if-match', '*'], ['expect', '100-continue'], ['x-forwarded-for', '::1, 999.1.1.1'],
      ['impersonate-uid', 'u-1'], ['impersonate-extra-__proto__', 'x'], ['impersonate-extra-%zz', 'y'], ['impersonate-extra-scopes', 'a'.repeat(5000)],
      ['impersonate-user', 'system:serviceaccount:a:b:c'], ['impersonate-user', 'system:serviceaccount::'], ['impersonate-group', ''],
    ]);
    d.headers[name] = value;
  },
  namespace(d, rng) {
    d.path = d.path.replace(`/namespaces/${FUZZ_NAMESPACE}/`, `/namespaces/${rng.pick(SEGMENTS)}/`);
  },
  name(d, rng) {
    const s = segments(d.path);
    // A collection path grows a name (POST to an item is a 405); an item path has its name replaced.
    if (isCollection(s)) s.push(rng.pick(SEGMENTS));
    else s[s.length - 1] = rng.pick(SEGMENTS);
    d.path = s.join('/');
  },
  resource(d, rng) {
    const s = segments(d.path);
    const i = isCollection(s) ? s.length - 1 : s.length - 2;
    s[i] = rng.chance(0.7) ? rng.pick(KINDS).resource : rng.pick(['foos', 'ConfigMaps', 'configmap', 'bindings', 'componentstatuses', '']);
    d.path = s.join('/');
  },
  subresource(d, rng) {
    const s = segments(d.path);
    if (!isCollection(s)) d.path = `${d.path}/${rng.pick(SUBRESOURCES)}`;
    else d.path = `${d.path}/fz-x/${rng.pick(SUBRESOURCES)}`;
  },
  'non-canonical'(d, rng) {
    const s = segments(d.path);
    const at = 1 + rng.int(Math.max(1, s.length - 1));
    s.splice(at, 0, rng.pick(['', '.', '..', '%2e', '%2e%2e', '.%2e']));
    d.path = s.join('/');
  },
  'path-case'(d, rng) {
    d.path = rng.chance(0.5) ? d.path.replace('/api/', '/API/') : d.path.replace('/v1/', '/V1/');
  },
  'path-percent'(d, rng) {
    const i = 1 + rng.int(Math.max(1, d.path.length - 1));
    const ch = d.path.charAt(i);
    if (ch !== '' && ch !== '/') d.path = d.path.slice(0, i) + rng.pick(['%' + ch.charCodeAt(0).toString(16), '%', '%g0', '%c3%28']) + d.path.slice(i + 1);
  },
  query(d, rng) {
    const add = rng.pick(QUERY_ADDITIONS);
    d.query = d.query === '' ? add : `${d.query}&${add}`;
  },
  method(d, rng) {
    d.method = rng.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'CONNECT-ISH']);
  },
  transport(d, rng) {
    if (d.transport !== 'raw') d.transport = rng.pick(['h1', 'h2'] as const);
  },
  'h2-content-length'(d, rng) {
    // A Content-Length the body does not match: an HTTP/2 stream error, which may end in a reset rather than an answer.
    d.headers['content-length'] = String(rng.pick([0, 1, 10, 99999999]));
    d.allowNoAnswer = true;
    d.transport = 'h2';
  },
};

function isCollection(s: string[]): boolean {
  const last = s[s.length - 1] ?? '';
  return KINDS.some((k) => k.resource === last);
}

export const REQUEST_MUTATOR_NAMES = Object.keys(REQUEST_MUTATORS);
