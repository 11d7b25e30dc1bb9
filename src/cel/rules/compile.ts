// x-kubernetes-validations, compiled: when a CustomResourceDefinition is created or
// updated, every rule of a version's schema is compiled with `self` (and
// `oldSelf`) typed by the node it sits on, and refused as kube-apiserver refuses
// it (apiextensions pkg/apis/apiextensions/validation: validation.go
// ValidateCustomResourceDefinitionOpenAPISchema, cel_validation.go; the per-rule
// compile is pkg/apiserver/schema/cel/compilation.go). The programs are kept per
// schema root for evaluate.ts to run against custom resources.
import { forbiddenField, goLiteral, invalidValue, notSupported, required, type FieldError, type FieldPath } from '../../schema/field-errors.js';
import { goQuote } from '../../schema/go-quote.js';
import type { Structural } from '../../schema/structural/index.js';
import { CRD_COST_LIMITS } from '../cost.js';
import { escapePropertyName } from '../escaping.js';
import type { CelFeatureGates } from '../library/index.js';
import { declTypeOf, MAX_REQUEST_SIZE_BYTES, type DeclType } from '../schema-types.js';
import { validFieldPath } from './field-path.js';
import { costErrorMessage, internalError, ruleValue } from './messages.js';
import { compileRule, RuleEnvironments, type CompiledRule } from './rule.js';

export type { CompiledRule } from './rule.js';

/** The reasons a rule may name (validation.go supportedValidationReason), sorted as kube lists them. */
export const RULE_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'] as const;
export type RuleReason = (typeof RULE_REASONS)[number];

export interface NodeRules {
  readonly node: Structural;
  /** The type of `self` (and `oldSelf`); undefined when the node has none. */
  readonly decl: DeclType | undefined;
  readonly rules: readonly CompiledRule[];
  /** Why none of the node's rules could compile: the node has no CEL type. */
  readonly error: string | undefined;
}

export interface CompileRulesOptions {
  /**
   * Where the schema sits in the CRD: `spec.versions[i].schema.openAPIV3Schema`,
   * or `spec.validation.openAPIV3Schema` for a single schema. Every error is below it.
   */
  readonly path: FieldPath;
  /**
   * No per-expression cost errors: kube skips them for a version whose schema an
   * update leaves unchanged, so rules stored under older limits stay valid.
   */
  readonly suppressPerExpressionCost?: boolean;
  readonly featureGates?: CelFeatureGates;
}

export interface RuleCompilation {
  /** kube's order: checks of the rules as written, then compile and cost errors, then the CRD-wide total. */
  readonly errors: readonly FieldError[];
  /** Every node whose rules compiled (or failed for want of a type), by node. */
  readonly nodes: ReadonlyMap<Structural, NodeRules>;
}

const compilations = new WeakMap<Structural, RuleCompilation>();

/** The last compilation of a schema root, if compileRules saw it. */
export function compiledRulesOf(root: Structural): RuleCompilation | undefined {
  return compilations.get(root);
}

/**
 * Compiles every x-kubernetes-validations rule below `root` (a version's
 * openAPIV3Schema, already a valid structural schema: kube compiles no rule of
 * a schema it refuses for other reasons) and reports what kube-apiserver reports
 * on CRD create and update. Never throws for a bad rule.
 */
export function compileRules(root: Structural, options: CompileRulesOptions): RuleCompilation {
  const compiler = new RuleCompiler(options);
  compiler.visit({ node: root, path: options.path, parent: undefined, access: undefined, inScope: root.rules.length > 0, cardinality: 1, uncorrelatable: undefined });
  const result: RuleCompilation = { errors: [...compiler.schemaErrors, ...compiler.celErrors, ...compiler.totalCostErrors()], nodes: compiler.nodes };
  compilations.set(root, result);
  return result;
}

/** A node as the walk meets it: kube's CELSchemaContext plus the validator state it keeps. */
interface Visit {
  readonly node: Structural;
  readonly path: FieldPath;
  readonly parent: Visit | undefined;
  /** How this node's type is read off its parent's (a field, the items, the values). */
  readonly access: ((parent: DeclType) => DeclType | undefined) | undefined;
  /** A rule sits on this node or above it: only then is a type needed. */
  readonly inScope: boolean;
  /** How many times the node can occur in one object; undefined when a list or map above it is unbounded. */
  readonly cardinality: number | undefined;
  /** The outermost list above whose items cannot be paired with the old object's. */
  readonly uncorrelatable: FieldPath | undefined;
  /** Set when the walk reaches the node, before its children. */
  type?: TypeInfo;
}

type TypeInfo = { readonly decl: DeclType; readonly error?: undefined } | { readonly error: string; readonly decl?: undefined } | undefined;

const UNTYPED = 'unable to convert structural schema to CEL declarations';
// Rules that cost less than 1% of the CRD budget are never named as its cause (cel_validation.go TotalCost).
const NOTABLE_COST = CRD_COST_LIMITS.staticEstimatedCRDCostLimit / 100;

const mapValues = (d: DeclType): DeclType | undefined => (d.kind === 'map' ? d.elem : undefined);
const listItems = (d: DeclType): DeclType | undefined => (d.kind === 'list' ? d.elem : undefined);

/** A property's type read off its object's; the name is escaped only when a rule needs the type. */
function fieldNamed(name: string): (d: DeclType) => DeclType | undefined {
  return (d) => {
    const escaped = escapePropertyName(name);
    return escaped === undefined ? undefined : d.fields?.get(escaped)?.type;
  };
}

class RuleCompiler {
  readonly schemaErrors: FieldError[] = [];
  readonly celErrors: FieldError[] = [];
  readonly nodes = new Map<Structural, NodeRules>();
  private total = 0;
  private mostExpensive: { path: FieldPath; cost: number }[] = [];
  /** Nodes on the current path: a built-in definition reaching itself is walked once. */
  private readonly onPath = new Set<Structural>();

  constructor(private readonly options: CompileRulesOptions) {}

  /** Walks the children, then the node's own rules, in kube's order; true when a rule as written is wrong at or below `v`. */
  visit(v: Visit): boolean {
    this.onPath.add(v.node);
    v.type = this.typeInfo(v);
    try {
      let wrong = false;
      for (const child of this.children(v)) if (!this.onPath.has(child.node)) wrong = this.visit(child) || wrong;
      if (v.node.rules.length === 0) return wrong;
      wrong = this.checkAsWritten(v) || wrong;
      // Like kube, no rule is compiled above a rule that is wrong as written.
      if (!wrong) this.compileNode(v);
      return wrong;
    } finally {
      this.onPath.delete(v.node);
    }
  }

  /** The children in kube's order (values, properties, items); an array, as a generator per node costs more than the walk. */
  private children(v: Visit): Visit[] {
    const n = v.node;
    const out: Visit[] = [];
    const cardinality = childCardinality(v);
    const ap = n.additionalProperties;
    if (typeof ap === 'object') {
      out.push({ parent: v, cardinality, node: ap, path: v.path.child('additionalProperties'), access: mapValues, inScope: v.inScope || ap.rules.length > 0, uncorrelatable: v.uncorrelatable });
    }
    if (n.properties !== undefined) {
      const properties = v.path.child('properties');
      for (const [name, prop] of n.properties) {
        out.push({ parent: v, cardinality, node: prop, path: properties.key(name), access: fieldNamed(name), inScope: v.inScope || prop.rules.length > 0, uncorrelatable: v.uncorrelatable });
      }
    }
    if (n.items !== undefined) {
      // Only map lists pair new items with old ones; below any other list oldSelf means nothing.
      const uncorrelatable = v.uncorrelatable ?? (n.extensions.listType === 'map' ? undefined : v.path);
      out.push({ parent: v, cardinality, node: n.items, path: v.path.child('items'), access: listItems, inScope: v.inScope || n.items.rules.length > 0, uncorrelatable });
    }
    return out;
  }

  /** The checks of rules as written (ValidateCustomResourceDefinitionOpenAPISchema's SchemaErrors). */
  private checkAsWritten(v: Visit): boolean {
    const before = this.schemaErrors.length;
    const errs = this.schemaErrors;
    v.node.rules.forEach((rule, i) => {
      const at = v.path.child('x-kubernetes-validations').index(i);
      const ruleText = rule.rule.trim();
      const message = rule.message ?? '';
      if (ruleText === '') errs.push(required(at.child('rule'), 'rule is not specified'));
      else if (message.length > 0 && message.trim() === '') errs.push(invalidValue(at.child('message'), message, 'must be non-empty if specified'));
      else if (hasLineBreaks(message.trim())) errs.push(invalidValue(at.child('message'), message, 'must not contain line breaks'));
      else if (hasLineBreaks(ruleText) && message.trim() === '') errs.push(required(at.child('message'), 'message must be specified if rule contains line breaks'));
      const messageExpression = rule.messageExpression ?? '';
      if (messageExpression.length > 0 && messageExpression.trim() === '') {
        errs.push(required(at.child('messageExpression'), 'messageExpression must be non-empty if specified'));
      }
      if (rule.reason !== undefined && !(RULE_REASONS as readonly string[]).includes(rule.reason)) {
        errs.push(notSupported(at.child('reason'), rule.reason, RULE_REASONS));
      }
      const fieldPath = rule.fieldPath ?? '';
      if (fieldPath.length > 0 && fieldPath.trim() === '') errs.push(invalidValue(at.child('fieldPath'), fieldPath, 'must be non-empty if specified'));
      if (hasLineBreaks(fieldPath)) errs.push(invalidValue(at.child('fieldPath'), fieldPath, 'must not contain line breaks'));
      if (fieldPath.length > 0 && validFieldPath(fieldPath, v.node).error !== undefined) {
        errs.push(invalidValue(at.child('fieldPath'), fieldPath, 'must be a valid path'));
      }
    });
    return errs.length > before;
  }

  /**
   * kube's CELSchemaContext.TypeInfo: read off the parent's type when the parent
   * has one (so `self` here is the same type as the parent's field), else made
   * from the node alone, as a resource root at the top and on embedded resources.
   * Kube computes it lazily; here it is computed on the way down (the parent's is
   * known by then), so a deep schema is typed from near the top of the stack.
   */
  private typeInfo(v: Visit): TypeInfo {
    if (!v.inScope) return undefined;
    const parent = v.parent?.type;
    if (parent?.error !== undefined) return parent;
    const read = parent?.decl !== undefined && v.access !== undefined ? v.access(parent.decl) : undefined;
    const decl = read ?? declTypeOf(v.node, 'kapi.self', { resourceRoot: v.parent === undefined || v.node.extensions.embeddedResource });
    return decl === undefined ? { error: UNTYPED } : { decl };
  }

  private compileNode(v: Visit): void {
    const at = v.path.child('x-kubernetes-validations');
    const info = v.type!;
    if (info.error !== undefined) {
      this.celErrors.push(internalError(at, `internal error: failed to construct type information for x-kubernetes-validations rules: ${info.error}`));
      // What the evaluator reports should a custom resource reach these rules (validation.go's Compile error).
      this.nodes.set(v.node, { node: v.node, decl: undefined, rules: [], error: 'failed to convert to declType for CEL validation rules' });
      return;
    }
    const envs = new RuleEnvironments(info.decl, this.options.featureGates);
    // Under an unbounded list or map, kube bounds the count by how many of the smallest value fit in a request.
    const cardinality = v.cardinality ?? Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize(v.node) + 1));
    const rules = v.node.rules.map((rule, i) => {
      const compiled = compileRule(rule, rule.optionalOldSelf ? envs.optionalOldSelf() : envs.oldSelf(), v.node);
      this.report(v, at.index(i), compiled, compiled.program === undefined ? 0 : compiled.program.estimatedCost * cardinality);
      return compiled;
    });
    this.nodes.set(v.node, { node: v.node, decl: envs.decl, rules, error: undefined });
  }

  /** The CELErrors of one rule, in validation.go's order. */
  private report(v: Visit, at: FieldPath, c: CompiledRule, cost: number): void {
    const limit = CRD_COST_LIMITS.staticEstimatedCostLimit;
    const rulePath = at.child('rule');
    if (!this.options.suppressPerExpressionCost && cost > limit) {
      this.celErrors.push(forbiddenField(rulePath, costErrorMessage('estimated rule cost', cost, limit)));
    }
    this.observe(rulePath, cost);
    if (c.error !== undefined) this.celErrors.push(invalidValue(rulePath, ruleValue(c.rule), c.error));
    const messagePath = at.child('messageExpression');
    if (c.messageError !== undefined) {
      this.celErrors.push(invalidValue(messagePath, ruleValue(c.rule), c.messageError));
    } else if (c.messageExpression !== undefined) {
      // A message is priced once, not per occurrence: kube does not multiply it by the cardinality.
      const messageCost = c.messageExpression.estimatedCost;
      if (!this.options.suppressPerExpressionCost && messageCost > limit) {
        this.celErrors.push(forbiddenField(messagePath, costErrorMessage('estimated messageExpression cost', messageCost, limit)));
      }
      this.observe(messagePath, messageCost);
    }
    if (c.usesOldSelf) {
      if (v.uncorrelatable !== undefined) {
        this.celErrors.push(invalidValue(rulePath, goLiteral(goQuote(c.rule.rule)), `oldSelf cannot be used on the uncorrelatable portion of the schema within ${v.uncorrelatable}`));
      }
    } else if (c.rule.optionalOldSelf) {
      this.celErrors.push(invalidValue(at.child('optionalOldSelf'), true, 'may not be set if oldSelf is not used in rule'));
    }
  }

  private observe(path: FieldPath, cost: number): void {
    this.total += cost;
    if (cost < NOTABLE_COST) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    this.mostExpensive = this.mostExpensive.slice(0, 4);
  }

  /** The CRD-wide budget (validation.go, after the schema walk): the four costliest rules, then the total. */
  totalCostErrors(): FieldError[] {
    const limit = CRD_COST_LIMITS.staticEstimatedCRDCostLimit;
    if (this.total <= limit) return [];
    return [
      ...this.mostExpensive.map((e) => forbiddenField(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema')),
      forbiddenField(this.options.path, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', this.total, limit)),
    ];
  }
}

/**
 * How many times a child can occur per occurrence of `v` (cel_validation.go
 * extractMaxElements): a map's maxProperties, a list's maxItems, else unbounded;
 * an object's fields occur once.
 */
function childCardinality(v: Visit): number | undefined {
  if (v.cardinality === undefined) return undefined;
  const n = v.node;
  let factor: number | undefined = 1;
  if (n.type === 'object' && n.additionalProperties !== undefined) factor = n.validation?.maxProperties;
  else if (n.type === 'array') factor = n.validation?.maxItems;
  return factor === undefined ? undefined : v.cardinality * Math.max(0, factor);
}

// The smallest JSON of each scalar (apiserver pkg/cel/limits.go).
const MIN_SIZES: Readonly<Record<string, number>> = { boolean: 4, number: 1, integer: 1, array: 2 };
const MIN_STRING_SIZES: Readonly<Record<string, number>> = { duration: 3, date: 12, 'date-time': 21 };

/**
 * DeclType.MinSerializedSize: the smallest JSON a value of `node` can be, an
 * object counting its required fields that have no default. A definition that
 * requires itself (only built-ins can) counts once.
 */
function minSerializedSize(node: Structural, seen: Set<Structural> = new Set()): number {
  if (node.extensions.intOrString) return 1;
  if (node.type === 'string') return node.format !== undefined && Object.hasOwn(MIN_STRING_SIZES, node.format) ? MIN_STRING_SIZES[node.format]! : 2;
  if (node.type !== 'object') return node.type !== undefined && Object.hasOwn(MIN_SIZES, node.type) ? MIN_SIZES[node.type]! : 2;
  if (typeof node.additionalProperties === 'object' || seen.has(node)) return 2;
  seen.add(node);
  let size = 2;
  for (const name of node.validation?.required ?? []) {
    const prop = node.properties?.get(name);
    if (prop !== undefined && !prop.hasDefault) size += name.length + minSerializedSize(prop, seen) + 4;
  }
  seen.delete(node);
  return size;
}

// validation.go hasNewlines: the line breaks of CEL's grammar.
function hasLineBreaks(s: string): boolean {
  return /[\n\r]/.test(s);
}
