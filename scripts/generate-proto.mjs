#!/usr/bin/env node
// Derives kapi's protobuf wire definitions from the reference .proto files
// (../shared/reference/proto/k8s.io, Apache-2.0). Two outputs, both committed:
//   proto/k8s.io/**/generated.proto  names, numbers and types only (no comments);
//   src/generated/proto/*.ts         compact descriptors the codec loads at run time.
// The run-time descriptors are TypeScript modules (not .json files) so `tsc` emits
// them into dist/ like any source file: the server reads nothing outside the project.
// JSON field names come from the reference OpenAPI document, because a handful of
// proto names differ from the JSON names (`Webhooks` → `webhooks`, `Port` stays).
//
// Usage: node scripts/generate-proto.mjs [--reference <dir>] [--check]
// --check writes nothing and exits 1 if the committed output differs (drift test).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argIndex = process.argv.indexOf('--reference');
const referenceDir = resolve(argIndex > 0 ? process.argv[argIndex + 1] : join(projectRoot, '..', 'shared', 'reference'));
const referenceProto = join(referenceDir, 'proto');
const openapiPath = join(referenceDir, 'kubernetes-1.36-openapi-v2.json');
const protoOut = join(projectRoot, 'proto');
const generatedOut = join(projectRoot, 'src', 'generated', 'proto');

// Groups whose packages the OpenAPI document never mentions (not served as REST
// resources in 1.36, but their kinds still travel in protobuf, e.g. AdmissionReview
// to webhooks). Package directory → API group.
const EXTRA_GROUPS = {
  admission: 'admission.k8s.io',
  apidiscovery: 'apidiscovery.k8s.io',
  imagepolicy: 'imagepolicy.k8s.io',
};

// Kinds that exist as messages but have no x-kubernetes-group-version-kind entry:
// metadata-only objects and lists live in meta.k8s.io. (Table has no message: a
// protobuf Accept for it must fall back to JSON.)
const EXTRA_KINDS = [
  { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', message: 'k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata' },
  { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList', message: 'k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList' },
  { apiVersion: 'meta.k8s.io/v1beta1', kind: 'PartialObjectMetadataList', message: 'k8s.io.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList' },
  { apiVersion: 'v1', kind: 'List', message: 'k8s.io.api.core.v1.List' },
];

const SCALARS = new Set(['string', 'bytes', 'int32', 'int64', 'bool']);

function listProtoFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listProtoFiles(full));
    else if (entry.name.endsWith('.proto')) out.push(full);
  }
  return out.sort();
}

/** Keeps syntax, package, imports, messages and fields; drops comments and blank lines. */
function stripProto(source) {
  const withoutBlock = source.replace(/\/\*[\s\S]*?\*\//g, '');
  return (
    withoutBlock
      .split('\n')
      .map((line) => line.replace(/\/\/.*$/, '').trimEnd())
      .filter((line) => line.trim() !== '' && !/^\s*option\s/.test(line))
      .join('\n') + '\n'
  );
}

/** Stripped sources keyed by their path under proto/ (k8s.io/api/core/v1/generated.proto). */
function strippedProtos(files) {
  return new Map(files.map((file) => [relative(referenceProto, file), stripProto(readFileSync(file, 'utf8'))]));
}

function loadRoot(sources) {
  // Every file is parsed into one root, so imports need no resolving from disk.
  const root = new protobuf.Root();
  for (const source of sources.values()) protobuf.parse(source, root, { keepCase: true });
  root.resolveAll();
  return root;
}

function collectTypes(ns, out = []) {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type) out.push(nested);
    if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) collectTypes(nested, out);
    if (nested instanceof protobuf.Enum) throw new Error(`enums are not expected in k8s protos: ${nested.fullName}`);
  }
  return out;
}

const fullName = (type) => type.fullName.replace(/^\./, '');
const openapiName = (message) => message.replace(/^k8s\.io\./, 'io.k8s.');

/** JSON name for a proto field: the OpenAPI property it matches, else lower-camel. */
function jsonNameFor(field, properties) {
  if (properties !== undefined) {
    if (field.name in properties) return field.name;
    const lower = field.name.toLowerCase();
    const match = Object.keys(properties).find((p) => p.toLowerCase() === lower);
    if (match !== undefined) return match;
  }
  return field.name[0].toLowerCase() + field.name.slice(1);
}

/**
 * Go embeds some structs (`LocalObjectReference` in `SecretKeySelector`,
 * `VolumeSource` in `Volume`, `ProbeHandler` in `Probe`) with `json:",inline"`: the
 * proto keeps a nested message, the JSON flattens its fields into the parent. We
 * recognise them as a message field that is no JSON property of the parent while
 * the embedded message's own fields are.
 */
function isInline(field, properties, definitions) {
  if (properties === undefined || field.repeated || field.map || field.resolvedType === null) return false;
  if (jsonNameFor(field, properties) in properties) return false;
  const embedded = field.resolvedType;
  const embeddedProps = propertiesFor(fullName(embedded), definitions);
  return embedded.fieldsArray.some((f) => jsonNameFor(f, embeddedProps) in properties);
}

function fieldTypeName(field) {
  if (SCALARS.has(field.type)) return field.type;
  if (field.resolvedType === null) throw new Error(`unsupported field type ${field.type} in ${field.parent.fullName}`);
  return fullName(field.resolvedType);
}

/** The OpenAPI definition for a message, falling back to the same kind in a sibling version. */
function definitionFor(message, definitions) {
  const own = definitions[openapiName(message)];
  if (own !== undefined) return own;
  const m = /^k8s\.io\.api\.([^.]+)\.[^.]+\.(\w+)$/.exec(message);
  if (m === null) return undefined;
  const prefix = `io.k8s.api.${m[1]}.`;
  const sibling = Object.keys(definitions).find((k) => k.startsWith(prefix) && k.endsWith(`.${m[2]}`) && k.split('.').length === 6);
  return sibling === undefined ? undefined : definitions[sibling];
}

function propertiesFor(message, definitions) {
  const def = definitionFor(message, definitions);
  return def === undefined ? undefined : (def.properties ?? {});
}

function describePackages(types, definitions) {
  const packages = {};
  for (const type of types) {
    const name = fullName(type);
    const pkg = name.slice(0, name.lastIndexOf('.'));
    const properties = propertiesFor(name, definitions);
    // A sibling version's properties name fields well enough, but cannot tell
    // embedding apart from a renamed struct (node v1alpha1 RuntimeClass.spec).
    const ownDefinition = openapiName(name) in definitions;
    const required = new Set(definitionFor(name, definitions)?.required ?? []);
    const fields = [...type.fieldsArray]
      .sort((a, b) => a.id - b.id)
      .map((field) => {
        if (field.map) {
          if (field.keyType !== 'string') throw new Error(`non-string map key in ${name}.${field.name}`);
          return [field.id, jsonNameFor(field, properties), fieldTypeName(field), 'm'];
        }
        if (ownDefinition && isInline(field, properties, definitions)) return [field.id, '', fieldTypeName(field), 'i'];
        const jsonName = jsonNameFor(field, properties);
        const described = [field.id, jsonName, fieldTypeName(field), field.repeated ? 'r' : 'o'];
        // Required fields are the ones Go's JSON writes even when zero (no omitempty).
        return required.has(jsonName) ? [...described, 1] : described;
      });
    (packages[pkg] ??= {})[type.name] = fields;
  }
  return packages;
}

/** apiVersion/kind → message, from OpenAPI GVK markers plus every top-level object of a known group. */
function describeKinds(types, definitions) {
  const kinds = new Map();
  const groupOfPackage = new Map(Object.entries(EXTRA_GROUPS));
  const messages = new Set(types.map(fullName));
  const add = (apiVersion, kind, message) => {
    if (!kinds.has(`${apiVersion}/${kind}`)) kinds.set(`${apiVersion}/${kind}`, message);
  };
  for (const [defName, def] of Object.entries(definitions)) {
    const gvks = def['x-kubernetes-group-version-kind'];
    if (gvks === undefined) continue;
    const message = defName.replace(/^io\.k8s\./, 'k8s.io.');
    if (!messages.has(message)) continue;
    for (const gvk of gvks) {
      add(gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`, gvk.kind, message);
      const pkg = /^k8s\.io\.api\.([^.]+)\./.exec(message);
      if (pkg !== null && gvk.kind === message.slice(message.lastIndexOf('.') + 1)) groupOfPackage.set(pkg[1], gvk.group);
    }
  }
  for (const extra of EXTRA_KINDS) {
    if (!messages.has(extra.message)) throw new Error(`EXTRA_KINDS names a missing message ${extra.message}`);
    add(extra.apiVersion, extra.kind, extra.message);
  }
  // Served-version gaps (alpha and beta versions the 1.36 document omits) still
  // have top-level messages: anything with ObjectMeta or ListMeta in field 1.
  for (const type of types) {
    const name = fullName(type);
    const m = /^k8s\.io\.api\.([^.]+)\.([^.]+)\.(\w+)$/.exec(name);
    if (m === null || !groupOfPackage.has(m[1])) continue;
    const first = type.fieldsById[1];
    const metaType = first?.resolvedType === null || first === undefined ? '' : fullName(first.resolvedType);
    const isTopLevel = first?.name === 'metadata' && /meta\.v1\.(ObjectMeta|ListMeta)$/.test(metaType);
    const group = groupOfPackage.get(m[1]);
    if (isTopLevel || (m[1] === 'admission' && m[3] === 'AdmissionReview')) add(group === '' ? m[2] : `${group}/${m[2]}`, m[3], name);
  }
  return Object.fromEntries([...kinds.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const HEADER = '// Code generated by scripts/generate-proto.mjs from ../shared/reference. DO NOT EDIT.\n';

/** The run-time modules, keyed by file name under src/generated/proto. */
function generatedModules({ packages, kinds }) {
  // One JSON string per package: the codec parses a package the first time one of
  // its messages is used, so a cold start pays only for what it touches.
  const entries = Object.keys(packages)
    .sort()
    .map((pkg) => `  ${JSON.stringify(pkg)}:\n    ${JSON.stringify(JSON.stringify(packages[pkg]))},`);
  const messagesTs =
    `${HEADER}// Package name → JSON of { Message: [[fieldNumber, jsonName, type, label, required?], …] }\n` +
    `// label: 'o' optional, 'r' repeated, 'm' map<string, type>, 'i' a Go-embedded struct\n` +
    `// whose fields sit inline in the parent's JSON. required (1): OpenAPI lists the field\n` +
    `// as required. Fields are sorted by number.\n` +
    `export const packageDescriptors: Readonly<Record<string, string>> = {\n${entries.join('\n')}\n};\n`;
  const kindLines = Object.entries(kinds).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  const kindsTs =
    `${HEADER}// "<apiVersion>/<Kind>" → the protobuf message that carries it.\n` +
    `export const kindMessages: Readonly<Record<string, string>> = {\n${kindLines.join('\n')}\n};\n`;
  return new Map([
    ['messages.ts', messagesTs],
    ['kinds.ts', kindsTs],
  ]);
}

/** Every output file: absolute path → content. */
function outputs({ sources, modules }) {
  const all = new Map();
  for (const [rel, text] of sources) all.set(join(protoOut, rel), text);
  for (const [name, text] of modules) all.set(join(generatedOut, name), text);
  return all;
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

/** Paths whose committed content differs from `files`, plus stale extra files. */
function drift(files) {
  const stale = [...listFiles(join(protoOut, 'k8s.io')), ...listFiles(generatedOut)].filter((f) => !files.has(f));
  const changed = [...files].filter(([path, text]) => !existsSync(path) || readFileSync(path, 'utf8') !== text).map(([path]) => path);
  return [...changed, ...stale].map((p) => relative(projectRoot, p));
}

function write(files) {
  rmSync(join(protoOut, 'k8s.io'), { recursive: true, force: true });
  rmSync(generatedOut, { recursive: true, force: true });
  for (const [path, text] of files) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}


function main() {
  const files = listProtoFiles(join(referenceProto, 'k8s.io'));
  const sources = strippedProtos(files);
  const root = loadRoot(sources);
  const types = collectTypes(root);
  const definitions = JSON.parse(readFileSync(openapiPath, 'utf8')).definitions;
  const packages = describePackages(types, definitions);
  const kinds = describeKinds(types, definitions);
  const all = outputs({ sources, modules: generatedModules({ packages, kinds }) });
  if (process.argv.includes('--check')) {
    const differing = drift(all);
    if (differing.length > 0) {
      console.error(`generate-proto: out of date, run node scripts/generate-proto.mjs: ${differing.join(', ')}`);
      process.exit(1);
    }
    console.log('generate-proto: up to date');
    return;
  }
  write(all);
  console.log(
    `generate-proto: ${files.length} proto files, ${types.length} messages, ${Object.keys(kinds).length} kinds → ${relative(projectRoot, generatedOut)}`,
  );
}

main();
