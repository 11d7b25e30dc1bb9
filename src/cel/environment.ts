// The CEL environment kapi's callers compile rules in: CRD validation rules,
// admission policies, match conditions and authentication expressions all start
// here. An environment is the base language (@marcbachmann/cel-js, chosen in
// docs/cel.md) plus Kubernetes' libraries, a set of typed variables and cost
// limits; compile() type-checks, estimates cost and caches the program.
import { Environment, ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js';
import type { AstNode } from './ast.js';
import { CelCompileError, position } from './compile-error.js';
import { registerDeclTypes } from './bindings.js';
import { CRD_COST_LIMITS, estimateCost } from './cost.js';
import { kubernetesLibraries, type CelFeatureGates } from './library/index.js';
import type { CelLibrary } from './library/library.js';
import { compileProgram, type Program } from './program.js';
import { userMessage } from './rewrite.js';
import type { Structural } from '../schema/structural/index.js';
import { declTypeOf, type DeclType } from './schema-types.js';

export interface CelVariable {
  readonly name: string;
  /** A CEL type in the base library's syntax (`int`, `map<string, dyn>`) or a schema-derived type. */
  readonly type: string | DeclType;
}

export interface CelEnvironmentOptions {
  readonly variables?: readonly CelVariable[];
  /** Worst-case estimated cost above which compile() refuses; default: CRD staticEstimatedCostLimit. */
  readonly costLimit?: number;
  /** Actual cost at which one evaluation stops; default: CRD perCallLimit. */
  readonly perCallLimit?: number;
  readonly libraries?: readonly CelLibrary[];
  /** Gates that add functions (AuthorizeWithSelectors); ignored when `libraries` is given. */
  readonly featureGates?: CelFeatureGates;
}

const CACHE_LIMIT = 1000;

// Optional types (`?.`, `[?]`, optional.of) are part of Kubernetes' base environment;
// mixed list literals are legal CEL (list(dyn)).
const ENV_OPTIONS = { enableOptionalTypes: true, homogeneousAggregateLiterals: false } as const;

interface BaseEnvironment {
  readonly env: Environment;
  readonly overrides: ReadonlySet<string>;
}

/**
 * The libraries registered once per library set, each environment a clone of it:
 * registering every Kubernetes library costs about 10 ms, and a CRD compiles one
 * environment per schema node that carries rules (a clone costs microseconds; the
 * library freezes the parent, so a clone never changes what the next one sees).
 */
const basesByGates = new Map<string, BaseEnvironment>();
const basesByLibraries = new WeakMap<readonly CelLibrary[], BaseEnvironment>();

function baseEnvironment(options: CelEnvironmentOptions): BaseEnvironment {
  if (options.libraries !== undefined) {
    let base = basesByLibraries.get(options.libraries);
    if (base === undefined) {
      base = makeBase(options.libraries);
      basesByLibraries.set(options.libraries, base);
    }
    return base;
  }
  const key = JSON.stringify(options.featureGates ?? {});
  let base = basesByGates.get(key);
  if (base === undefined) {
    base = makeBase(kubernetesLibraries(options.featureGates));
    basesByGates.set(key, base);
  }
  return base;
}

function makeBase(libraries: readonly CelLibrary[]): BaseEnvironment {
  const env = new Environment(ENV_OPTIONS);
  for (const lib of libraries) lib.register(env);
  return { env, overrides: new Set(libraries.flatMap((l) => l.overrides ?? [])) };
}

export class CelEnvironment {
  readonly costLimit: number;
  readonly perCallLimit: number;
  private readonly env: Environment;
  private readonly decls = new Map<string, DeclType>();
  private readonly overrides: ReadonlySet<string>;
  private readonly cache = new Map<string, Program>();
  /** Compiles served from the cache, for the bench and tests. */
  cacheHits = 0;

  constructor(options: CelEnvironmentOptions = {}) {
    this.costLimit = options.costLimit ?? CRD_COST_LIMITS.staticEstimatedCostLimit;
    this.perCallLimit = options.perCallLimit ?? CRD_COST_LIMITS.perCallLimit;
    const base = baseEnvironment(options);
    this.env = base.env.clone(ENV_OPTIONS);
    this.overrides = base.overrides;
    for (const v of options.variables ?? []) {
      if (typeof v.type === 'string') {
        this.env.registerVariable(v.name, v.type);
      } else {
        registerDeclTypes(this.env, v.type);
        this.decls.set(v.name, v.type);
        this.env.registerVariable(v.name, v.type.celType);
      }
    }
  }

  /**
   * The compiled program for `expression`, from the cache when this environment
   * compiled it before. Throws CelCompileError with the position of the problem.
   */
  compile(expression: string): Program {
    const hit = this.cache.get(expression);
    if (hit !== undefined) {
      this.cacheHits++;
      return hit;
    }
    let program: Program;
    try {
      program = compileProgram({
        expression,
        parse: (e) => this.parse(e),
        overrides: this.overrides,
        decls: this.decls,
        perCallLimit: this.perCallLimit,
      });
    } catch (err) {
      // The parser itself recurses: an expression nested past the stack is a client's mistake, not a crash.
      if (err instanceof RangeError) throw new CelCompileError('max recursion depth exceeded', expression, undefined);
      throw err;
    }
    if (program.estimatedCost > this.costLimit) {
      throw new CelCompileError(
        `estimated rule cost ${formatCost(program.estimatedCost)} exceeds the limit ${this.costLimit}; ` +
          'bound the lists, maps and strings it reads with maxItems, maxProperties and maxLength, or simplify the rule',
        expression,
        undefined,
      );
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(expression, program);
    return program;
  }

  /** Worst-case cost of an already compiled expression (for CRD-wide sums). */
  estimate(root: AstNode): number {
    return estimateCost(root, { variable: (n) => this.decls.get(n) });
  }

  private parse(expression: string): { ast: AstNode; run: (ctx: Record<string, unknown>) => unknown; check: () => void } {
    let parsed: ReturnType<Environment['parse']>;
    try {
      parsed = this.env.parse(expression);
    } catch (err) {
      throw compileError(err, expression);
    }
    return {
      ast: parsed.ast as unknown as AstNode,
      run: (ctx) => parsed(ctx),
      check: () => {
        const result = parsed.check();
        if (!result.valid) throw compileError(result.error, expression);
      },
    };
  }
}

export function createCelEnvironment(options: CelEnvironmentOptions = {}): CelEnvironment {
  return new CelEnvironment(options);
}

/**
 * The variables of a CRD validation rule: `self` typed by the schema node the
 * rule is attached to and, for transition rules, `oldSelf` of the same type.
 * `resourceRoot` for a custom resource's root (apiVersion, kind and
 * metadata.name/generateName readable, as kube types it).
 */
export function ruleVariables(node: Structural, options: { oldSelf?: boolean; resourceRoot?: boolean } = {}): CelVariable[] {
  const decl = declTypeOf(node, 'kapi.self', { resourceRoot: options.resourceRoot });
  if (decl === undefined) throw new Error('schema has no CEL type (an array without items?)');
  return options.oldSelf === true ? [{ name: 'self', type: decl }, { name: 'oldSelf', type: decl }] : [{ name: 'self', type: decl }];
}

function compileError(err: unknown, expression: string): CelCompileError {
  if (err instanceof ParseError || err instanceof CelTypeError) {
    const start = err.range?.start;
    return new CelCompileError(userMessage(err.summary), expression, start === undefined ? undefined : position(expression, start));
  }
  throw err;
}

function formatCost(c: number): string {
  return c === Infinity ? 'unbounded' : String(c);
}
