// One compiled expression: checked, its worst-case cost known, its nodes
// metered. evaluate() binds variables (schema-typed ones from plain JSON) and
// stops with CostLimitExceeded once the evaluation spends perCallLimit.
import { EvaluationError } from '@marcbachmann/cel-js';
import { allNodes, astDepth, callParts, type AstNode } from './ast.js';
import { toCelValue } from './bindings.js';
import { estimateCost } from './cost.js';
import { CostMeter, instrument } from './runtime-cost.js';
import { CelCompileError, position } from './compile-error.js';
import { regexSyntaxError } from './library/regex.js';
import { redirectOverrides, userMessage } from './rewrite.js';
import type { DeclType } from './schema-types.js';

/** A runtime error of a rule (no such key, overflow, a library function's error). */
export class CelEvaluationError extends Error {}

export interface Program {
  readonly expression: string;
  /** Worst-case cost in Kubernetes units (Infinity when unbounded). */
  readonly estimatedCost: number;
  /** The root of the checked AST (for estimates across rules). */
  readonly ast: AstNode;
  /** The actual cost of the last evaluation. */
  readonly lastCost: number;
  /**
   * Evaluates with `bindings` (variable name → value; schema-typed variables take
   * decoded JSON). Throws CelEvaluationError or CostLimitExceeded.
   */
  evaluate(bindings: Readonly<Record<string, unknown>>): unknown;
}

/** cel-go's default parser recursion limit. */
export const MAX_RECURSION_DEPTH = 250;

const REGEX_FUNCTIONS = new Set(['kapi_matches', 'find', 'findAll']);

export function compileProgram(input: {
  expression: string;
  parse: (e: string) => { ast: AstNode; run: (ctx: Record<string, unknown>) => unknown; check: () => void };
  overrides: ReadonlySet<string>;
  decls: ReadonlyMap<string, DeclType>;
  perCallLimit: number;
}): Program {
  const { expression, decls } = input;
  const parsed = input.parse(expression);
  // cel-go's parser stops at a recursion depth of 250; the walks below recurse too.
  if (astDepth(parsed.ast) > MAX_RECURSION_DEPTH) throw new CelCompileError('max recursion depth exceeded', expression, undefined);
  redirectOverrides(parsed.ast, input.overrides);
  parsed.check();
  const nodes = allNodes(parsed.ast);
  checkConstantRegexes(nodes, expression);
  const estimatedCost = estimateCost(parsed.ast, { variable: (n) => decls.get(n) });
  const meter = { current: new CostMeter(input.perCallLimit) };
  instrument(nodes, meter);
  const names = [...decls.keys()];
  return {
    expression,
    estimatedCost,
    ast: parsed.ast,
    get lastCost() {
      return meter.current.used;
    },
    evaluate(bindings) {
      let ctx = bindings as Record<string, unknown>;
      if (names.length > 0) {
        ctx = { ...bindings };
        for (const n of names) if (Object.hasOwn(bindings, n)) ctx[n] = toCelValue(bindings[n], decls.get(n)!);
      }
      const m = new CostMeter(input.perCallLimit);
      try {
        meter.current = m;
        return parsed.run(ctx);
      } catch (err) {
        if (err instanceof EvaluationError) {
          // A budget overrun inside a quantifier surfaces as the evaluator's error; report the overrun.
          if (err.cause instanceof Error && err.cause.constructor.name === 'CostLimitExceeded') throw err.cause;
          throw new CelEvaluationError(userMessage(err.summary));
        }
        throw err;
      }
    },
  };
}

/** RE2 rejects what it cannot run in linear time; a constant pattern is rejected before the rule is stored. */
function checkConstantRegexes(nodes: readonly AstNode[], expression: string): void {
  for (const n of nodes) {
    const call = callParts(n);
    if (call === undefined || !REGEX_FUNCTIONS.has(call.name)) continue;
    const pattern = call.target === undefined ? call.args[1] : call.args[0];
    if (pattern?.op !== 'value' || typeof pattern.args !== 'string') continue;
    const reason = regexSyntaxError(pattern.args);
    if (reason !== undefined) throw new CelCompileError(reason, expression, position(expression, pattern.start));
  }
}
