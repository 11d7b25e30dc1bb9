// x-kubernetes-validations, run: a custom resource (and on update its stored
// version) checked against the rules compile.ts compiled for its schema, with
// kube-apiserver's field errors (apiextensions pkg/apiserver/schema/cel
// validation.go Validator.Validate): a rule that is false names its node (or its
// fieldPath) with its message, messageExpression or "failed rule: …"; the whole
// object shares one cost budget, and running out stops every later rule.
import { Optional } from '@marcbachmann/cel-js';
import { duplicate, FieldPath, forbiddenField, goLiteral, invalidValue, required, type FieldError } from '../../schema/field-errors.js';
import { goQuote } from '../../schema/go-quote.js';
import type { Structural, ValidationRule } from '../../schema/structural/index.js';
import { toCelValue } from '../bindings.js';
import { CRD_COST_LIMITS } from '../cost.js';
import { CelEvaluationError, type Program } from '../program.js';
import { CostLimitExceeded } from '../runtime-cost.js';
import { compiledRulesOf, compileRules, type CompiledRule, type NodeRules, type RuleCompilation } from './compile.js';
import { duplicateOmitted, invalidOmitted } from './messages.js';

// apiserver pkg/apis/cel/config.go MaxEvaluatedMessageExpressionSizeBytes.
const MAX_MESSAGE_BYTES = 5 * 1024;

export interface EvaluateRulesOptions {
  /** Where the object is; default its root, which kube prints as `<nil>` (a nil field.Path). */
  readonly path?: FieldPath;
  /** The actual cost all rules of the object may spend together; default kube's RuntimeCELCostBudget. */
  readonly costBudget?: number;
}

/**
 * The field errors of `obj` (and, on update, `oldObj`: transition rules run only
 * where an old value pairs with the new one) against the rules below `root`.
 * Rules are compiled on first use when compileRules has not seen `root`.
 * Objects are decoded JSON; nothing here mutates them.
 *
 * TODO(#27): ratcheting (an unchanged value's failures become warnings) is not done.
 */
export function evaluateRules(root: Structural, obj: unknown, oldObj?: unknown, options: EvaluateRulesOptions = {}): FieldError[] {
  const compilation = compiledRulesOf(root) ?? compileRules(root, { path: FieldPath.ROOT });
  const run = new RuleRun(compilation, options.costBudget ?? CRD_COST_LIMITS.runtimeCostBudget);
  run.validate(root, options.path ?? FieldPath.ROOT, obj, oldObj);
  return run.errors.map(nilRoot);
}

class RuleRun {
  readonly errors: FieldError[] = [];
  /** Below zero once the budget is spent: nothing more runs. */
  private remaining: number;
  private readonly hasRules = new Map<Structural, boolean>();

  constructor(
    private readonly compilation: RuleCompilation,
    budget: number,
  ) {
    this.remaining = budget;
  }

  validate(node: Structural, at: FieldPath, obj: unknown, old: unknown): void {
    // Rules judge values, not absence: a null or missing value is the parent's to check.
    if (obj === null || obj === undefined || this.remaining < 0) return;
    const rules = this.compilation.nodes.get(node);
    if (rules !== undefined) this.validateNode(rules, at, obj, old);
    if (Array.isArray(obj)) {
      const items = node.items;
      if (items === undefined || !this.below(items)) return;
      const pair = oldItems(node, old);
      for (let i = 0; i < obj.length && this.remaining >= 0; i++) this.validate(items, at.index(i), obj[i], pair(obj[i]));
    } else if (isPlainObject(obj)) {
      const oldMap = isPlainObject(old) ? old : undefined;
      const oldOf = (k: string): unknown => (oldMap !== undefined && Object.hasOwn(oldMap, k) ? oldMap[k] : undefined);
      const ap = node.additionalProperties;
      if (typeof ap === 'object' && this.below(ap)) {
        for (const k of Object.keys(obj)) if (this.remaining >= 0) this.validate(ap, at.key(k), obj[k], oldOf(k));
      }
      for (const k of Object.keys(obj)) {
        const prop = node.properties?.get(k);
        if (prop !== undefined && this.remaining >= 0 && this.below(prop)) this.validate(prop, at.child(k), obj[k], oldOf(k));
      }
    }
  }

  /** Whether any rule sits at or below `node` (memoized; a node met again below itself adds nothing). */
  private below(node: Structural): boolean {
    const known = this.hasRules.get(node);
    if (known !== undefined) return known;
    this.hasRules.set(node, false);
    const ap = node.additionalProperties;
    const found = this.compilation.nodes.has(node) ||
      (node.items !== undefined && this.below(node.items)) ||
      (typeof ap === 'object' && this.below(ap)) ||
      [...(node.properties?.values() ?? [])].some((p) => this.below(p));
    this.hasRules.set(node, found);
    return found;
  }

  private validateNode(n: NodeRules, at: FieldPath, obj: unknown, old: unknown): void {
    const type = goLiteral(goQuote(n.node.type ?? ''));
    if (n.error !== undefined) return void this.errors.push(invalidValue(at, type, `rule compiler initialization error: ${n.error}`));
    if (n.rules.length === 0) return;
    if (this.remaining <= 0) return this.outOfBudget(invalidValue(at, type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
    for (const c of n.rules) {
      if (c.error !== undefined) {
        this.errors.push(invalidValue(at, type, `rule compile error: ${c.error}`));
        continue;
      }
      // Transition rules need a value to compare with, unless they take oldSelf as optional.
      if (c.program === undefined || (c.usesOldSelf && old === undefined && !c.rule.optionalOldSelf)) continue;
      const bindings: Record<string, unknown> = c.rule.optionalOldSelf ? { self: obj, oldSelf: optionalOf(old, n) } : old === undefined ? { self: obj } : { self: obj, oldSelf: old };
      const run = this.run(c.program, bindings);
      if (run.cost > this.remaining) return this.outOfBudget(invalidValue(at, type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      this.remaining -= run.cost;
      const r = ruleErrorString(c.rule);
      if (run.error instanceof CostLimitExceeded) {
        return this.outOfBudget(invalidValue(at, type, `'${run.error.message}': no further validation rules will be run due to call cost exceeds limit for rule: ${r}`));
      }
      if (run.error !== undefined) {
        const why = run.error.message;
        this.errors.push(invalidValue(at, type, why.startsWith('no such overload')
          ? `'${why}': call arguments did not match a supported operator, function or macro signature for rule: ${r}`
          : `${why} evaluating rule: ${r}`));
        continue;
      }
      if (run.value === true) continue;
      if (!this.fail(n, c, at, obj, bindings)) return;
    }
  }

  /** Reports a rule that is false; false when the report itself spent the budget. */
  private fail(n: NodeRules, c: CompiledRule, at: FieldPath, obj: unknown, bindings: Record<string, unknown>): boolean {
    let where = at;
    for (const step of c.fieldPath?.elements ?? []) where = typeof step === 'string' ? where.child(step) : typeof step === 'number' ? where.index(step) : where.key(step.key);
    let detail: string | undefined;
    if (c.messageExpression !== undefined) {
      const type = goLiteral(goQuote(n.node.type ?? ''));
      const run = this.run(c.messageExpression, bindings);
      if (run.cost > this.remaining) {
        this.outOfBudget(invalidValue(where, type, 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'));
        return false;
      }
      if (run.error instanceof CostLimitExceeded) {
        this.outOfBudget(invalidValue(where, type, `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(c.rule.messageExpression!)}`));
        return false;
      }
      this.remaining -= run.cost;
      // Any other failure of the message (an error, a blank, long or multi-line text) falls back to the rule's message.
      detail = run.error === undefined ? usableMessage(run.value) : undefined;
    }
    detail ??= c.rule.message !== undefined && c.rule.message !== '' ? c.rule.message.trim() : `failed rule: ${ruleErrorString(c.rule)}`;
    // An object's or a list's value would be the whole subtree: kube leaves it out.
    const omit = n.node.type === 'object' || n.node.type === 'array';
    const value = typeof obj === 'string' ? goLiteral(goQuote(obj)) : obj;
    switch (c.rule.reason) {
      case 'FieldValueForbidden': this.errors.push(forbiddenField(where, detail)); break;
      case 'FieldValueRequired': this.errors.push(required(where, detail)); break;
      case 'FieldValueDuplicate': this.errors.push(omit ? duplicateOmitted(where) : duplicate(where, value)); break;
      default: this.errors.push(omit ? invalidOmitted(where, detail) : invalidValue(where, value, detail));
    }
    return true;
  }

  private run(program: Program, bindings: Record<string, unknown>): { value?: unknown; error?: Error; cost: number } {
    try {
      const value = program.evaluate(bindings);
      return { value, cost: program.lastCost };
    } catch (err) {
      if (err instanceof CostLimitExceeded || err instanceof CelEvaluationError) return { error: err, cost: program.lastCost };
      throw err;
    }
  }

  private outOfBudget(err: FieldError): void {
    this.errors.push(err);
    this.remaining = -1;
  }
}

/** oldSelf of an optionalOldSelf rule: optional.of(old), or optional.none() on create. */
function optionalOf(old: unknown, n: NodeRules): unknown {
  return old === undefined || old === null ? Optional.none() : Optional.of(toCelValue(old, n.decl!));
}

/** A messageExpression's text when kube would show it: a string, trimmed, non-empty, one line, at most 5 KiB. */
function usableMessage(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const text = v.trim();
  if (text === '' || text.includes('\n') || Buffer.byteLength(text) > MAX_MESSAGE_BYTES) return undefined;
  return text;
}

/** A rule as kube names it in errors: its message, else its expression. */
function ruleErrorString(rule: ValidationRule): string {
  return rule.message !== undefined && rule.message !== '' ? rule.message.trim() : rule.rule.trim();
}

/**
 * Map lists pair each item with the old item of the same keys
 * (x-kubernetes-list-map-keys); items of other lists have no old value.
 */
function oldItems(node: Structural, old: unknown): (item: unknown) => unknown {
  const keys = node.extensions.listMapKeys;
  if (node.extensions.listType !== 'map' || keys === undefined || !Array.isArray(old)) return () => undefined;
  const keyOf = (o: Record<string, unknown>): string => JSON.stringify(keys.map((k) => (Object.hasOwn(o, k) ? o[k] : null)));
  const byKey = new Map<string, unknown>();
  for (const o of old) if (isPlainObject(o) && !byKey.has(keyOf(o))) byKey.set(keyOf(o), o);
  return (item) => (isPlainObject(item) ? byKey.get(keyOf(item)) : undefined);
}

/** The object's root is a nil field.Path in kube, printed `<nil>`. */
function nilRoot(err: FieldError): FieldError {
  return err.field === '' ? { ...err, field: '<nil>', message: `<nil>${err.message}` } : err;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
