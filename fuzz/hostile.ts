// The explicit hostile inputs of issue 8 (and STYLE.md §11: a fix for a hostile
// input ships with that input as a seed here). Each is sent once unmutated at
// the start of every run, then mutated like any other seed. `expect` records
// kube-apiserver's answer where it is certain; everything else is held to the
// general invariants (no 5xx, Status bodies, no crash, no hang).
import type { Seed } from './input.js';
import { FUZZ_NAMESPACE, KINDS, poolName, resourcePath, type FuzzKind, type Json } from './kinds.js';
import { MEDIA } from './seeds.js';

const byKind = (k: string): FuzzKind => KINDS.find((x) => x.kind === k)!;
const CM = byKind('ConfigMap');
const CM_PATH = resourcePath(CM);
const CM_TARGET = resourcePath(CM, { name: poolName(CM, 0) });
const BAD = [400];
const BAD_PATCH = [400, 422];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'] as const;

const text = (s: string): Buffer => Buffer.from(s, 'utf8');
const cm = (name: string, extra: Record<string, Json> = {}): Json => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...extra });
const deepArray = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

/** 417 bytes: nine levels of nine aliases, ~387M "lol"s when expanded. */
export const BILLION_LAUGHS_YAML = [
  'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: fz-laughs', 'data:',
  '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  '  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', '  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  '  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]', '  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  '  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]', '  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  '  h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]', '  i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]', '',
].join('\n');

function deepSeeds(): Seed[] {
  const seeds: Seed[] = [];
  for (const depth of [10_000, 100_000]) {
    for (const [shape, deep] of [['array', deepArray(depth)], ['object', deepObject(depth)]] as const) {
      const tag = `${shape}-${depth}`;
      // kube's decoders stop at 10,000 levels; beyond is a 400 (patches: 400 or 422).
      const want = depth > 10_000 ? { status: BAD_PATCH } : undefined;
      const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-deep"},"data":{"a":${deep}}}`;
      seeds.push(
        { name: `hostile/deep-create-${tag}`, method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.json, format: 'text', text: text(body), expect: want },
        { name: `hostile/deep-update-${tag}`, method: 'PUT', path: CM_TARGET, contentType: MEDIA.json, format: 'text', text: text(body.replace('fz-deep', poolName(CM, 0))), expect: want },
        { name: `hostile/deep-merge-${tag}`, method: 'PATCH', path: CM_TARGET, contentType: MEDIA.mergePatch, format: 'text', text: text(`{"data":{"a":${deep}}}`), expect: want },
        { name: `hostile/deep-strategic-${tag}`, method: 'PATCH', path: CM_TARGET, contentType: MEDIA.strategic, format: 'text', text: text(`{"data":{"a":${deep}}}`), expect: want },
        { name: `hostile/deep-jsonpatch-${tag}`, method: 'PATCH', path: CM_TARGET, contentType: MEDIA.jsonPatch, format: 'text', text: text(`[{"op":"add","path":"/data/a","value":${deep}}]`), expect: want },
      );
    }
    seeds.push({ name: `hostile/deep-yaml-${depth}`, method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.yaml, format: 'text', text: text(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fz-deep\ndata:\n  a: ${deepArray(depth)}\n`) });
  }
  return seeds;
}

/** Wrongly typed fields: kube's decoder answers 400 on create/update, 400 or 422 on a patch. */
function wrongTypeSeeds(): Seed[] {
  const cases: { name: string; body: Record<string, Json> }[] = [
    { name: 'name-number', body: { metadata: { name: 15 } } },
    { name: 'name-array', body: { metadata: { name: ['fz-a'] } } },
    { name: 'name-bool', body: { metadata: { name: true } } },
    { name: 'namespace-number', body: { metadata: { name: 'fz-t', namespace: 7 } } },
    { name: 'generatename-object', body: { metadata: { generateName: { a: 'b' } } } },
    { name: 'labels-array', body: { metadata: { name: 'fz-t', labels: ['a', 'b'] } } },
    { name: 'label-value-number', body: { metadata: { name: 'fz-t', labels: { a: 1 } } } },
    { name: 'label-value-object', body: { metadata: { name: 'fz-t', labels: { a: { toString: 'a' } } } } },
    { name: 'annotations-string', body: { metadata: { name: 'fz-t', annotations: 'a=b' } } },
    { name: 'data-array', body: { metadata: { name: 'fz-t' }, data: ['a'] } },
    { name: 'data-value-number', body: { metadata: { name: 'fz-t' }, data: { a: 1 } } },
    { name: 'finalizers-string', body: { metadata: { name: 'fz-t', finalizers: 'example.com/f' } } },
    { name: 'finalizers-number', body: { metadata: { name: 'fz-t', finalizers: [1] } } },
    { name: 'ownerrefs-object', body: { metadata: { name: 'fz-t', ownerReferences: { apiVersion: 'v1' } } } },
    { name: 'ownerrefs-apiversion-number', body: { metadata: { name: 'fz-t', ownerReferences: [{ apiVersion: 1 }] } } },
    { name: 'creationtimestamp-number', body: { metadata: { name: 'fz-t', creationTimestamp: 5 } } },
    // Go's time.Parse takes the layout's T and Z in upper case only.
    { name: 'creationtimestamp-lowercase-t', body: { metadata: { name: 'fz-t', creationTimestamp: '2024-01-01t00:00:00Z' } } },
    { name: 'creationtimestamp-lowercase-z', body: { metadata: { name: 'fz-t', creationTimestamp: '2024-01-01T00:00:00z' } } },
    { name: 'immutable-string', body: { metadata: { name: 'fz-t' }, immutable: 'yes' } },
  ];
  const seeds: Seed[] = [];
  for (const c of cases) {
    const create = { apiVersion: 'v1', kind: 'ConfigMap', ...c.body } as Json;
    seeds.push(
      { name: `hostile/type-create-${c.name}`, method: 'POST', path: CM_PATH, contentType: MEDIA.json, format: 'json', doc: create, expect: { status: BAD }, resource: 'configmaps' },
      { name: `hostile/type-create-yaml-${c.name}`, method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.yaml, format: 'yaml', doc: create, expect: { status: BAD } },
      { name: `hostile/type-merge-${c.name}`, method: 'PATCH', path: CM_TARGET, contentType: MEDIA.mergePatch, format: 'json', doc: withoutName(c.body), expect: { status: BAD_PATCH }, resource: 'configmaps' },
      { name: `hostile/type-strategic-${c.name}`, method: 'PATCH', path: CM_TARGET, contentType: MEDIA.strategic, format: 'json', doc: withoutName(c.body), expect: { status: BAD_PATCH }, resource: 'configmaps' },
    );
  }
  const pod = byKind('Pod');
  seeds.push(
    { name: 'hostile/type-pod-containers-object', method: 'POST', path: resourcePath(pod), contentType: MEDIA.json, format: 'json', doc: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fz-t' }, spec: { containers: { name: 'c', image: 'x' } } }, expect: { status: BAD } },
    { name: 'hostile/type-pod-port-string', method: 'POST', path: resourcePath(pod), contentType: MEDIA.json, format: 'json', doc: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fz-t' }, spec: { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: '80' }] }] } }, expect: { status: BAD } },
    { name: 'hostile/type-namespace-name-number', method: 'POST', path: '/api/v1/namespaces', contentType: MEDIA.json, format: 'json', doc: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 15 } }, expect: { status: BAD } },
    { name: 'hostile/type-jsonpatch-labels-array', method: 'PATCH', path: CM_TARGET, contentType: MEDIA.jsonPatch, format: 'json', doc: [{ op: 'replace', path: '/metadata/labels', value: ['x'] }], expect: { status: BAD_PATCH } },
    { name: 'hostile/type-jsonpatch-finalizers-string', method: 'PATCH', path: CM_TARGET, contentType: MEDIA.jsonPatch, format: 'json', doc: [{ op: 'replace', path: '/metadata/finalizers', value: 'x' }], expect: { status: BAD_PATCH } },
    // YAML 1.2's 0o17 is kube's string "0o17" (sigs.k8s.io/yaml reads YAML 1.1), never the number 15.
    { name: 'hostile/yaml-name-0o17', method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.yaml, format: 'text', text: text('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 0o17\n'), expect: { name: '0o17' } },
    { name: 'hostile/yaml-label-0o17', method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.yaml, format: 'text', text: text('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fz-octal\n  labels:\n    a: 0o17\n') },
    { name: 'hostile/yaml-data-bool-yes', method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.yaml, format: 'text', text: text('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fz-yes\ndata:\n  a: yes\n  b: !!binary aGVsbG8=\n  c: 2001-12-14\n') },
  );
  return seeds;
}

function withoutName(body: Record<string, Json>): Json {
  const meta = body.metadata as Record<string, Json> | undefined;
  // A string name would be a rename (its own 400); a wrongly typed one is the point of the case.
  if (meta === undefined || typeof meta.name !== 'string') return body;
  const { name: _name, ...rest } = meta;
  return { ...body, metadata: rest };
}

/** Keys named after Object.prototype members, at every level, as ordinary data. */
function prototypeKeySeeds(): Seed[] {
  const seeds: Seed[] = [];
  PROTO_KEYS.forEach((key, i) => {
    const obj = (k: string, v: Json): Json => JSON.parse(`{${JSON.stringify(k)}:${JSON.stringify(v)}}`) as Json;
    const at = (where: string, doc: string, q: string, expect?: Seed['expect']): Seed => ({
      name: `hostile/protokey-${where}-${key}`, method: 'POST', path: CM_PATH, query: q, contentType: MEDIA.json, format: 'json', doc: JSON.parse(doc) as Json, expect, resource: 'configmaps',
    });
    const k = JSON.stringify(key);
    seeds.push(
      at('top', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-pk-top-${i}"},${k}:{"polluted":1}}`, 'fieldValidation=Strict&dryRun=All', { status: BAD }),
      at('top-warn', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-pk-topw-${i}"},${k}:{"polluted":1}}`, 'fieldValidation=Warn'),
      at('metadata', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-pk-meta-${i}",${k}:{"polluted":1}}}`, 'fieldValidation=Strict&dryRun=All', { status: BAD }),
      at('metadata-ignore', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-pk-metai-${i}",${k}:{"polluted":1}}}`, 'fieldValidation=Ignore'),
      // A valid ConfigMap key: stored and answered as data.
      at('data', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-pk-data-${i}"},"data":{${k}:"v"}}`, '', { status: [201], hasKeys: [['data', key]] }),
      at('label-value', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-pk-lv-${i}","labels":{"a":${JSON.stringify(obj(key, 'a'))}}}}`, '', { status: BAD }),
      at('annotation-key', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-pk-ann-${i}","annotations":{${k}:"x"}}}`, ''),
      at('binarydata', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-pk-bin-${i}"},"binaryData":{${k}:{"a":1}}}`, '', { status: BAD }),
      { name: `hostile/protokey-pod-spec-${key}`, method: 'POST', path: resourcePath(byKind('Pod')), query: 'fieldValidation=Strict&dryRun=All', contentType: MEDIA.json, format: 'json',
        doc: JSON.parse(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"fz-pk-pod"},"spec":{${k}:{"a":1},"containers":[{"name":"c","image":"x",${k}:1}]}}`) as Json, expect: { status: BAD } },
      { name: `hostile/protokey-smp-${key}`, method: 'PATCH', path: CM_TARGET, contentType: MEDIA.strategic, format: 'json', doc: JSON.parse(`{${k}:{"polluted":1},"metadata":{${k}:{"polluted":1}},"data":{${k}:"v"}}`) as Json, resource: 'configmaps' },
      { name: `hostile/protokey-merge-${key}`, method: 'PATCH', path: CM_TARGET, contentType: MEDIA.mergePatch, format: 'json', doc: JSON.parse(`{${k}:{"polluted":1},"metadata":{"labels":{${k}:"x"}}}`) as Json, resource: 'configmaps' },
    );
  });
  seeds.push({ name: 'hostile/proto-smp', method: 'PATCH', path: CM_TARGET, contentType: MEDIA.strategic, format: 'json', doc: JSON.parse('{"__proto__":{"polluted":1}}') as Json, resource: 'configmaps' });
  seeds.push({ name: 'hostile/proto-merge', method: 'PATCH', path: CM_TARGET, contentType: MEDIA.mergePatch, format: 'json', doc: JSON.parse('{"__proto__":{"polluted":1}}') as Json, resource: 'configmaps' });
  seeds.push({ name: 'hostile/proto-smp-text', method: 'PATCH', path: CM_TARGET, contentType: MEDIA.strategic, format: 'text', text: text('{"__proto__":{"polluted":1}}'), resource: 'configmaps' });
  const jsonPatchPaths: Json[] = [
    [{ op: 'add', path: '/__proto__/polluted', value: 1 }],
    [{ op: 'add', path: '/metadata/__proto__/polluted', value: 1 }],
    [{ op: 'add', path: '/constructor/prototype/polluted', value: 1 }],
    [{ op: 'add', path: '/data/constructor/prototype/polluted', value: 'x' }],
    [{ op: 'replace', path: '/__proto__', value: { polluted: 1 } }],
    [{ op: 'remove', path: '/__proto__' }],
    [{ op: 'remove', path: '/constructor/prototype' }],
    [{ op: 'copy', from: '/__proto__', path: '/data/x' }],
    [{ op: 'move', from: '/constructor/prototype', path: '/data/x' }],
    [{ op: 'test', path: '/__proto__', value: {} }],
    [{ op: 'add', path: '/data/__proto__', value: 'x' }],
    [{ op: 'add', path: '/metadata/labels/toString', value: 'x' }],
    [{ op: 'add', path: '/data/toString/x', value: 'x' }],
    [{ op: 'add', path: '/metadata/labels/__proto__/polluted', value: 'x' }],
  ];
  jsonPatchPaths.forEach((doc, i) => seeds.push({ name: `hostile/jsonpatch-proto-${i}`, method: 'PATCH', path: CM_TARGET, contentType: MEDIA.jsonPatch, format: 'json', doc, resource: 'configmaps' }));
  return seeds;
}

function yamlSeeds(): Seed[] {
  return [
    { name: 'hostile/yaml-billion-laughs', method: 'POST', path: CM_PATH, contentType: MEDIA.yaml, format: 'text', text: text(BILLION_LAUGHS_YAML), expect: { status: BAD } },
    { name: 'hostile/yaml-billion-laughs-put', method: 'PUT', path: CM_TARGET, contentType: MEDIA.yaml, format: 'text', text: text(BILLION_LAUGHS_YAML.replace('fz-laughs', poolName(CM, 0))), expect: { status: BAD } },
    { name: 'hostile/yaml-billion-laughs-apply', method: 'PATCH', path: CM_TARGET, query: 'fieldManager=fuzz', contentType: MEDIA.apply, format: 'text', text: text(BILLION_LAUGHS_YAML.replace('fz-laughs', poolName(CM, 0))), expect: { status: [415] } },
    { name: 'hostile/yaml-self-alias-map', method: 'POST', path: CM_PATH, contentType: MEDIA.yaml, format: 'text', text: text('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fz-alias\ndata: &a\n  k: *a\n') },
    { name: 'hostile/yaml-self-alias-seq', method: 'POST', path: CM_PATH, contentType: MEDIA.yaml, format: 'text', text: text('apiVersion: v1\nkind: ConfigMap\nmetadata: &m\n  name: fz-alias2\n  labels: *m\n') },
    { name: 'hostile/yaml-self-alias-flow', method: 'POST', path: CM_PATH, contentType: MEDIA.yaml, format: 'text', text: text('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fz-alias3\ndata: &a [*a]\n') },
    { name: 'hostile/yaml-merge-key', method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.yaml, format: 'text', text: text('base: &b {a: "1"}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fz-merge\ndata:\n  <<: *b\n  c: "2"\n') },
    { name: 'hostile/yaml-multi-doc', method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.yaml, format: 'text', text: text('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fz-multi\n---\napiVersion: v1\nkind: Secret\n') },
    { name: 'hostile/yaml-unknown-tag', method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.yaml, format: 'text', text: text('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: !!python/object:os.system fz-tag\n') },
  ];
}

/** Unknown fields whose names a header cannot carry as they are. */
function warningSeeds(): Seed[] {
  const names = ['ünknown', 'ключ', '字段', '😀field', 'a\r\nX-Injected: 1', 'nul\u0000byte', 'tab\tfield', '\ud800lone'];
  const seeds: Seed[] = [];
  names.forEach((field, i) => {
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-warn-${i}",${JSON.stringify(field)}:"x"},${JSON.stringify(field)}:1}`;
    for (const transport of ['h2', 'h1'] as const) {
      seeds.push(
        { name: `hostile/warn-create-${transport}-${i}`, method: 'POST', path: CM_PATH, query: 'fieldValidation=Warn&dryRun=All', contentType: MEDIA.json, format: 'text', text: text(body), transport },
        { name: `hostile/warn-merge-${transport}-${i}`, method: 'PATCH', path: CM_TARGET, query: 'fieldValidation=Warn', contentType: MEDIA.mergePatch, format: 'text', text: text(`{${JSON.stringify(field)}:1}`), transport },
      );
    }
    seeds.push({ name: `hostile/warn-strict-${i}`, method: 'POST', path: CM_PATH, query: 'fieldValidation=Strict', contentType: MEDIA.json, format: 'text', text: text(body), transport: 'h1', expect: { status: BAD } });
  });
  return seeds;
}

/** Paths with dot segments, empty segments and encoded dots: cleaned or refused, never routed to another object. */
function pathSeeds(): Seed[] {
  const paths = [
    '/api/v1/namespaces/../secrets',
    '/api/v1//configmaps',
    '/api/v1/namespaces//configmaps',
    '/api/v1/namespaces/%2e%2e/secrets',
    '/api/v1/namespaces/%2E%2E/secrets',
    `/api/v1/namespaces/${FUZZ_NAMESPACE}/configmaps/../../kube-system/secrets`,
    `/api/v1/namespaces/${FUZZ_NAMESPACE}/configmaps/%2e%2e`,
    `/api/v1/namespaces/${FUZZ_NAMESPACE}/configmaps/.`,
    '/api/v1/namespaces/./configmaps',
    '/api/./v1/namespaces',
    '/api//v1/namespaces',
    `/api/v1/namespaces/${FUZZ_NAMESPACE}%2fconfigmaps`,
    `/api/v1/namespaces/${FUZZ_NAMESPACE}/configmaps/${poolName(CM, 0)}/..`,
    '/api/v1/namespaces/kube-system/secrets/..%2f..%2fnamespaces',
  ];
  const seeds: Seed[] = paths.map((path, i) => ({ name: `hostile/path-get-${i}`, method: 'GET', path, format: 'none' as const }));
  seeds.push(
    { name: 'hostile/path-create-dotdot', method: 'POST', path: `/api/v1/namespaces/${FUZZ_NAMESPACE}/../default/configmaps`, contentType: MEDIA.json, format: 'json', doc: cm('fz-dotdot') },
    { name: 'hostile/path-create-empty-ns', method: 'POST', path: '/api/v1/namespaces//configmaps', contentType: MEDIA.json, format: 'json', doc: cm('fz-emptyns') },
    { name: 'hostile/path-delete-dotdot', method: 'DELETE', path: `/api/v1/namespaces/${FUZZ_NAMESPACE}/configmaps/../../default/configmaps/fz-none`, format: 'none' },
  );
  return seeds;
}

function sizeSeeds(): Seed[] {
  const big = 'x'.repeat(3.5 * 1024 * 1024);
  return [
    { name: 'hostile/oversized-create', method: 'POST', path: CM_PATH, contentType: MEDIA.json, format: 'text', text: text(JSON.stringify(cm('fz-big', { data: { a: big } }))), expect: { status: [413] } },
    { name: 'hostile/oversized-merge', method: 'PATCH', path: CM_TARGET, contentType: MEDIA.mergePatch, format: 'text', text: text(JSON.stringify({ data: { a: big } })), expect: { status: [413] } },
    { name: 'hostile/oversized-yaml-h1', method: 'POST', path: CM_PATH, contentType: MEDIA.yaml, format: 'text', text: text(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fz-big\ndata:\n  a: ${big}\n`), transport: 'h1', expect: { status: [413] } },
    { name: 'hostile/too-big-configmap', method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.json, format: 'text', text: text(JSON.stringify(cm('fz-big2', { data: { a: 'y'.repeat(2 * 1024 * 1024) } }))), expect: { status: [422] } },
  ];
}

function contentTypeSeeds(): Seed[] {
  const body = cm('fz-ct');
  const post = (name: string, contentType: string | undefined, expect?: Seed['expect'], format: Seed['format'] = 'json'): Seed => ({
    name: `hostile/content-type-${name}`, method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType, format, doc: body, expect,
  });
  return [
    post('text-plain', 'text/plain', { status: [415] }),
    post('xml', 'application/xml', { status: [415] }),
    post('missing', undefined),
    post('json-patch-on-post', MEDIA.jsonPatch, { status: [415] }),
    post('protobuf-with-json', MEDIA.protobuf, { status: BAD }),
    post('json-with-yaml', MEDIA.json, { status: BAD }, 'yaml'),
    post('yaml-with-protobuf', MEDIA.yaml, { status: BAD }, 'protobuf'),
    post('charset-utf16', 'application/json; charset=utf-16'),
    post('wildcard', '*/*', { status: [415] }),
    post('garbage', 'a/b/c;;;='),
    post('cbor', 'application/cbor'),
    { name: 'hostile/content-type-merge-on-put', method: 'PUT', path: CM_TARGET, contentType: MEDIA.mergePatch, format: 'json', doc: cm(poolName(CM, 0)), expect: { status: [415] } },
    { name: 'hostile/content-type-json-on-patch', method: 'PATCH', path: CM_TARGET, contentType: MEDIA.json, format: 'json', doc: { data: { a: 'b' } }, expect: { status: [415] } },
    { name: 'hostile/content-type-none-on-patch', method: 'PATCH', path: CM_TARGET, format: 'json', doc: { data: { a: 'b' } }, expect: { status: [415] } },
    { name: 'hostile/content-type-apply-json', method: 'PATCH', path: CM_TARGET, query: 'fieldManager=fuzz', contentType: 'application/apply-patch+json', format: 'json', doc: cm(poolName(CM, 0)), expect: { status: [415] } },
    { name: 'hostile/content-type-apply-cbor', method: 'PATCH', path: CM_TARGET, query: 'fieldManager=fuzz', contentType: 'application/apply-patch+cbor', format: 'json', doc: cm(poolName(CM, 0)), expect: { status: [415] } },
    { name: 'hostile/protobuf-bad-magic', method: 'POST', path: CM_PATH, contentType: MEDIA.protobuf, format: 'text', text: Buffer.from([0x6b, 0x38, 0x73, 0x01, 0x0a, 0x00]), expect: { status: BAD } },
    { name: 'hostile/protobuf-huge-length', method: 'POST', path: CM_PATH, contentType: MEDIA.protobuf, format: 'text', text: Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x12, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]), expect: { status: BAD } },
    { name: 'hostile/protobuf-runaway-varint', method: 'POST', path: CM_PATH, contentType: MEDIA.protobuf, format: 'text', text: Buffer.from([0x6b, 0x38, 0x73, 0x00, ...Array<number>(40).fill(0xff)]), expect: { status: BAD } },
  ];
}

/** Raw HTTP/1.1 requests: bodies that disagree with Content-Length, and requests Node's parser refuses. */
function rawSeeds(): Seed[] {
  const json = JSON.stringify(cm('fz-raw'));
  const head = (lines: string[]): string => [`POST ${CM_PATH}?dryRun=All HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', ...lines, '', ''].join('\r\n');
  const raw = (name: string, bytes: string, extra: Partial<Seed> = {}): Seed => ({ name: `hostile/raw-${name}`, method: 'RAW', path: CM_PATH, format: 'text', text: text(bytes), transport: 'raw', ...extra });
  return [
    raw('content-length-short', head([`Content-Length: ${json.length - 10}`, 'Connection: close']) + json),
    raw('content-length-nan', head(['Content-Length: abc', 'Connection: close']) + json, { expect: { status: BAD } }),
    raw('content-length-negative', head(['Content-Length: -1', 'Connection: close']) + json, { expect: { status: BAD } }),
    raw('content-length-twice', head([`Content-Length: ${json.length}`, `Content-Length: ${json.length + 1}`, 'Connection: close']) + json, { expect: { status: BAD } }),
    raw('content-length-huge', head(['Content-Length: 99999999999', 'Connection: close']) + json, { expect: { status: [413] }, allowNoAnswer: true }),
    raw('content-length-long-eof', head([`Content-Length: ${json.length + 100}`, 'Connection: close']) + json, { allowNoAnswer: true }),
    raw('content-length-and-chunked', head([`Content-Length: ${json.length}`, 'Transfer-Encoding: chunked', 'Connection: close']) + json, { expect: { status: BAD } }),
    raw('chunked-bad-size', head(['Transfer-Encoding: chunked', 'Connection: close']) + `zz\r\n${json}\r\n0\r\n\r\n`, { expect: { status: BAD } }),
    raw('bad-request-line', `GET /api/v1 HTTP/1.1 extra\r\nHost: x\r\nConnection: close\r\n\r\n`, { expect: { status: BAD } }),
    raw('header-without-colon', `GET /api/v1 HTTP/1.1\r\nHost: x\r\nno colon here\r\nConnection: close\r\n\r\n`, { expect: { status: BAD } }),
    // kube-apiserver reads 1 MiB of headers (Go's MaxHeaderBytes); past it, 431.
    raw('header-too-large', `GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1100 * 1024)}\r\nConnection: close\r\n\r\n`, { expect: { status: [431] } }),
    raw('header-large-under-limit', `GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\nConnection: close\r\n\r\n`, { expect: { status: [200, 401, 403] } }),
    raw('http-0.9', 'GET /api/v1\r\n\r\n', { allowNoAnswer: true }),
    raw('binary-garbage', '\x16\x03\x01\x00\xff\x00garbage\r\n\r\n', { expect: { status: BAD } }),
  ];
}

/**
 * Hostile inputs of pod warnings, bindings, evictions, ephemeral containers, resizes
 * and legacy tokens: n identical container ports (the port warnings once made n²/2
 * messages and stopped the server), Bindings with prototype-named keys and the wrong
 * kind, ephemeral containers and resizes with prototype-named keys and wrong types, a
 * legacy token Secret naming a prototype key as its account (the token controller reads it).
 */
function portBindingTokenSeeds(): Seed[] {
  const pod = byKind('Pod');
  const podName = poolName(pod, 0);
  const ports = Array.from({ length: 10_000 }, () => ({ containerPort: 80, protocol: 'TCP' }));
  const manyPorts = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fz-ports' }, spec: { containers: [{ name: 'c', image: 'nginx', ports }] } };
  const binding = (extra: Record<string, Json>): Json => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name: podName }, target: { kind: 'Node', name: 'node-1' }, ...extra });
  return [
    { name: 'hostile/pod-ports-10000', method: 'POST', path: resourcePath(pod), query: 'dryRun=All', contentType: MEDIA.json, format: 'json', doc: manyPorts as unknown as Json, resource: 'pods' },
    { name: 'hostile/binding-proto', method: 'POST', path: `${resourcePath(pod, { name: podName })}/binding`, query: 'dryRun=All', contentType: MEDIA.json, format: 'text', text: text(`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"${podName}","__proto__":{"name":"x"}},"target":{"kind":"Node","name":"n","__proto__":{"polluted":1}}}`), resource: 'pods' },
    { name: 'hostile/binding-wrong-kind', method: 'POST', path: `${resourcePath(pod, { name: podName })}/binding`, query: 'dryRun=All', contentType: MEDIA.json, format: 'json', doc: binding({ kind: 'ConfigMap' }), resource: 'pods' },
    // Evictions (dry runs, so the pool keeps its pods): prototype-named keys, and DeleteOptions of the wrong types.
    { name: 'hostile/eviction-proto', method: 'POST', path: `${resourcePath(pod, { name: podName })}/eviction`, query: 'dryRun=All', contentType: MEDIA.json, format: 'text', text: text(`{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"${podName}","__proto__":{"name":"x"}},"deleteOptions":{"__proto__":{"dryRun":[]},"preconditions":{"constructor":"x"}}}`), resource: 'pods' },
    // Ephemeral containers and resizes (dry runs): prototype-named containers and keys, forbidden members, lists of the wrong shape.
    { name: 'hostile/ephemeral-proto', method: 'PATCH', path: `${resourcePath(pod, { name: podName })}/ephemeralcontainers`, query: 'dryRun=All', contentType: MEDIA.strategic, format: 'text', text: text('{"spec":{"ephemeralContainers":[{"name":"__proto__","image":"busybox","constructor":{"x":1},"ports":[{"containerPort":1}]}],"__proto__":{"polluted":1}}}'), resource: 'pods' },
    { name: 'hostile/ephemeral-not-a-list', method: 'PATCH', path: `${resourcePath(pod, { name: podName })}/ephemeralcontainers`, query: 'dryRun=All', contentType: MEDIA.mergePatch, format: 'json', doc: { spec: { ephemeralContainers: { name: 'x' } } }, resource: 'pods' },
    { name: 'hostile/resize-proto', method: 'PATCH', path: `${resourcePath(pod, { name: podName })}/resize`, query: 'dryRun=All', contentType: MEDIA.strategic, format: 'text', text: text('{"spec":{"containers":[{"name":"__proto__","resources":{"limits":{"__proto__":"1","constructor":"2"}}}],"resources":{"requests":{"toString":"1"}}}}'), resource: 'pods' },
    { name: 'hostile/resize-types', method: 'PATCH', path: `${resourcePath(pod, { name: podName })}/resize`, query: 'dryRun=All', contentType: MEDIA.mergePatch, format: 'json', doc: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: [1] }, limits: 'x' }, resizePolicy: {} }] } }, resource: 'pods' },
    // pods/log: options of the wrong types and prototype-named containers (the fuzz pods have no node: 204 at best).
    { name: 'hostile/log-options', method: 'GET', path: `${resourcePath(pod, { name: podName })}/log`, query: 'tailLines=-1&limitBytes=abc&sinceTime=0001-13-01T00:00:00Z&follow=', format: 'none', resource: 'pods' },
    { name: 'hostile/log-proto-container', method: 'GET', path: `${resourcePath(pod, { name: podName })}/log`, query: 'container=__proto__&__proto__=x&constructor=1', format: 'none', resource: 'pods' },
    { name: 'hostile/eviction-options-types', method: 'POST', path: `${resourcePath(pod, { name: podName })}/eviction`, query: 'dryRun=All', contentType: MEDIA.json, format: 'json', doc: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: podName }, deleteOptions: { gracePeriodSeconds: '5', dryRun: 'All', preconditions: [] } }, expect: { status: BAD }, resource: 'pods' },
    {
      name: 'hostile/legacy-token-proto-account',
      method: 'POST',
      path: resourcePath(byKind('Secret')),
      query: 'dryRun=All',
      contentType: MEDIA.json,
      format: 'json',
      doc: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'fz-legacy', annotations: { 'kubernetes.io/service-account.name': '__proto__' } }, type: 'kubernetes.io/service-account-token' },
      resource: 'secrets',
    },
  ];
}

/** A list of `n` label-selector terms `l<i>=v` joined by commas. */
const selectorTerms = (n: number): string => Array.from({ length: n }, (_, i) => `l${i}=v`).join(',');

/** base64url of a JSON value, as JWT segments and continue tokens are written. */
const b64url = (value: Json): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Issue 32's transport faults: HTTP/2 bodies that announce neither length nor type,
 * resourceVersions on create that are no uint64, a service-account-shaped token with
 * an empty audience, methods no route serves, expectations other than 100-continue,
 * the User-Agents kube pretty-prints for, and paths of ~70 KB (HTTP/2, under nghttp2's
 * 64 KiB per encoded header field) and ~116 KB (HTTP/1.1).
 */
function transportSeeds(): Seed[] {
  const versions = ['99999999999999999999', '-1', '1e3', '05', '0', '', '+5', '0x5'];
  const emptyAudienceToken = [
    b64url({ alg: 'ES256', kid: 'fuzz' }),
    b64url({ iss: 'https://kubernetes.default.svc.cluster.local', aud: '', sub: 'system:serviceaccount:default:default', exp: 4102444800, 'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'default', uid: 'x' } } }),
    'c2lnbmF0dXJl',
  ].join('.');
  return [
    { name: 'hostile/h2-body-unframed', method: 'POST', path: CM_PATH, query: 'dryRun=All', format: 'json', doc: cm('fz-unframed'), unframed: true, expect: { status: [201] } },
    { name: 'hostile/h2-body-unframed-typed', method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.json, format: 'json', doc: cm('fz-unframed'), unframed: true, expect: { status: [201] } },
    ...versions.map((rv, i): Seed => ({ name: `hostile/rv-on-create-${i}`, method: 'POST', path: CM_PATH, query: 'dryRun=All', contentType: MEDIA.json, format: 'json', doc: cm('fz-rv', { metadata: { name: 'fz-rv', resourceVersion: rv } }), expect: { status: [201] } })),
    { name: 'hostile/rv-on-create-overflow-stored', method: 'POST', path: CM_PATH, contentType: MEDIA.json, format: 'json', doc: cm('fz-rv-overflow', { metadata: { name: 'fz-rv-overflow', resourceVersion: '18446744073709551616' } }), expect: { status: [201, 409] } },
    // The fuzzer's connections carry the admin certificate, which authenticates first
    // (kube's union stops at the first authenticator that answers): the forged token
    // beside it changes nothing. The audience rule itself is tested in test/e2e.
    { name: 'hostile/token-empty-audience', method: 'GET', path: CM_PATH, format: 'none', headers: { authorization: `Bearer ${emptyAudienceToken}` }, expect: { status: [200] } },
    { name: 'hostile/method-unknown-h2', method: 'FOO', path: CM_PATH, format: 'none', expect: { status: [405] } },
    { name: 'hostile/method-unknown-h2-body', method: 'FROB', path: CM_TARGET, contentType: MEDIA.json, format: 'json', doc: cm(poolName(CM, 0)), expect: { status: [405] } },
    { name: 'hostile/method-options-h2', method: 'OPTIONS', path: CM_PATH, format: 'none', expect: { status: [405] } },
    { name: 'hostile/expect-bogus-h2', method: 'GET', path: CM_PATH, format: 'none', headers: { expect: 'bogus' }, expect: { status: [417] } },
    { name: 'hostile/raw-expect-bogus', method: 'RAW', path: CM_PATH, format: 'text', transport: 'raw', text: text(`GET ${CM_PATH} HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nConnection: close\r\n\r\n`), expect: { status: [417] } },
    { name: 'hostile/raw-method-unknown', method: 'RAW', path: CM_PATH, format: 'text', transport: 'raw', text: text(`FROB ${CM_PATH} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), expect: { status: [405] } },
    { name: 'hostile/pretty-curl', method: 'GET', path: CM_PATH, format: 'none', headers: { 'user-agent': 'curl/8.5.0' }, expect: { status: [200] } },
    { name: 'hostile/pretty-browser-off', method: 'GET', path: CM_TARGET, query: 'pretty=0', format: 'none', headers: { 'user-agent': 'Mozilla/5.0 (X11)' }, expect: { status: [200] } },
    { name: 'hostile/continue-proto', method: 'GET', path: CM_PATH, query: `limit=1&continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"__proto__","__proto__":{"rv":"x"}}').toString('base64url')}`, format: 'none' },
    { name: 'hostile/h2-path-70k', method: 'GET', path: CM_PATH, query: `labelSelector=${selectorTerms(8_000)}`, format: 'none', expect: { status: [200] } },
    // Raw bytes: a mutation may move an h1 input to HTTP/2, where a path this long ends
    // the whole session (nghttp2's limit, README) and would fail other inputs with it.
    { name: 'hostile/raw-path-116k', method: 'RAW', path: CM_PATH, format: 'text', transport: 'raw', text: text(`GET ${CM_PATH}?labelSelector=${selectorTerms(14_300)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), expect: { status: [200] } },
  ];
}

/**
 * RBAC objects the authorizer's index reads (issue 23): prototype-named subjects,
 * role names and rule members, a binding to a missing role, and an impersonated
 * request the authorizer must refuse; none may reach Object.prototype or break a decision.
 */
function rbacSeeds(): Seed[] {
  const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${FUZZ_NAMESPACE}`;
  return [
    { name: 'hostile/rbac-role-proto', method: 'POST', path: `${rbac}/roles`, contentType: MEDIA.json, format: 'text', text: text('{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"fz-proto-role"},"rules":[{"apiGroups":["__proto__"],"resources":["constructor","*/__proto__"],"verbs":["toString","*"],"__proto__":{"verbs":["*"]}},{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"],"resourceNames":["__proto__"]}]}'), expect: { status: [201, 409] } },
    { name: 'hostile/rbac-binding-proto', method: 'POST', path: `${rbac}/rolebindings`, contentType: MEDIA.json, format: 'text', text: text('{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"fz-proto-binding"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"__proto__"},"subjects":[{"kind":"User","name":"__proto__"},{"kind":"Group","name":"constructor"},{"kind":"ServiceAccount","name":"tostring","namespace":"__proto__"}]}'), expect: { status: [201, 409] } },
    { name: 'hostile/rbac-binding-wrong-types', method: 'POST', path: `${rbac}/rolebindings`, contentType: MEDIA.json, format: 'json', doc: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'fz-types' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: ['x'] }, subjects: { kind: 'User' } }, expect: { status: [400] } },
    // The fuzzer is system:masters; impersonating someone without rights must be refused as that user.
    { name: 'hostile/impersonate-proto-user', method: 'GET', path: CM_PATH, format: 'none', headers: { 'impersonate-user': '__proto__', 'impersonate-group': 'constructor' }, expect: { status: [403] } },
  ];
}

export function hostileSeeds(): Seed[] {
  return [...transportSeeds(), ...rbacSeeds(), ...portBindingTokenSeeds(), ...prototypeKeySeeds(), ...yamlSeeds(), ...wrongTypeSeeds(), ...deepSeeds(), ...warningSeeds(), ...pathSeeds(), ...sizeSeeds(), ...contentTypeSeeds(), ...rawSeeds()];
}
