// OpenAPI (structural) schema → CEL declaration types, following Kubernetes'
// SchemaDeclType table (k8s.io/apiserver/pkg/cel/common/schemas.go):
//   x-kubernetes-int-or-string → dyn; preserve-unknown-fields without properties → dyn;
//   object with properties → an object type (escaped field names); additionalProperties
//   → map(string, V); array → list(items); string formats byte → bytes, duration →
//   duration, date/date-time → timestamp; boolean/number/integer → bool/double/int.
//   Embedded resources always expose apiVersion, kind, metadata.name/generateName.
// Each type carries the largest size the value can have (maxLength, maxItems,
// maxProperties, else what fits in one request) for the cost estimator.
import type { OpenApiSchema as DefinitionSchema } from '../schema/definitions.js';

/** The OpenAPI schema shape plus the value bounds the cost estimator reads (CRD schemas carry them). */
export type OpenApiSchema = DefinitionSchema & {
  readonly maxItems?: number;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly maxProperties?: number;
  readonly items?: OpenApiSchema;
  readonly properties?: Readonly<Record<string, OpenApiSchema>>;
  readonly additionalProperties?: OpenApiSchema | boolean;
};
import { escapePropertyName } from './escaping.js';

/** kube-apiserver's request size cap, the bound on anything a schema leaves unbounded (apis/cel/config.go MaxRequestSizeBytes). */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

// Fixed JSON sizes Kubernetes uses for formatted strings (apiserver/pkg/cel/types.go).
const MAX_DURATION_SIZE_JSON = 32;
const JSON_DATE_SIZE = 10;
const MAX_DATETIME_SIZE_JSON = 35;

export type DeclKind = 'object' | 'map' | 'list' | 'scalar' | 'dyn';

export interface DeclType {
  readonly kind: DeclKind;
  /** The CEL type name in the base library's syntax (`int`, `list<string>`, an object type name). */
  readonly celType: string;
  /** Largest size() of a value (string length, list items, map entries); Infinity when unbounded. */
  readonly maxElements: number;
  /** Object fields by escaped name, each with the JSON property it reads. */
  readonly fields?: ReadonlyMap<string, DeclField>;
  /** List items or map values. */
  readonly elem?: DeclType;
  readonly listType?: 'atomic' | 'set' | 'map';
  readonly listMapKeys?: readonly string[];
  readonly schema: OpenApiSchema;
}

export interface DeclField {
  readonly jsonName: string;
  readonly type: DeclType;
}

const scalar = (celType: string, schema: OpenApiSchema, maxElements = 1): DeclType => ({ kind: 'scalar', celType, maxElements, schema });

/**
 * The declaration type of `schema` rooted at `name` (object types are named
 * after their path, so two rules over one schema share types; list items and
 * map values are `__items__` and `__values__`, which no escaped property name
 * can be, and which the base library's signature parser accepts, unlike `@items`). Undefined when the
 * schema cannot be typed (an array without items), like Kubernetes.
 */
export function declTypeOf(schema: OpenApiSchema, name: string): DeclType | undefined {
  if (schema['x-kubernetes-int-or-string'] === true) {
    return { kind: 'dyn', celType: 'dyn', maxElements: stringMax(schema), schema };
  }
  switch (schema.type) {
    case 'array': {
      if (schema.items === undefined) return undefined;
      const elem = declTypeOf(schema.items, `${name}.__items__`);
      if (elem === undefined) return undefined;
      return {
        kind: 'list', celType: `list<${elem.celType}>`, elem, schema,
        maxElements: bound(schema.maxItems, MAX_REQUEST_SIZE_BYTES - 2, minSerializedSize(schema.items) + 1),
        listType: schema['x-kubernetes-list-type'],
        listMapKeys: schema['x-kubernetes-list-map-keys'],
      };
    }
    case 'object':
      return objectDecl(schema, name);
    case 'string':
      switch (schema.format) {
        case 'byte': return scalar('bytes', schema, stringMax(schema));
        case 'duration': return scalar('google.protobuf.Duration', schema);
        case 'date':
        case 'date-time': return scalar('google.protobuf.Timestamp', schema);
        default: return scalar('string', schema, stringMax(schema));
      }
    case 'boolean': return scalar('bool', schema);
    case 'number': return scalar('double', schema);
    case 'integer': return scalar('int', schema);
    default:
      return schema['x-kubernetes-preserve-unknown-fields'] === true
        ? { kind: 'dyn', celType: 'dyn', maxElements: MAX_REQUEST_SIZE_BYTES, schema }
        : undefined;
  }
}

function objectDecl(schema: OpenApiSchema, name: string): DeclType | undefined {
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  const props = embedded ? withTypeAndObjectMeta(schema.properties) : schema.properties;
  if (props === undefined || Object.keys(props).length === 0) {
    const ap = schema.additionalProperties;
    if (typeof ap === 'object') {
      const elem = declTypeOf(ap, `${name}.__values__`);
      if (elem === undefined) return undefined;
      return {
        kind: 'map', celType: `map<string, ${elem.celType}>`, elem, schema,
        maxElements: bound(schema.maxProperties, MAX_REQUEST_SIZE_BYTES - 2, minSerializedSize(ap) + 6),
      };
    }
    if (schema['x-kubernetes-preserve-unknown-fields'] === true) {
      return { kind: 'dyn', celType: 'dyn', maxElements: MAX_REQUEST_SIZE_BYTES, schema };
    }
  }
  const fields = new Map<string, DeclField>();
  for (const jsonName of Object.keys(props ?? {})) {
    const escaped = escapePropertyName(jsonName);
    const prop = props![jsonName]!;
    const type = escaped === undefined ? undefined : declTypeOf(prop, `${name}.${escaped}`);
    if (escaped !== undefined && type !== undefined) fields.set(escaped, { jsonName, type });
  }
  return {
    kind: 'object', celType: name, fields, schema,
    maxElements: bound(schema.maxProperties, MAX_REQUEST_SIZE_BYTES - 2, 2),
  };
}

/** Embedded resources always have apiVersion, kind and metadata.name/generateName (schemas.go WithTypeAndObjectMeta). */
function withTypeAndObjectMeta(props: OpenApiSchema['properties']): NonNullable<OpenApiSchema['properties']> {
  const str: OpenApiSchema = { type: 'string' };
  return {
    ...props,
    apiVersion: str,
    kind: str,
    metadata: { type: 'object', properties: { name: str, generateName: str } },
  };
}

function stringMax(schema: OpenApiSchema): number {
  const maxLength = schema.maxLength;
  if (maxLength !== undefined) return maxLength;
  if (schema.enum !== undefined && schema['x-kubernetes-int-or-string'] !== true) {
    return Math.max(0, ...schema.enum.map((v) => (typeof v === 'string' ? v.length : 0)));
  }
  switch (schema.format) {
    case 'duration': return MAX_DURATION_SIZE_JSON;
    case 'date': return JSON_DATE_SIZE;
    case 'date-time': return MAX_DATETIME_SIZE_JSON;
    default: return MAX_REQUEST_SIZE_BYTES - 2; // the two quotes
  }
}

function bound(declared: number | undefined, budget: number, perItem: number): number {
  return declared ?? Math.floor(budget / perItem);
}

/** Smallest JSON a value of the schema can serialize to (types.go estimateMinSizeJSON, simplified to the common cases). */
function minSerializedSize(schema: OpenApiSchema): number {
  if (schema['x-kubernetes-int-or-string'] === true) return 1;
  switch (schema.type) {
    case 'string': {
      const minLength = schema.minLength ?? 0;
      return minLength + 2;
    }
    case 'boolean': return 4;
    case 'number':
    case 'integer': return 1;
    case 'array': return 2;
    case 'object': return 2;
    default: return 1;
  }
}
