// Compiled (Structural) schema → CEL declaration types, following Kubernetes'
// SchemaDeclType table (k8s.io/apiserver/pkg/cel/common/schemas.go):
//   x-kubernetes-int-or-string → dyn; preserve-unknown-fields without properties → dyn;
//   object with properties → an object type (escaped field names); additionalProperties
//   → map(string, V); array → list(items); string formats byte → bytes, duration →
//   duration, date/date-time → timestamp; boolean/number/integer → bool/double/int.
//   Embedded resources and resource roots always expose apiVersion, kind, metadata.name/generateName.
// Each type carries the largest size the value can have (maxLength, maxItems,
// maxProperties, else what fits in one request) for the cost estimator.
// Only Structural nodes are read here; raw schema JSON is schema/structural's.
import { compileStructural, type Structural } from '../schema/structural/index.js';
import { escapePropertyName } from './escaping.js';

/** kube-apiserver's request size cap, the bound on anything a schema leaves unbounded (apis/cel/config.go MaxRequestSizeBytes). */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

// Fixed JSON sizes Kubernetes uses for formatted strings (apiserver/pkg/cel/types.go).
const MAX_DURATION_SIZE_JSON = 32;
const JSON_DATE_SIZE = 10;
const MAX_DATETIME_SIZE_JSON = 35;

// apimachinery's DNS1123SubdomainMaxLength: what model.WithTypeAndObjectMeta caps
// metadata.name at (generateName one less, the generated suffix is at least a byte).
const NAME_MAX_LENGTH = 253;

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
}

export interface DeclField {
  readonly jsonName: string;
  readonly type: DeclType;
}

export interface DeclTypeOptions {
  /**
   * The root of a resource (a custom resource's schema root): apiVersion, kind and
   * metadata.name/generateName are readable even when the schema omits them, as on
   * an embedded resource (SchemaDeclType's isResourceRoot).
   */
  readonly resourceRoot?: boolean;
}

const scalar = (celType: string, maxElements = 1): DeclType => ({ kind: 'scalar', celType, maxElements });

/**
 * The declaration type of `node` rooted at `name` (object types are named
 * after their path, so two rules over one schema share types; list items and
 * map values are `__items__` and `__values__`, which no escaped property name
 * can be, and which the base library's signature parser accepts, unlike `@items`). Undefined when the
 * schema cannot be typed (an array without items), like Kubernetes.
 *
 * A built-in definition can reach itself (JSONSchemaProps' properties are
 * JSONSchemaProps): a node met again below itself is typed as an object with no
 * fields, the placeholder kube's reference resolver puts where a `$ref` cycles
 * (apiserver pkg/cel/openapi/resolver/refs.go), so the walk always ends.
 */
export function declTypeOf(node: Structural, name: string, options: DeclTypeOptions = {}): DeclType | undefined {
  try {
    return typeOf(node, name, options.resourceRoot === true, new Set());
  } catch (err) {
    // A schema nested past the stack (kube's Go stack would grow) is a client's
    // mistake, not a crash: it has no CEL type, so its rules report exactly that.
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

function typeOf(node: Structural, name: string, resourceRoot: boolean, onPath: Set<Structural>): DeclType | undefined {
  if (onPath.has(node)) return { kind: 'object', celType: name, fields: new Map(), maxElements: bound(undefined, MAX_REQUEST_SIZE_BYTES - 2, 2) };
  const x = node.extensions;
  if (x.intOrString) return { kind: 'dyn', celType: 'dyn', maxElements: stringMax(node) };
  switch (node.type) {
    case 'array': {
      if (node.items === undefined) return undefined;
      onPath.add(node);
      const elem = typeOf(node.items, `${name}.__items__`, node.items.extensions.embeddedResource, onPath);
      onPath.delete(node);
      if (elem === undefined) return undefined;
      return {
        kind: 'list', celType: `list<${elem.celType}>`, elem,
        maxElements: bound(node.validation?.maxItems, MAX_REQUEST_SIZE_BYTES - 2, minSerializedSize(node.items) + 1),
        listType: x.listType,
        listMapKeys: x.listMapKeys,
      };
    }
    case 'object': {
      onPath.add(node);
      const decl = objectDecl(node, name, resourceRoot, onPath);
      onPath.delete(node);
      return decl;
    }
    case 'string':
      switch (node.format) {
        case 'byte': return scalar('bytes', stringMax(node));
        case 'duration': return scalar('google.protobuf.Duration');
        case 'date':
        case 'date-time': return scalar('google.protobuf.Timestamp');
        default: return scalar('string', stringMax(node));
      }
    case 'boolean': return scalar('bool');
    case 'number': return scalar('double');
    case 'integer': return scalar('int');
    default:
      return x.preserveUnknownFields ? { kind: 'dyn', celType: 'dyn', maxElements: MAX_REQUEST_SIZE_BYTES } : undefined;
  }
}

function objectDecl(node: Structural, name: string, resourceRoot: boolean, onPath: Set<Structural>): DeclType | undefined {
  const props = resourceRoot || node.extensions.embeddedResource ? withTypeAndObjectMeta(node.properties) : node.properties;
  if (props === undefined || props.size === 0) {
    const ap = node.additionalProperties;
    if (typeof ap === 'object') {
      const elem = typeOf(ap, `${name}.__values__`, ap.extensions.embeddedResource, onPath);
      if (elem === undefined) return undefined;
      return {
        kind: 'map', celType: `map<string, ${elem.celType}>`, elem,
        maxElements: bound(node.validation?.maxProperties, MAX_REQUEST_SIZE_BYTES - 2, minSerializedSize(ap) + 6),
      };
    }
    if (node.extensions.preserveUnknownFields) {
      return { kind: 'dyn', celType: 'dyn', maxElements: MAX_REQUEST_SIZE_BYTES };
    }
  }
  const fields = new Map<string, DeclField>();
  for (const [jsonName, prop] of props ?? []) {
    const escaped = escapePropertyName(jsonName);
    const type = escaped === undefined ? undefined : typeOf(prop, `${name}.${escaped}`, prop.extensions.embeddedResource, onPath);
    if (escaped !== undefined && type !== undefined) fields.set(escaped, { jsonName, type });
  }
  return {
    kind: 'object', celType: name, fields,
    maxElements: bound(node.validation?.maxProperties, MAX_REQUEST_SIZE_BYTES - 2, 2),
  };
}

const STRING_NODE = compileStructural({ type: 'string' });

/**
 * A resource's apiVersion, kind and metadata.name/generateName are always there
 * (model.WithTypeAndObjectMeta): a schema that declares all four as strings is
 * kept; otherwise those are set, and metadata exposes only the two names, capped
 * at a DNS subdomain's length (or the schema's shorter maxLength).
 */
function withTypeAndObjectMeta(props: ReadonlyMap<string, Structural> | undefined): ReadonlyMap<string, Structural> {
  const metadata = props?.get('metadata');
  const metaProps = metadata?.properties;
  if (
    props?.get('kind')?.type === 'string' && props.get('apiVersion')?.type === 'string' && metadata?.type === 'object' &&
    metaProps?.get('name')?.type === 'string' && metaProps.get('generateName')?.type === 'string'
  ) {
    return props;
  }
  const out = new Map(props ?? []);
  out.set('kind', STRING_NODE);
  out.set('apiVersion', STRING_NODE);
  out.set('metadata', compileStructural({
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: cappedLength(metaProps?.get('name'), NAME_MAX_LENGTH) },
      generateName: { type: 'string', maxLength: cappedLength(metaProps?.get('generateName'), NAME_MAX_LENGTH - 1) },
    },
  }));
  return out;
}

function cappedLength(existing: Structural | undefined, cap: number): number {
  const declared = existing?.validation?.maxLength;
  return declared !== undefined && declared < cap ? declared : cap;
}

function stringMax(node: Structural): number {
  const v = node.validation;
  if (v?.maxLength !== undefined) return v.maxLength;
  if (v?.enum !== undefined && !node.extensions.intOrString) {
    return Math.max(0, ...v.enum.map((e) => (typeof e === 'string' ? e.length : 0)));
  }
  switch (node.format) {
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
function minSerializedSize(node: Structural): number {
  if (node.extensions.intOrString) return 1;
  switch (node.type) {
    case 'string': return (node.validation?.minLength ?? 0) + 2;
    case 'boolean': return 4;
    case 'number':
    case 'integer': return 1;
    case 'array': return 2;
    case 'object': return 2;
    default: return 1;
  }
}
