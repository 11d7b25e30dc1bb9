#!/usr/bin/env node
// Derives kapi's OpenAPI schema tables from the Kubernetes 1.36 reference document
// (../shared/reference, see its README) and copies the gnostic OpenAPI protos. The
// output is committed: at run time the server reads only src/generated/**, never the
// reference. Run: `node scripts/generate-openapi.mjs [--reference <dir>]`.
//
// Writes:
//   src/generated/openapi/definitions.json  every definition, names/types/markers only
//   proto/gnostic/openapiv{2,3}/*.proto     verbatim copies (wire definitions)
//   src/generated/gnostic/openapiv2.json    protobufjs descriptor of openapi.v2, so the
//                                           server needs no .proto parsing at start
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function referenceDir() {
  const i = process.argv.indexOf('--reference');
  if (i >= 0 && process.argv[i + 1] !== undefined) return resolve(process.argv[i + 1]);
  return process.env.KAPI_REFERENCE_DIR ?? resolve(projectRoot, '..', 'shared', 'reference');
}

// Schema keywords the server uses (validation, unknown-field detection, explain,
// strategic merge). Anything else (descriptions, examples) is dropped: the reference
// README asks that shown texts be our own words.
const KEPT_KEYWORDS = new Set([
  'type', 'format', 'properties', 'required', 'items', 'additionalProperties', '$ref',
  'enum', 'default', 'allOf', 'anyOf', 'oneOf', 'nullable',
]);

// Our own one-line descriptions for the kinds users explain most often; every other
// definition stays without text rather than carrying upstream prose.
const OWN_DESCRIPTIONS = {
  'io.k8s.api.core.v1.Pod': 'A group of containers scheduled together on one node, sharing network and volumes.',
  'io.k8s.api.core.v1.ConfigMap': 'Non-secret configuration data as string or binary key/value pairs.',
  'io.k8s.api.core.v1.Secret': 'Sensitive data as key/value pairs, kept apart from pod specifications.',
  'io.k8s.api.core.v1.Namespace': 'A scope for names; most namespaced objects live in exactly one.',
  'io.k8s.api.core.v1.Service': 'A stable virtual address and load-balancing policy in front of a set of pods.',
  'io.k8s.api.core.v1.ServiceAccount': 'An identity for processes running in pods.',
  'io.k8s.api.apps.v1.Deployment': 'Declarative rolling updates for a replicated set of pods.',
  'io.k8s.api.core.v1.Container': 'One container of a pod: image, command, ports, resources and probes.',
  'io.k8s.api.core.v1.PodSpec': 'What a pod should run and how.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': 'Metadata every persisted object carries: name, namespace, labels, annotations and system fields.',
};

// The reference document lost every property named `description` (its prose
// stripping took them for doc texts), so kinds that have one in Kubernetes 1.36
// would refuse it as an unknown field. They are put back here: PriorityClass's is
// field 4 of its message in the reference protos; the apiextensions ones are the
// documented fields of CRD schemas, printer columns and external docs.
const RESTORED_PROPERTIES = {
  'io.k8s.api.scheduling.v1.PriorityClass': { description: { type: 'string' } },
  'io.k8s.api.scheduling.v1beta1.PriorityClass': { description: { type: 'string' } },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps': { description: { type: 'string' } },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition': { description: { type: 'string' } },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation': { description: { type: 'string' } },
};

function restoreProperties(name, schema) {
  const restored = RESTORED_PROPERTIES[name];
  if (restored === undefined) return schema;
  const properties = { ...(schema.properties ?? {}) };
  for (const [key, value] of Object.entries(restored)) if (!Object.hasOwn(properties, key)) properties[key] = value;
  const sorted = {};
  for (const key of Object.keys(properties).sort()) sorted[key] = properties[key];
  return { ...schema, properties: sorted };
}

function stripSchema(schema) {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out = {};
  for (const key of Object.keys(schema).sort()) {
    if (!KEPT_KEYWORDS.has(key) && !key.startsWith('x-kubernetes-')) continue;
    const value = schema[key];
    if (key === 'properties') {
      out.properties = {};
      for (const name of Object.keys(value).sort()) out.properties[name] = stripSchema(value[name]);
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = stripSchema(value);
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      out[key] = value.map(stripSchema);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function generateDefinitions(reference) {
  const doc = JSON.parse(readFileSync(join(reference, 'kubernetes-1.36-openapi-v2.json'), 'utf8'));
  const definitions = {};
  for (const name of Object.keys(doc.definitions).sort()) {
    const schema = restoreProperties(name, stripSchema(doc.definitions[name]));
    const own = OWN_DESCRIPTIONS[name];
    definitions[name] = own === undefined ? schema : { description: own, ...schema };
  }
  return definitions;
}

function writeJson(relPath, value) {
  const path = join(projectRoot, relPath);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 1)}\n`);
  console.log(`wrote ${relPath}`);
}

function copyProtos(reference) {
  for (const rel of ['openapiv2/OpenAPIv2.proto', 'openapiv3/OpenAPIv3.proto']) {
    const to = join(projectRoot, 'proto/gnostic', rel);
    mkdirSync(dirname(to), { recursive: true });
    // Read and write rather than copy: the reference files are read-only and a copy
    // would keep that mode, so the next run could not overwrite them.
    writeFileSync(to, readFileSync(join(reference, 'proto/gnostic', rel)));
    console.log(`wrote proto/gnostic/${rel}`);
  }
}

function gnosticDescriptor() {
  // keepCase: field names stay as in the .proto (vendor_extension, _ref), which is what
  // the encoder in src/endpoints/openapi/gnostic.ts writes.
  const root = new protobuf.Root();
  root.loadSync(join(projectRoot, 'proto/gnostic/openapiv2/OpenAPIv2.proto'), { keepCase: true });
  root.resolveAll();
  return root.toJSON();
}

const reference = referenceDir();
writeJson('src/generated/openapi/definitions.json', generateDefinitions(reference));
copyProtos(reference);
writeJson('src/generated/gnostic/openapiv2.json', gnosticDescriptor());
