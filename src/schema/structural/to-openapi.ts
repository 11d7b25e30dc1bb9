// A compiled node written back as an OpenAPI v2 schema object, for publishing
// (/openapi/v2, and /openapi/v3 which converts from it): a use of another table
// definition is written as its `$ref` (with an overlay's own fields beside it),
// everything else inline, members in sorted order as the generated table has them.
// Writing every built-in definition back gives the table it was compiled from
// (test/schema/structural/compile.test.ts), so publishing from the compiled
// schema changes no published byte.
import type { OpenApiSchema } from '../definitions.js';
import { definitionRef } from '../definitions.js';
import type { NestedValueValidation, Structural, ValueValidation } from './structural.js';

/** The schema object of `node`; `node` itself is written inline even when it is a definition. */
export function toOpenApi(node: Structural): OpenApiSchema {
  return sorted(inline(node));
}

function use(node: Structural): Record<string, unknown> {
  if (node.name === undefined) return sorted(inline(node));
  if (node.overlay === undefined) return { $ref: definitionRef(node.name) };
  return sorted({ $ref: definitionRef(node.name), ...node.overlay });
}

function inline(node: Structural): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (node.type !== undefined) out.type = node.type;
  if (node.format !== undefined) out.format = node.format;
  if (node.title !== undefined) out.title = node.title;
  if (node.description !== undefined) out.description = node.description;
  if (node.nullable) out.nullable = true;
  if (node.hasDefault) out.default = node.default;
  if (node.properties !== undefined) {
    const props: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [key, child] of node.properties) props[key] = use(child);
    out.properties = props;
  }
  const ap = node.additionalProperties;
  if (ap !== undefined) out.additionalProperties = typeof ap === 'boolean' ? ap : use(ap);
  if (node.items !== undefined) out.items = use(node.items);
  if (node.validation !== undefined) writeValidation(out, node.validation);
  const x = node.extensions;
  if (x.preserveUnknownFields) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (x.embeddedResource) out['x-kubernetes-embedded-resource'] = true;
  if (x.intOrString) out['x-kubernetes-int-or-string'] = true;
  if (x.listType !== undefined) out['x-kubernetes-list-type'] = x.listType;
  if (x.listMapKeys !== undefined) out['x-kubernetes-list-map-keys'] = [...x.listMapKeys];
  if (x.mapType !== undefined) out['x-kubernetes-map-type'] = x.mapType;
  if (x.patchStrategy !== undefined) out['x-kubernetes-patch-strategy'] = x.patchStrategy;
  if (x.patchMergeKey !== undefined) out['x-kubernetes-patch-merge-key'] = x.patchMergeKey;
  if (x.groupVersionKinds !== undefined) out['x-kubernetes-group-version-kind'] = x.groupVersionKinds;
  if (x.other !== undefined) for (const [key, value] of x.other) out[key] = value;
  if (node.rules.length > 0) {
    out['x-kubernetes-validations'] = node.rules.map((r) => {
      const rule: Record<string, unknown> = { rule: r.rule };
      if (r.message !== undefined) rule.message = r.message;
      if (r.messageExpression !== undefined) rule.messageExpression = r.messageExpression;
      if (r.reason !== undefined) rule.reason = r.reason;
      if (r.fieldPath !== undefined) rule.fieldPath = r.fieldPath;
      if (r.optionalOldSelf) rule.optionalOldSelf = true;
      return rule;
    });
  }
  return out;
}

function writeValidation(out: Record<string, unknown>, v: ValueValidation): void {
  if (v.enum !== undefined) out.enum = [...v.enum];
  if (v.pattern !== undefined) out.pattern = v.pattern;
  if (v.maximum !== undefined) out.maximum = v.maximum;
  if (v.exclusiveMaximum) out.exclusiveMaximum = true;
  if (v.minimum !== undefined) out.minimum = v.minimum;
  if (v.exclusiveMinimum) out.exclusiveMinimum = true;
  if (v.multipleOf !== undefined) out.multipleOf = v.multipleOf;
  if (v.maxLength !== undefined) out.maxLength = v.maxLength;
  if (v.minLength !== undefined) out.minLength = v.minLength;
  if (v.maxItems !== undefined) out.maxItems = v.maxItems;
  if (v.minItems !== undefined) out.minItems = v.minItems;
  if (v.uniqueItems) out.uniqueItems = true;
  if (v.maxProperties !== undefined) out.maxProperties = v.maxProperties;
  if (v.minProperties !== undefined) out.minProperties = v.minProperties;
  if (v.required !== undefined) out.required = [...v.required];
  if (v.allOf !== undefined) out.allOf = v.allOf.map(nested);
  if (v.anyOf !== undefined) out.anyOf = v.anyOf.map(nested);
  if (v.oneOf !== undefined) out.oneOf = v.oneOf.map(nested);
  if (v.not !== undefined) out.not = nested(v.not);
}

function nested(n: NestedValueValidation): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  writeValidation(out, n.validation);
  if (n.properties !== undefined) {
    const props: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [key, child] of n.properties) props[key] = nested(child);
    out.properties = props;
  }
  if (n.items !== undefined) out.items = nested(n.items);
  if (n.additionalProperties !== undefined) out.additionalProperties = nested(n.additionalProperties);
  return sorted(out);
}

/** A plain object with the members in sorted order (properties keep theirs: they are data). */
function sorted(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj).sort()) Object.defineProperty(out, key, { value: obj[key], enumerable: true, writable: true, configurable: true });
  return out;
}
