// The 406/415 matrix: Accept and Content-Type values through every verb, with
// kube-apiserver's answers (handlers/negotiation NegotiateOutputMediaType and
// NegotiateInputSerializer over goautoneg's Accept parsing, RequestScope's
// AllowsMediaTypeTransform, response.go's transforms, patch.go's patch-type check)
// as data. CBOR is not served (the CBORServingAndStorage gate is off), so
// application/cbor is an unknown media type both ways. Built-in ConfigMaps: they
// have a protobuf message, Table and strategic merge patch.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { protobufCodec } from '../../src/codecs/protobuf.js';
import { createBuiltinHttpHarness } from '../support/store-harness.js';
import type { Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const PB = 'application/vnd.kubernetes.protobuf';
const CBOR = 'application/cbor';
const TABLE_V1 = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const TABLE_V1BETA1 = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io';
const KUBECTL_GET = `${TABLE_V1},${TABLE_V1BETA1},application/json`;
const POM = (v: string, type = 'application/json') => `${type};as=PartialObjectMetadata;g=meta.k8s.io;v=${v}`;
const POML = (v: string, type = 'application/json') => `${type};as=PartialObjectMetadataList;g=meta.k8s.io;v=${v}`;

const NOT_ACCEPTABLE = `only the following media types are accepted: application/json, application/yaml, ${PB}`;
const NOT_ACCEPTABLE_STREAM = `only the following media types are accepted: application/json;stream=watch, ${PB};stream=watch`;
const UNSUPPORTED = `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PB}`;
// kube lists application/apply-patch+yaml after these (server-side apply); see the report.
const UNSUPPORTED_PATCH =
  'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json';

type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

interface Want {
  readonly status: number;
  /** The answer's media type; compared without parameters unless it has some. */
  readonly contentType?: string;
  /** The kind of a JSON or YAML answer. */
  readonly kind?: string;
  readonly reason?: string;
  readonly messageIncludes?: string;
}

interface Row {
  readonly name: string;
  readonly verb: Verb;
  readonly accept?: string;
  readonly contentType?: string;
  readonly want: Want;
}

const ok = (status: number, contentType: string, kind?: string): Want => ({ status, contentType, ...(kind === undefined ? {} : { kind }) });
const notAcceptable = (message = NOT_ACCEPTABLE): Want => ({ status: 406, reason: 'NotAcceptable', messageIncludes: message });
const unsupported = (message = UNSUPPORTED): Want => ({ status: 415, reason: 'UnsupportedMediaType', messageIncludes: message });

const rows: Row[] = [
  // get: plain types
  { name: 'get: no Accept is JSON', verb: 'get', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: empty Accept is JSON', verb: 'get', accept: '', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: JSON', verb: 'get', accept: 'application/json', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: YAML', verb: 'get', accept: 'application/yaml', want: ok(200, 'application/yaml', 'ConfigMap') },
  { name: 'get: protobuf', verb: 'get', accept: PB, want: ok(200, PB) },
  { name: 'get: typed clientset >=1.32', verb: 'get', accept: `${PB},application/json`, want: ok(200, PB) },
  { name: 'get: CBOR (gate off) is 406', verb: 'get', accept: CBOR, want: notAcceptable() },
  { name: 'get: CBOR then JSON is JSON', verb: 'get', accept: `${CBOR},application/json`, want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: charset parameter ignored', verb: 'get', accept: 'application/json;charset=utf-8', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: stream=watch on JSON is allowed', verb: 'get', accept: 'application/json;stream=watch', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: stream=watch on YAML (no stream form) skips the entry', verb: 'get', accept: 'application/yaml;stream=watch', want: notAcceptable() },
  { name: 'get: an unknown stream kind skips the entry', verb: 'get', accept: 'application/json;stream=other,application/yaml', want: ok(200, 'application/yaml', 'ConfigMap') },
  { name: 'get: media types are case-sensitive', verb: 'get', accept: 'Application/JSON', want: notAcceptable() },
  // get: Table
  { name: 'get: Table v1', verb: 'get', accept: TABLE_V1, want: ok(200, 'application/json', 'Table') },
  { name: 'get: Table v1beta1', verb: 'get', accept: TABLE_V1BETA1, want: ok(200, 'application/json', 'Table') },
  { name: 'get: kubectl get (Table v1, v1beta1, JSON)', verb: 'get', accept: KUBECTL_GET, want: ok(200, 'application/json', 'Table') },
  { name: 'get: Table in YAML', verb: 'get', accept: 'application/yaml;as=Table;v=v1;g=meta.k8s.io', want: ok(200, 'application/yaml', 'Table') },
  { name: 'get: Table in protobuf is 406', verb: 'get', accept: `${PB};as=Table;v=v1;g=meta.k8s.io`, want: notAcceptable() },
  { name: 'get: Table in protobuf, then JSON', verb: 'get', accept: `${PB};as=Table;v=v1;g=meta.k8s.io,application/json`, want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: as=Table without g or v is 406', verb: 'get', accept: 'application/json;as=Table', want: notAcceptable() },
  { name: 'get: as=Table without v is 406', verb: 'get', accept: 'application/json;as=Table;g=meta.k8s.io', want: notAcceptable() },
  { name: 'get: as=Table without g is 406', verb: 'get', accept: 'application/json;as=Table;v=v1', want: notAcceptable() },
  { name: 'get: as=Table with a wrong v is 406', verb: 'get', accept: 'application/json;as=Table;v=v2;g=meta.k8s.io', want: notAcceptable() },
  { name: 'get: as=Table with a wrong g is 406', verb: 'get', accept: 'application/json;as=Table;v=v1;g=apps', want: notAcceptable() },
  { name: 'get: as=Table with a wrong g, then JSON', verb: 'get', accept: 'application/json;as=Table;v=v1;g=apps,application/json', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: g and v without as is 406', verb: 'get', accept: 'application/json;g=meta.k8s.io;v=v1', want: notAcceptable() },
  { name: 'get: an unknown as kind is 406', verb: 'get', accept: 'application/json;as=Foo;v=v1;g=meta.k8s.io', want: notAcceptable() },
  { name: 'get: */* with as=Table is a JSON Table', verb: 'get', accept: '*/*;as=Table;v=v1;g=meta.k8s.io', want: ok(200, 'application/json', 'Table') },
  { name: 'get: application/* with as=Table is a JSON Table', verb: 'get', accept: 'application/*;as=Table;v=v1;g=meta.k8s.io', want: ok(200, 'application/json', 'Table') },
  // get: PartialObjectMetadata
  { name: 'get: PartialObjectMetadata v1', verb: 'get', accept: POM('v1'), want: ok(200, 'application/json', 'PartialObjectMetadata') },
  { name: 'get: PartialObjectMetadata v1beta1', verb: 'get', accept: POM('v1beta1'), want: ok(200, 'application/json', 'PartialObjectMetadata') },
  { name: 'get: PartialObjectMetadata in YAML', verb: 'get', accept: POM('v1', 'application/yaml'), want: ok(200, 'application/yaml', 'PartialObjectMetadata') },
  { name: 'get: PartialObjectMetadata in protobuf', verb: 'get', accept: POM('v1', PB), want: ok(200, PB) },
  { name: 'get: PartialObjectMetadata with a wrong v is 406', verb: 'get', accept: POM('v2'), want: notAcceptable() },
  { name: 'get: PartialObjectMetadata with a wrong g is 406', verb: 'get', accept: 'application/json;as=PartialObjectMetadata;g=apps;v=v1', want: notAcceptable() },
  {
    name: 'get: PartialObjectMetadataList of one object is 406',
    verb: 'get',
    accept: POML('v1'),
    want: notAcceptable('you requested PartialObjectMetadataList, but the requested object is not a list'),
  },
  // get: wildcards and q-values
  { name: 'get: */* is JSON', verb: 'get', accept: '*/*', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: * alone is */*', verb: 'get', accept: '*', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: application/* is JSON', verb: 'get', accept: 'application/*', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: text/* is 406', verb: 'get', accept: 'text/*', want: notAcceptable() },
  { name: 'get: */json is not a wildcard', verb: 'get', accept: '*/json', want: notAcceptable() },
  { name: 'get: typed clientset <=1.31', verb: 'get', accept: 'application/json, */*', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: q=0 is still acceptable (kube orders by q only)', verb: 'get', accept: 'application/json;q=0', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: q=0 entry is tried last', verb: 'get', accept: 'application/yaml;q=0,application/json', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: q=0 entry after an unknown one', verb: 'get', accept: 'application/yaml;q=0,text/html', want: ok(200, 'application/yaml', 'ConfigMap') },
  { name: 'get: higher q first', verb: 'get', accept: 'application/json;q=0.5,application/yaml;q=0.9', want: ok(200, 'application/yaml', 'ConfigMap') },
  { name: 'get: equal q keeps order', verb: 'get', accept: 'application/yaml;q=0.5,application/json;q=0.5', want: ok(200, 'application/yaml', 'ConfigMap') },
  { name: 'get: unknown type, then a low-q wildcard', verb: 'get', accept: 'text/html,*/*;q=0.1', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: a concrete type before a wildcard whatever their q (goautoneg order)', verb: 'get', accept: '*/*;q=0.9,application/yaml;q=0.5', want: ok(200, 'application/yaml', 'ConfigMap') },
  { name: 'get: an unparsable q is q=0', verb: 'get', accept: 'application/yaml;q=x,application/json', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'get: browser Accept', verb: 'get', accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', want: ok(200, 'application/json', 'ConfigMap') },
  // get: unknown types and garbage
  { name: 'get: text/html is 406', verb: 'get', accept: 'text/html', want: notAcceptable() },
  { name: 'get: foo is 406', verb: 'get', accept: 'foo', want: notAcceptable() },
  { name: 'get: ;;; is 406', verb: 'get', accept: ';;;', want: notAcceptable() },
  { name: 'get: ,,, is 406', verb: 'get', accept: ',,,', want: notAcceptable() },
  { name: 'get: 10 KiB of garbage is 406', verb: 'get', accept: 'x'.repeat(10 * 1024), want: notAcceptable() },
  { name: 'get: 10 KiB of unknown entries, then JSON', verb: 'get', accept: `${'text/html,'.repeat(1024)}application/json`, want: ok(200, 'application/json', 'ConfigMap') },
  // list
  { name: 'list: JSON', verb: 'list', accept: 'application/json', want: ok(200, 'application/json', 'ConfigMapList') },
  { name: 'list: YAML', verb: 'list', accept: 'application/yaml', want: ok(200, 'application/yaml', 'ConfigMapList') },
  { name: 'list: protobuf', verb: 'list', accept: PB, want: ok(200, PB) },
  { name: 'list: CBOR is 406', verb: 'list', accept: CBOR, want: notAcceptable() },
  { name: 'list: kubectl get', verb: 'list', accept: KUBECTL_GET, want: ok(200, 'application/json', 'Table') },
  { name: 'list: Table v1beta1', verb: 'list', accept: TABLE_V1BETA1, want: ok(200, 'application/json', 'Table') },
  { name: 'list: Table with a wrong v is 406', verb: 'list', accept: 'application/json;as=Table;v=v3;g=meta.k8s.io', want: notAcceptable() },
  { name: 'list: PartialObjectMetadataList v1', verb: 'list', accept: POML('v1'), want: ok(200, 'application/json', 'PartialObjectMetadataList') },
  { name: 'list: PartialObjectMetadataList v1beta1', verb: 'list', accept: POML('v1beta1'), want: ok(200, 'application/json', 'PartialObjectMetadataList') },
  { name: 'list: PartialObjectMetadataList in protobuf', verb: 'list', accept: POML('v1', PB), want: ok(200, PB) },
  { name: 'list: PartialObjectMetadata of a list is 406', verb: 'list', accept: POM('v1'), want: notAcceptable('you requested PartialObjectMetadata, but the requested object is a list') },
  { name: 'list: text/html is 406', verb: 'list', accept: 'text/html', want: notAcceptable() },
  { name: 'list: q=0 is still acceptable', verb: 'list', accept: 'application/yaml;q=0', want: ok(200, 'application/yaml', 'ConfigMapList') },
  // watch
  { name: 'watch: no Accept is JSON lines', verb: 'watch', want: ok(200, 'application/json') },
  { name: 'watch: protobuf is a protobuf stream', verb: 'watch', accept: `${PB},application/json`, want: ok(200, `${PB};stream=watch`) },
  { name: 'watch: kubectl get -w (Table rows)', verb: 'watch', accept: KUBECTL_GET, want: ok(200, 'application/json') },
  { name: 'watch: YAML has no stream form: 406 listing stream types', verb: 'watch', accept: 'application/yaml', want: notAcceptable(NOT_ACCEPTABLE_STREAM) },
  { name: 'watch: CBOR is 406 listing the ordinary types', verb: 'watch', accept: CBOR, want: notAcceptable() },
  { name: 'watch: text/html is 406 listing the ordinary types', verb: 'watch', accept: 'text/html', want: notAcceptable() },
  // create
  { name: 'create: JSON', verb: 'create', contentType: 'application/json', want: ok(201, 'application/json', 'ConfigMap') },
  { name: 'create: JSON with charset', verb: 'create', contentType: 'application/json; charset=utf-8', want: ok(201, 'application/json', 'ConfigMap') },
  { name: 'create: media type case does not matter', verb: 'create', contentType: 'Application/JSON', want: ok(201, 'application/json', 'ConfigMap') },
  { name: 'create: YAML', verb: 'create', contentType: 'application/yaml', want: ok(201, 'application/json', 'ConfigMap') },
  { name: 'create: protobuf', verb: 'create', contentType: PB, accept: `${PB},application/json`, want: ok(201, PB) },
  { name: 'create: CBOR (gate off) is 415', verb: 'create', contentType: CBOR, want: unsupported() },
  { name: 'create: text/plain is 415', verb: 'create', contentType: 'text/plain', want: unsupported() },
  { name: 'create: a patch type is 415', verb: 'create', contentType: 'application/merge-patch+json', want: unsupported() },
  { name: 'create: ;;; is 415', verb: 'create', contentType: ';;;', want: unsupported() },
  { name: 'create: JSON with bad parameters is 415 (mime.ParseMediaType)', verb: 'create', contentType: 'application/json;;;', want: unsupported() },
  { name: 'create: JSON with a parameter without value is 415', verb: 'create', contentType: 'application/json;charset', want: unsupported() },
  { name: 'create: JSON with a trailing ; is JSON', verb: 'create', contentType: 'application/json;', want: ok(201, 'application/json', 'ConfigMap') },
  { name: 'create: 406 is checked before 415', verb: 'create', accept: 'text/html', contentType: 'text/plain', want: notAcceptable() },
  { name: 'create: Accept CBOR is 406', verb: 'create', accept: CBOR, contentType: 'application/json', want: notAcceptable() },
  { name: 'create: YAML answer', verb: 'create', accept: 'application/yaml', contentType: 'application/json', want: ok(201, 'application/yaml', 'ConfigMap') },
  { name: 'create: PartialObjectMetadata answer', verb: 'create', accept: POM('v1'), contentType: 'application/json', want: ok(201, 'application/json', 'PartialObjectMetadata') },
  // update
  { name: 'update: JSON', verb: 'update', contentType: 'application/json', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'update: YAML', verb: 'update', contentType: 'application/yaml', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'update: protobuf', verb: 'update', contentType: PB, accept: PB, want: ok(200, PB) },
  { name: 'update: CBOR is 415', verb: 'update', contentType: CBOR, want: unsupported() },
  { name: 'update: a patch type is 415', verb: 'update', contentType: 'application/json-patch+json', want: unsupported() },
  { name: 'update: 406 is checked before 415', verb: 'update', accept: CBOR, contentType: CBOR, want: notAcceptable() },
  { name: 'update: PartialObjectMetadata v1beta1 answer', verb: 'update', accept: POM('v1beta1'), contentType: 'application/json', want: ok(200, 'application/json', 'PartialObjectMetadata') },
  // patch
  { name: 'patch: JSON patch', verb: 'patch', contentType: 'application/json-patch+json', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'patch: merge patch', verb: 'patch', contentType: 'application/merge-patch+json', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'patch: strategic merge patch', verb: 'patch', contentType: 'application/strategic-merge-patch+json', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'patch: merge patch with charset', verb: 'patch', contentType: 'application/merge-patch+json; charset=utf-8', want: ok(200, 'application/json', 'ConfigMap') },
  { name: 'patch: apply patch in CBOR (gate off) is 415', verb: 'patch', contentType: 'application/apply-patch+cbor', want: unsupported(UNSUPPORTED_PATCH) },
  { name: 'patch: JSON is not a patch type', verb: 'patch', contentType: 'application/json', want: unsupported(UNSUPPORTED_PATCH) },
  { name: 'patch: CBOR is 415', verb: 'patch', contentType: CBOR, want: unsupported(UNSUPPORTED_PATCH) },
  { name: 'patch: no Content-Type is 415', verb: 'patch', want: unsupported(UNSUPPORTED_PATCH) },
  { name: 'patch: 415 is checked before 406', verb: 'patch', accept: 'text/html', contentType: 'text/plain', want: unsupported(UNSUPPORTED_PATCH) },
  { name: 'patch: Accept CBOR is 406', verb: 'patch', accept: CBOR, contentType: 'application/merge-patch+json', want: notAcceptable() },
  { name: 'patch: YAML answer', verb: 'patch', accept: 'application/yaml', contentType: 'application/merge-patch+json', want: ok(200, 'application/yaml', 'ConfigMap') },
  { name: 'patch: protobuf answer', verb: 'patch', accept: PB, contentType: 'application/strategic-merge-patch+json', want: ok(200, PB) },
  { name: 'patch: PartialObjectMetadata answer', verb: 'patch', accept: POM('v1'), contentType: 'application/json-patch+json', want: ok(200, 'application/json', 'PartialObjectMetadata') },
  // delete
  { name: 'delete: JSON', verb: 'delete', accept: 'application/json', want: ok(200, 'application/json') },
  { name: 'delete: YAML', verb: 'delete', accept: 'application/yaml', want: ok(200, 'application/yaml') },
  { name: 'delete: protobuf', verb: 'delete', accept: PB, want: ok(200, PB) },
  { name: 'delete: CBOR is 406', verb: 'delete', accept: CBOR, want: notAcceptable() },
  { name: 'delete: text/html is 406', verb: 'delete', accept: 'text/html', want: notAcceptable() },
  { name: 'delete: DeleteOptions in JSON', verb: 'delete', contentType: 'application/json', want: ok(200, 'application/json') },
  { name: 'delete: DeleteOptions in CBOR is 415', verb: 'delete', contentType: CBOR, want: unsupported() },
];

const CONFIG_MAP = { apiVersion: 'v1', kind: 'ConfigMap' };

/** A body for the verb in the Content-Type's format (JSON text is also YAML). */
function bodyFor(verb: Verb, contentType: string | undefined): string | Buffer | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  switch (verb) {
    case 'create':
    case 'update': {
      const obj = { ...CONFIG_MAP, metadata: { name: verb === 'create' ? 'new' : 'cm' }, data: { a: 'b' } };
      return type === PB ? protobufCodec.encode(obj) : JSON.stringify(obj);
    }
    case 'patch':
      return type === 'application/json-patch+json' ? JSON.stringify([{ op: 'add', path: '/data', value: { a: 'b' } }]) : JSON.stringify({ data: { a: 'b' } });
    case 'delete':
      return contentType === undefined ? undefined : JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1' });
    default:
      return undefined;
  }
}

const REQUEST: Record<Verb, { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string }> = {
  get: { method: 'GET', url: `${CM}/cm` },
  list: { method: 'GET', url: CM },
  watch: { method: 'GET', url: `${CM}?watch=true&timeoutSeconds=1` },
  create: { method: 'POST', url: CM },
  update: { method: 'PUT', url: `${CM}/cm` },
  patch: { method: 'PATCH', url: `${CM}/cm` },
  delete: { method: 'DELETE', url: `${CM}/cm` },
};

let h: Harness;
beforeEach(async () => {
  h = await createBuiltinHttpHarness();
  const res = await h.app.inject({ method: 'POST', url: CM, payload: { metadata: { name: 'cm' }, data: { x: 'y' } } });
  expect(res.statusCode).toBe(201);
});
afterEach(async () => h.close());

describe('negotiation matrix', () => {
  for (const row of rows) {
    test(row.name, async () => {
      const headers: Record<string, string> = {};
      if (row.accept !== undefined) headers.accept = row.accept;
      if (row.contentType !== undefined) headers['content-type'] = row.contentType;
      const payload = bodyFor(row.verb, row.contentType);
      const res = await h.app.inject({ ...REQUEST[row.verb], headers, ...(payload === undefined ? {} : { payload }) });
      const got = res.headers['content-type'];
      const text = res.rawPayload.toString('latin1');
      expect(res.statusCode, text.slice(0, 300)).toBe(row.want.status);
      const { contentType, kind, reason, messageIncludes } = row.want;
      if (contentType !== undefined) {
        expect(contentType.includes(';') ? got : String(got).split(';')[0]).toBe(contentType);
      }
      if (kind !== undefined) {
        // JSON and YAML; a watch answers no object here.
        expect(text).toMatch(String(got).startsWith('application/yaml') ? new RegExp(`^kind: ${kind}$`, 'm') : new RegExp(`^\\{"kind":"${kind}"`));
      }
      if (reason !== undefined) expect(text).toContain(reason);
      if (messageIncludes !== undefined) expect(text).toContain(messageIncludes);
    });
  }
});
