// Cost in Kubernetes' units (cel-go checker/cost.go and
// k8s.io/apiserver/pkg/cel/library/cost.go): identifiers and selects 1,
// constants 0, a call 1 plus its function's cost, list literals 10 and map
// literals 30 on top of their elements, string work 0.1 per character, a regex
// ceil(0.1 × (len(input)+1)) × ceil(0.25 × len(pattern)), and a comprehension
// size(range) × (step + condition). Sizes come from literals and from the schema
// (maxLength, maxItems, maxProperties, else what fits in one request).
//
// This file is the estimate (the worst case, before evaluation, to refuse a
// rule); runtime-cost.ts charges the actual cost while evaluating, to stop one.
import { callParts, type AstNode, type ComprehensionArgs } from './ast.js';
import { MAX_REQUEST_SIZE_BYTES, type DeclType } from './schema-types.js';

/**
 * Limits for CustomResourceDefinition validation rules, kube-apiserver's defaults:
 * - staticEstimatedCostLimit 10,000,000 per expression and staticEstimatedCRDCostLimit
 *   100,000,000 per CRD (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go);
 * - perCallLimit 1,000,000 per evaluation and runtimeCostBudget 10,000,000 per object
 *   (k8s.io/apiserver/pkg/apis/cel/config.go PerCallLimit, RuntimeCELCostBudget).
 */
export const CRD_COST_LIMITS = {
  staticEstimatedCostLimit: 10_000_000,
  staticEstimatedCRDCostLimit: 100_000_000,
  perCallLimit: 1_000_000,
  runtimeCostBudget: 10_000_000,
} as const;

export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
const LIST_CREATE_BASE_COST = 10;
export const NAMESPACES: ReadonlySet<string> = new Set(['strings', 'ip']);
const MAP_CREATE_BASE_COST = 30;
// An authorization check is priced so that only two fit in one call (library/cost.go).
const AUTHZ_CHECK_COST = 350_000;

// A value whose size nothing bounds still arrived in one request: Kubernetes
// bounds every such size by the request size cap (types.go MaxRequestSizeBytes).
const UNKNOWN = MAX_REQUEST_SIZE_BYTES;

/** Multiplication where 0 × unknown is 0, not NaN. */
const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : a * b);
const factor = (size: number, f: number): number => (size === UNKNOWN ? UNKNOWN : Math.ceil(size * f));

export interface CostContext {
  /** The declaration type of a top-level variable, when it has a schema. */
  variable(name: string): DeclType | undefined;
}

interface Scope {
  readonly name: string;
  readonly decl: DeclType | undefined;
  readonly size: number;
}

/** The worst-case cost of a checked expression (Infinity when some input is unbounded). */
export function estimateCost(root: AstNode, ctx: CostContext): number {
  return new Estimator(ctx).cost(root);
}

class Estimator {
  private readonly scopes: Scope[] = [];
  constructor(private readonly ctx: CostContext) {}

  cost(n: AstNode): number {
    if (n.meta.alternate !== undefined) return this.cost(n.meta.alternate);
    const macro = n.meta.macro;
    if (macro !== undefined) {
      // has(): the presence test costs 1 on top of the operand; cel.bind: value + body.
      if (macro.val !== undefined && macro.exp !== undefined) return this.cost(macro.val) + this.cost(macro.exp);
      return 1 + (macro.args ?? []).reduce((s, a) => s + this.cost(a), 0);
    }
    const a = n.args as AstNode[];
    switch (n.op) {
      case 'value': return 0;
      // Namespaces of namespaced globals (strings.quote, ip.isCanonical) are part of a
      // function name in cel-go, not an identifier read.
      case 'id': return NAMESPACES.has(n.args as string) ? 0 : 1;
      case '.': case '.?': return this.cost((n.args as [AstNode])[0]) + 1;
      case '[]': case '[?]': return this.cost(a[0]!) + this.cost(a[1]!) + 1;
      case '!_': case '-_': return 1 + this.cost(n.args as AstNode);
      case '&&': case '||': return this.cost(a[0]!) + this.cost(a[1]!);
      case '?:': return this.cost(a[0]!) + Math.max(this.cost(a[1]!), this.cost(a[2]!));
      case 'list': return LIST_CREATE_BASE_COST + a.reduce((s, e) => s + this.cost(e), 0);
      case 'map': return MAP_CREATE_BASE_COST + (n.args as [AstNode, AstNode][]).reduce((s, [k, v]) => s + this.cost(k) + this.cost(v), 0);
      case 'comprehension': return this.comprehension(n);
      case 'call': case 'rcall': return this.call(n);
      case '==': case '!=': case '<': case '<=': case '>': case '>=':
        return this.cost(a[0]!) + this.cost(a[1]!) + this.compare(a[0]!, a[1]!);
      case 'in':
        return this.cost(a[0]!) + this.cost(a[1]!) + (a[1]!.checkedType?.kind === 'list' ? this.size(a[1]!) : 1);
      case '+':
        return this.cost(a[0]!) + this.cost(a[1]!) + this.concat(a[0]!, a[1]!);
      default:
        return (Array.isArray(a) ? a.reduce((s, e) => s + (isNode(e) ? this.cost(e) : 0), 0) : 0) + 1;
    }
  }

  private compare(l: AstNode, r: AstNode): number {
    const t = l.checkedType?.name;
    if (t === 'string' || t === 'bytes') return Math.max(1, factor(Math.min(this.size(l), this.size(r)), STRING_TRAVERSAL_COST_FACTOR));
    return 1;
  }

  private concat(l: AstNode, r: AstNode): number {
    const t = l.checkedType?.name;
    if (t === 'string' || t === 'bytes') return factor(this.size(l) + this.size(r), STRING_TRAVERSAL_COST_FACTOR);
    return 1;
  }

  private comprehension(n: AstNode): number {
    const c = n.args as ComprehensionArgs;
    const rangeDecl = this.decl(c.iterable);
    const elem = rangeDecl?.kind === 'map' ? keyDecl : rangeDecl?.elem;
    const base = this.cost(c.iterable) + this.cost(c.init);
    this.scopes.push({ name: c.iterVarName, decl: elem, size: elem?.maxElements ?? UNKNOWN });
    try {
      // The loop condition (not-strictly-false on the accumulator) costs 1 per iteration.
      return base + mul(this.size(c.iterable), this.cost(c.step) + 1);
    } finally {
      this.scopes.pop();
    }
  }

  private call(n: AstNode): number {
    const { name, target, args } = callParts(n)!;
    const argCost = args.reduce((s, e) => s + this.cost(e), 0) + (target === undefined ? 0 : this.cost(target));
    return argCost + this.functionCost(name.replace(/^kapi_/, ''), target, args);
  }

  /** Per-call cost of each library function (library/cost.go EstimateCallCost, cel-go functionCost). */
  private functionCost(name: string, target: AstNode | undefined, args: readonly AstNode[]): number {
    const subject = target ?? args[0];
    const size = (x: AstNode | undefined): number => (x === undefined ? 0 : this.size(x));
    const traverse = (x: AstNode | undefined, f = 1): number => factor(size(x), STRING_TRAVERSAL_COST_FACTOR * f);
    switch (name) {
      case 'matches': case 'find': case 'findAll': {
        const [str, re] = target === undefined ? [args[0], args[1]] : [target, args[0]];
        return mul(factor(size(str) + 1, STRING_TRAVERSAL_COST_FACTOR), factor(size(re), REGEX_STRING_LENGTH_COST_FACTOR));
      }
      case 'contains':
        return mul(traverse(target), traverse(args[0]));
      case 'startsWith': case 'endsWith':
        return traverse(args[0]);
      case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim': case 'reverse': case 'format': case 'quote':
        return traverse(subject);
      // Parsers of a string argument: one traversal. `isURL` has no entry in kube's table (cost 1).
      case 'url': case 'cidr': case 'isIP': case 'isCIDR': case 'quantity': case 'isQuantity': case 'semver': case 'isSemver':
        return traverse(args[0]);
      case 'ip':
        // cidr.ip() reads a field; ip(string) parses.
        return target === undefined ? traverse(args[0]) : 1;
      case 'isCanonical':
        return target?.op === 'id' && target.args === 'ip' ? traverse(args[0], 2) : 1;
      // Comparing two 4- or 16-byte addresses: ceil(0.1 × (16 + 16)); a CIDR also masks (ceil(0.1 × 16) + 1);
      // a string argument is parsed first.
      case 'containsIP':
        return 4 + (args[0]?.checkedType?.name === 'string' ? traverse(args[0]) : 0);
      case 'containsCIDR':
        return 7 + (args[0]?.checkedType?.name === 'string' ? traverse(args[0]) : 0);
      case 'fieldSelector': case 'labelSelector': {
        // A selector parses into requirements: a list and a struct for every 2 characters.
        const len = size(args[0]);
        return len === UNKNOWN ? UNKNOWN : LIST_CREATE_BASE_COST + Math.ceil(len * STRING_TRAVERSAL_COST_FACTOR) + Math.ceil(Math.ceil(len * 0.5) * 50);
      }
      case 'replace': case 'split':
        return traverse(subject, 2);
      case 'join': {
        const elem = this.decl(subject!)?.elem?.maxElements ?? UNKNOWN;
        return factor(mul(size(subject), elem), STRING_TRAVERSAL_COST_FACTOR);
      }
      case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf': {
        if (subject?.checkedType?.name === 'string') return traverse(subject);
        const elem = this.decl(subject!)?.elem;
        const perElem = elem !== undefined && (elem.celType === 'string' || elem.celType === 'bytes')
          ? 1 + factor(elem.maxElements, STRING_TRAVERSAL_COST_FACTOR) : 1;
        return mul(size(subject), perElem);
      }
      case 'slice': case 'flatten':
        return size(subject);
      case 'distinct':
        return mul(size(subject), size(subject));
      case 'sort': {
        const s = size(subject);
        return mul(s, Math.max(1, Math.ceil(Math.log2(Math.max(s, 2)))));
      }
      case 'check':
        return AUTHZ_CHECK_COST;
      default:
        return 1;
    }
  }

  /** The declaration type an expression reads from the schema, if any. */
  private decl(n: AstNode): DeclType | undefined {
    switch (n.op) {
      case 'id': {
        const name = n.args as string;
        for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i]!.name === name) return this.scopes[i]!.decl;
        return this.ctx.variable(name);
      }
      case '.': case '.?': {
        const [operand, field] = n.args as [AstNode, string];
        const d = this.decl(operand);
        return d?.kind === 'map' ? d.elem : d?.fields?.get(field)?.type;
      }
      case '[]': case '[?]':
        return this.decl((n.args as [AstNode])[0])?.elem;
      default:
        return undefined;
    }
  }

  /** Largest size() of an expression's value. */
  private size(n: AstNode): number {
    switch (n.op) {
      case 'value': {
        const v = n.args;
        if (typeof v === 'string') return Array.from(v).length;
        if (v instanceof Uint8Array) return v.length;
        return 1;
      }
      case 'list': return (n.args as unknown[]).length;
      case 'map': return (n.args as unknown[]).length;
    }
    if (n.op === 'id') {
      const name = n.args as string;
      const scope = [...this.scopes].reverse().find((s) => s.name === name);
      if (scope !== undefined) return scope.size;
    }
    const d = this.decl(n);
    if (d !== undefined) return d.maxElements;
    const call = callParts(n);
    if (call !== undefined) {
      const subject = call.target ?? call.args[0];
      const base = call.name.replace(/^kapi_/, '');
      if (subject !== undefined && ['split', 'findAll', 'lowerAscii', 'upperAscii', 'trim', 'substring', 'reverse', 'slice', 'distinct', 'sort'].includes(base)) {
        return this.size(subject);
      }
    }
    const alt = n.meta.alternate;
    if (alt !== undefined) {
      if (alt.op !== 'comprehension') return this.size(alt);
      if (n.checkedType?.kind === 'list') return this.size((alt.args as ComprehensionArgs).iterable);
    }
    const kind = n.checkedType?.kind;
    return kind === 'primitive' && n.checkedType?.name !== 'string' && n.checkedType?.name !== 'bytes' ? 1 : UNKNOWN;
  }
}

const keyDecl: DeclType = { kind: 'scalar', celType: 'string', maxElements: MAX_REQUEST_SIZE_BYTES - 2 };

function isNode(v: unknown): v is AstNode {
  return typeof v === 'object' && v !== null && 'op' in v;
}
