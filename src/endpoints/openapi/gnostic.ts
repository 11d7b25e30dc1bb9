// Encodes the Swagger document as a gnostic `openapi.v2.Document`, the protobuf
// kubectl 1.27/1.28 require for create -f, apply, replace and explain (client-go
// OpenAPISchema()). kube-openapi produces it with gnostic's ParseDocument: every
// `x-` key becomes a NamedAny whose Any.yaml holds the value as YAML text, which
// cli-runtime decodes with a YAML parser. The descriptor comes from
// src/generated/gnostic (generated from proto/gnostic/openapiv2/OpenAPIv2.proto).
import yaml from 'js-yaml';
import protobuf from 'protobufjs';
import descriptor from '../../generated/gnostic/openapiv2.json' with { type: 'json' };
import type { OpenApiSchema } from '../../schema/definitions.js';
import { HTTP_METHODS, type SwaggerDocument, type SwaggerOperation, type SwaggerParameter, type SwaggerPathItem } from './swagger.js';

type Msg = Record<string, unknown>;

/** The openapi.v2 package, for encoding here and decoding in tests. */
export const gnosticV2 = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
const DocumentType = gnosticV2.lookupType('openapi.v2.Document');

function any(value: unknown): Msg {
  return { yaml: yaml.dump(value, { lineWidth: -1, noRefs: true }) };
}

function vendorExtensions(source: object): Msg[] {
  const out: Msg[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (name.startsWith('x-') && value !== undefined) out.push({ name, value: any(value) });
  }
  return out;
}

function schemaMessage(s: OpenApiSchema): Msg {
  const m: Msg = {};
  if (s.$ref !== undefined) m._ref = s.$ref;
  if (s.format !== undefined) m.format = s.format;
  if (s.description !== undefined) m.description = s.description;
  if (s.default !== undefined) m.default = any(s.default);
  if (s.required !== undefined) m.required = [...s.required];
  if (s.enum !== undefined) m.enum = s.enum.map(any);
  if (s.additionalProperties !== undefined) {
    m.additional_properties =
      typeof s.additionalProperties === 'boolean' ? { boolean: s.additionalProperties } : { schema: schemaMessage(s.additionalProperties) };
  }
  if (s.type !== undefined) m.type = { value: [s.type] };
  if (s.items !== undefined) m.items = { schema: [schemaMessage(s.items)] };
  if (s.allOf !== undefined) m.all_of = s.allOf.map(schemaMessage);
  if (s.properties !== undefined) {
    m.properties = { additional_properties: Object.entries(s.properties).map(([name, value]) => ({ name, value: schemaMessage(value) })) };
  }
  const ext = vendorExtensions(s);
  if (ext.length > 0) m.vendor_extension = ext;
  return m;
}

function parameterMessage(p: SwaggerParameter): Msg {
  if (p.in === 'body') {
    return {
      parameter: {
        body_parameter: { name: p.name, in: p.in, required: p.required === true, ...(p.schema ? { schema: schemaMessage(p.schema) } : {}) },
      },
    };
  }
  const sub = { name: p.name, in: p.in, required: p.required === true, type: p.type, unique_items: p.uniqueItems === true };
  const kind = p.in === 'path' ? 'path_parameter_sub_schema' : 'query_parameter_sub_schema';
  return { parameter: { non_body_parameter: { [kind]: sub } } };
}

function operationMessage(op: SwaggerOperation): Msg {
  return {
    tags: [...op.tags],
    operation_id: op.operationId,
    produces: [...op.produces],
    consumes: [...op.consumes],
    parameters: (op.parameters ?? []).map(parameterMessage),
    responses: {
      response_code: Object.entries(op.responses).map(([name, r]) => ({
        name,
        value: { response: { description: r.description, ...(r.schema ? { schema: { schema: schemaMessage(r.schema) } } : {}) } },
      })),
    },
    schemes: [...op.schemes],
    vendor_extension: vendorExtensions(op),
  };
}

function pathItemMessage(item: SwaggerPathItem): Msg {
  const m: Msg = {};
  for (const method of HTTP_METHODS) {
    const op = item[method];
    if (op !== undefined) m[method] = operationMessage(op);
  }
  if (item.parameters !== undefined) m.parameters = item.parameters.map(parameterMessage);
  return m;
}

/** The protobuf bytes of the document, as kube-openapi serves them on /openapi/v2. */
export function encodeGnosticV2(doc: SwaggerDocument): Uint8Array {
  const message = {
    swagger: doc.swagger,
    info: { title: doc.info.title, version: doc.info.version },
    paths: { path: Object.entries(doc.paths).map(([name, item]) => ({ name, value: pathItemMessage(item) })) },
    definitions: {
      additional_properties: Object.entries(doc.definitions).map(([name, s]) => ({ name, value: schemaMessage(s) })),
    },
    security: doc.security.map((req) => ({
      additional_properties: Object.entries(req).map(([name, scopes]) => ({ name, value: { value: [...scopes] } })),
    })),
    security_definitions: {
      additional_properties: Object.entries(doc.securityDefinitions).map(([name, d]) => ({ name, value: { api_key_security: { ...d } } })),
    },
  };
  // The message is built with the exact field names and JS types of the descriptor, so
  // it is encoded as is; fromObject would copy the whole tree once more.
  return DocumentType.encode(message).finish();
}
