// One x-kubernetes-validations rule, compiled (apiextensions
// pkg/apiserver/schema/cel/compilation.go compileRule) in the environments of the
// node it sits on: the rule must be a bool, its messageExpression (compiled only
// when the rule did) a string; whether it reads oldSelf decides when it runs.
import type { FieldPath } from '../../schema/field-errors.js';
import type { Structural, ValidationRule } from '../../schema/structural/index.js';
import { isAstNode, type AstNode } from '../ast.js';
import { CelCompileError } from '../compile-error.js';
import { CRD_COST_LIMITS } from '../cost.js';
import { createCelEnvironment, type CelEnvironment } from '../environment.js';
import type { CelFeatureGates } from '../library/index.js';
import type { Program } from '../program.js';
import type { DeclType } from '../schema-types.js';
import { validFieldPath } from './field-path.js';
import { celIssues } from './messages.js';

export interface CompiledRule {
  readonly rule: ValidationRule;
  /** undefined when the rule is blank or did not compile. */
  readonly program: Program | undefined;
  /** Why the rule did not compile (kube's CompilationResult.Error detail). */
  readonly error: string | undefined;
  readonly messageExpression: Program | undefined;
  /** Why the messageExpression did not compile; the rule itself may still run. */
  readonly messageError: string | undefined;
  /** The rule reads `oldSelf`: a transition rule, run only when there is an old value (or optionalOldSelf). */
  readonly usesOldSelf: boolean;
  /** The rule's fieldPath relative to its node (`spec.replicas`, `labels[app]`); undefined when unset or invalid. */
  readonly fieldPath: FieldPath | undefined;
}

/**
 * The two environments of one node's rules (compilation.go prepareEnvSet): both
 * declare `self` and `oldSelf`; with optionalOldSelf, `oldSelf` is optional.
 * compile.ts judges the static cost with kube's cardinality and wording, so the
 * environments set no limit of their own.
 */
export class RuleEnvironments {
  /**
   * The type `self` has in these environments: the first node's of this
   * signature. Values bound at evaluation are made of it (the environment
   * registered its object types), so the node's rules must use it too.
   */
  readonly decl: DeclType;
  private readonly shared: SharedEnvironments;

  constructor(decl: DeclType, featureGates: CelFeatureGates | undefined) {
    this.shared = sharedFor(decl, featureGates);
    this.decl = this.shared.decl;
  }

  oldSelf(): CelEnvironment {
    this.shared.plain ??= create(this.shared, this.shared.decl);
    return this.shared.plain;
  }

  optionalOldSelf(): CelEnvironment {
    this.shared.optional ??= create(this.shared, `optional<${this.shared.decl.celType}>`);
    return this.shared.optional;
  }
}

/**
 * Environments shared by nodes whose `self` has the same type: a new environment
 * costs about a millisecond (the library re-indexes its overloads when object
 * types are registered), and a large CRD repeats one sub-schema many times (every
 * use of a shared shape), so typing it once compiles such a schema's thousand
 * rules in milliseconds, not a second. Two types with one signature declare the
 * same CEL types, fields, JSON names and size bounds, so a rule compiles and costs
 * alike in either; the entry keeps the first type, which every sharer binds.
 */
interface SharedEnvironments {
  readonly decl: DeclType;
  readonly featureGates: CelFeatureGates | undefined;
  plain: CelEnvironment | undefined;
  optional: CelEnvironment | undefined;
}

const SHARED = new Map<string, SharedEnvironments>();
const SHARED_LIMIT = 256;
const signatures = new WeakMap<DeclType, string>();

function sharedFor(decl: DeclType, featureGates: CelFeatureGates | undefined): SharedEnvironments {
  const key = `${JSON.stringify(featureGates ?? {})}\u0000${signatureOf(decl)}`;
  let entry = SHARED.get(key);
  if (entry !== undefined) {
    // Most recently used last: the oldest is the one dropped.
    SHARED.delete(key);
  } else {
    entry = { decl, featureGates, plain: undefined, optional: undefined };
    if (SHARED.size >= SHARED_LIMIT) SHARED.delete(SHARED.keys().next().value as string);
  }
  SHARED.set(key, entry);
  return entry;
}

function create(shared: SharedEnvironments, oldSelf: DeclType | string): CelEnvironment {
  return createCelEnvironment({
    variables: [{ name: 'self', type: shared.decl }, { name: 'oldSelf', type: oldSelf }],
    costLimit: Infinity,
    perCallLimit: CRD_COST_LIMITS.perCallLimit,
    featureGates: shared.featureGates,
  });
}

function signatureOf(decl: DeclType): string {
  let sig = signatures.get(decl);
  if (sig !== undefined) return sig;
  const parts: string[] = [decl.kind, decl.celType, String(decl.maxElements), decl.listType ?? '', JSON.stringify(decl.listMapKeys ?? null)];
  if (decl.elem !== undefined) parts.push(`e(${signatureOf(decl.elem)})`);
  if (decl.fields !== undefined) for (const [name, f] of decl.fields) parts.push(`f(${JSON.stringify(name)}=${JSON.stringify(f.jsonName)}:${signatureOf(f.type)})`);
  sig = parts.join(',');
  signatures.set(decl, sig);
  return sig;
}

/**
 * compilation.go compileRule: the rule, then (only when the rule compiled) its
 * messageExpression. What the base library cannot give: cel-go's
 * own issue texts ("Syntax error: mismatched input …", "found no matching
 * overload for '_+_' …"), its column for an operator (the library points at the
 * start of the operation), and more than the first issue of an expression.
 * Every rule is compiled in one environment version; kube's choice between the
 * stored and new expression environments on update is not made.
 */
export function compileRule(rule: ValidationRule, env: CelEnvironment, node: Structural): CompiledRule {
  const none = { rule, program: undefined, messageExpression: undefined, usesOldSelf: false, fieldPath: undefined, messageError: undefined };
  if (rule.rule.trim() === '') return { ...none, error: undefined };
  let program: Program;
  try {
    program = env.compile(rule.rule);
  } catch (err) {
    if (err instanceof CelCompileError) return { ...none, error: `compilation failed: ${celIssues(err)}` };
    throw err;
  }
  if (program.ast.checkedType?.name !== 'bool') return { ...none, error: 'cel expression must evaluate to a bool' };
  let messageExpression: Program | undefined;
  let messageError: string | undefined;
  if (rule.messageExpression !== undefined && rule.messageExpression !== '') {
    try {
      messageExpression = env.compile(rule.messageExpression);
      if (messageExpression.ast.checkedType?.name !== 'string') {
        messageExpression = undefined;
        messageError = 'messageExpression must evaluate to a string';
      }
    } catch (err) {
      if (!(err instanceof CelCompileError)) throw err;
      messageError = `messageExpression compilation failed: ${celIssues(err)}`;
    }
  }
  const fieldPath = rule.fieldPath === undefined || rule.fieldPath === '' ? undefined : validFieldPath(rule.fieldPath, node).path;
  return { rule, program, error: undefined, messageExpression, messageError, usesOldSelf: readsOldSelf(program.ast), fieldPath };
}

/**
 * Whether the checked expression reads the variable `oldSelf` (cel-go's reference
 * map): a comprehension or cel.bind variable of that name hides it. Macros are
 * read through their expansion. The checker bounded the tree's depth.
 */
function readsOldSelf(root: AstNode): boolean {
  const visit = (v: unknown, hidden: boolean): boolean => {
    if (Array.isArray(v)) return v.some((x) => visit(x, hidden));
    if (!isAstNode(v)) return false;
    const { alternate, macro } = v.meta;
    if (alternate !== undefined) return visit(alternate, hidden);
    if (macro !== undefined) {
      if (macro.val !== undefined && macro.exp !== undefined) return visit(macro.val, hidden) || visit(macro.exp, hidden || macro.var === 'oldSelf');
      return visit(macro.args ?? [], hidden);
    }
    if (v.op === 'id') return v.args === 'oldSelf' && !hidden;
    if (v.op === 'comprehension') {
      const c = v.args as Record<string, unknown>;
      const inner = hidden || c.iterVarName === 'oldSelf';
      return Object.keys(c).some((k) => visit(c[k], k === 'iterable' || k === 'init' ? hidden : inner));
    }
    return visit(v.args, hidden);
  };
  return visit(root, false);
}
