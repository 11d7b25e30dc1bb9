// The actual cost of one evaluation, charged as cel-go's runtime cost tracker
// charges it (interpreter/runtimecost.go) with Kubernetes' CallCost
// (k8s.io/apiserver/pkg/cel/library/cost.go): identifiers, selects and index 1,
// constants 0, && || ?: nothing of their own, list literals 10 and map literals 30,
// and every function or operator its size-based price, computed from the
// argument values and the result. Comprehension bookkeeping is charged 1 per
// node the base library evaluates, close to but not exactly cel-go's.
//
// The same wrapper applies Kubernetes' set/map list `+` and `==` (list-types.ts),
// which need the operand values too.
import { SchemaObject } from './bindings.js';
import { callParts, type AstNode } from './ast.js';
import { concatListType, equalListType } from './list-types.js';
import { NAMESPACES, STRING_TRAVERSAL_COST_FACTOR as STRING, REGEX_STRING_LENGTH_COST_FACTOR as REGEX } from './cost.js';

/** Raised when evaluation spends more than its budget; the message is Kubernetes'. */
export class CostLimitExceeded extends Error {
  constructor(readonly limit: number) {
    super('operation cancelled: actual cost limit exceeded');
  }
}

export class CostMeter {
  used = 0;
  constructor(readonly limit: number) {}

  charge(n: number): void {
    this.used += n;
    if (this.used > this.limit) throw new CostLimitExceeded(this.limit);
  }
}

/** traits.Sizer's Size(): code points of a string, bytes, list items, map or object entries; 1 for anything else. */
export function actualSize(v: unknown): number {
  if (typeof v === 'string') {
    let n = v.length;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) n--;
    }
    return n;
  }
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length;
  if (v instanceof SchemaObject) return Object.keys(v.raw).length;
  if (v instanceof Map) return v.size;
  return 1;
}

/** library/cost.go traversalCost: 0.1 per string byte (truncated), summed over lists and maps. */
function traversalCost(v: unknown): number {
  if (typeof v === 'string') return Math.floor(Buffer.byteLength(v) * STRING);
  if (v instanceof Uint8Array) return Math.floor(v.length * STRING);
  if (Array.isArray(v)) return v.reduce((s: number, e) => s + traversalCost(e), 0);
  if (v instanceof SchemaObject) return Object.keys(v.raw).reduce((s, k) => s + traversalCost(k) + traversalCost(v.get(k)), 0);
  if (v instanceof Map) {
    let s = 0;
    for (const [k, e] of v) s += traversalCost(k) + traversalCost(e);
    return s;
  }
  return 1;
}

const traverse = (v: unknown, f = STRING): number => Math.ceil(actualSize(v) * f);

/** library/cost.go selectorCostEstimate: parse 0.1/char plus a list and a struct per requirement (one per 2 chars). */
function selectorCost(selector: unknown): number {
  const len = actualSize(selector);
  return 10 + Math.ceil(len * STRING) + Math.ceil(Math.ceil(len * 0.5) * 50);
}

/**
 * The runtime price of one call (args include the receiver first, as cel-go
 * passes them), undefined for the default of 1.
 */
export function callCost(name: string, args: readonly unknown[], result: unknown): number | undefined {
  const [a0, a1] = args;
  switch (name) {
    case 'check': return 350_000;
    case 'fieldSelector': case 'labelSelector': return selectorCost(a1);
    case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf': return traversalCost(a0);
    case 'url': case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
    case 'cidr': case 'isIP': case 'isCIDR': case 'quantity': case 'isQuantity': case 'semver': case 'isSemver':
      return traverse(a0);
    case 'ip': return args.length === 1 && typeof a0 === 'string' ? traverse(a0) : 1;
    case 'ip.isCanonical': return traverse(a0, 2 * STRING);
    case 'replace': case 'split': return traverse(a0, 2 * STRING);
    case 'join': return traverse(result, 2 * STRING);
    case 'matches': case 'find': case 'findAll':
      return Math.ceil((1 + actualSize(a0)) * STRING) * Math.ceil(actualSize(a1) * REGEX);
    case 'containsIP': return 1 + (typeof a1 === 'string' ? traverse(a1) : 0);
    case 'containsCIDR': return 3 + (typeof a1 === 'string' ? traverse(a1) : 0);
    case 'contains': return traverse(a0) * traverse(a1);
    case 'startsWith': case 'endsWith': return traverse(a0);
    default: return undefined;
  }
}

/** Operators with a size-dependent price in cel-go (runtimecost.go costCall's O(n) cases). */
function operatorCost(op: string, l: unknown, r: unknown): number {
  switch (op) {
    case '==': case '!=':
      return Math.ceil(Math.min(actualSize(l), actualSize(r)) * STRING);
    case '<': case '<=': case '>': case '>=':
      return typeof l === 'string' || l instanceof Uint8Array ? Math.ceil(Math.min(actualSize(l), actualSize(r)) * STRING) : 1;
    case '+':
      return typeof l === 'string' || l instanceof Uint8Array ? Math.ceil((actualSize(l) + actualSize(r)) * STRING) : 1;
    case 'in':
      return Array.isArray(r) ? actualSize(r) : 1;
    default:
      return 1;
  }
}

const PRICED_CALLS = new Set([
  'check', 'fieldSelector', 'labelSelector', 'isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf', 'url', 'lowerAscii',
  'upperAscii', 'substring', 'trim', 'cidr', 'isIP', 'isCIDR', 'quantity', 'isQuantity', 'semver', 'isSemver', 'ip',
  'isCanonical', 'replace', 'split', 'join', 'matches', 'find', 'findAll', 'containsIP', 'containsCIDR', 'contains',
  'startsWith', 'endsWith',
]);
const SIZED_OPERATORS = new Set(['==', '!=', '<', '<=', '>', '>=', '+', 'in']);
const FREE = new Set(['&&', '||', '?:', 'value']);

interface Slot {
  value: unknown;
}

type Evaluate = (ev: unknown, ctx: unknown) => unknown;

/**
 * Makes every node of a checked AST charge its cost per evaluation. The checker
 * has settled each node's implementation (its `meta`); an own `evaluate` in
 * front of it takes precedence over the base library's. Operands whose value a
 * parent prices are recorded in a slot as they are evaluated.
 */
export function instrument(nodes: readonly AstNode[], meter: { current: CostMeter }): void {
  const slots = new Map<AstNode, Slot>();
  const slot = (n: AstNode): Slot => {
    let s = slots.get(n);
    if (s === undefined) slots.set(n, (s = { value: undefined }));
    return s;
  };
  const operands = new Map<AstNode, Slot[]>();
  for (const node of nodes) {
    const parts = callParts(node);
    if (parts !== undefined) {
      if (PRICED_CALLS.has(parts.name.replace(/^kapi_/, ''))) operands.set(node, [...(parts.target === undefined ? [] : [parts.target]), ...parts.args].map(slot));
    } else if (SIZED_OPERATORS.has(node.op)) {
      operands.set(node, (node.args as AstNode[]).map(slot));
    }
  }
  for (const node of nodes) {
    if (node.op === 'value') {
      // A constant operand is never evaluated through the wrapper; its slot holds it from the start.
      const s = slots.get(node);
      if (s !== undefined) s.value = node.args;
      continue;
    }
    const inner = innerEvaluate(node);
    const own = slots.get(node);
    const args = operands.get(node);
    const price = args === undefined ? fixedCost(node) : pricer(node, args, meter);
    Object.defineProperty(node, 'evaluate', {
      configurable: true,
      writable: true,
      value: (ev: unknown, _ast: AstNode, ctx: unknown): unknown => {
        let v = inner(ev, ctx);
        if (typeof price === 'number') {
          if (price !== 0) meter.current.charge(price);
        } else {
          v = price(v);
        }
        if (own !== undefined) own.value = v;
        return v;
      },
    });
  }
}

function innerEvaluate(node: AstNode): Evaluate {
  const meta = node.meta as AstNode['meta'] & { evaluate: AstNode['evaluate'] };
  const alternate = meta.alternate;
  const macro = meta.macro as (AstNode['meta']['macro'] & { evaluate(ev: unknown, m: unknown, ctx: unknown): unknown }) | undefined;
  if (alternate !== undefined) return (ev, ctx) => alternate.evaluate(ev, alternate, ctx);
  if (macro !== undefined) return (ev, ctx) => macro.evaluate(ev, macro, ctx);
  return (ev, ctx) => meta.evaluate(ev, node, ctx);
}

function fixedCost(node: AstNode): number {
  if (FREE.has(node.op) || node.meta.alternate !== undefined) return 0;
  if (node.op === 'id' && NAMESPACES.has(node.args as string)) return 0;
  if (node.op === 'list') return 10;
  if (node.op === 'map') return 30;
  return 1;
}

/** The post-step of a priced node: charges from the recorded operands and, for list types, corrects the result. */
function pricer(node: AstNode, args: readonly Slot[], meter: { current: CostMeter }): (result: unknown) => unknown {
  const parts = callParts(node);
  if (parts === undefined) {
    const op = node.op;
    return (result) => {
      const l = args[0]!.value;
      const r = args[1]!.value;
      meter.current.charge(operatorCost(op, l, r));
      if (op === '+' && Array.isArray(l)) return concatListType(l, r) ?? result;
      if ((op === '==' || op === '!=') && Array.isArray(l)) {
        const eq = equalListType(l, r);
        if (eq !== undefined) return op === '==' ? eq : !eq;
      }
      return result;
    };
  }
  const nsCall = parts.name === 'isCanonical' && parts.target?.op === 'id' && parts.target.args === 'ip';
  const name = nsCall ? 'ip.isCanonical' : parts.name.replace(/^kapi_/, '');
  const from = nsCall ? 1 : 0;
  return (result) => {
    const values = args.slice(from).map((s) => s.value);
    meter.current.charge(callCost(name, values, result) ?? 1);
    return result;
  };
}
