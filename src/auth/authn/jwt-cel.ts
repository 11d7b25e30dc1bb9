// The CEL side of JWT authenticators (k8s.io/apiserver/pkg/authentication/cel):
// two environments, one with `claims` (map(string, dyn): the token's payload as
// JSON decoded it, so numbers are doubles as Go's json gives them) for claim
// mappings and claim validation rules, one with `user` (kubernetes.UserInfo:
// username, uid, groups, extra) for user validation rules. Compile errors carry
// kube's wording ("compilation failed: …", "must evaluate to bool"); evaluation
// runs under kube's per-call cost limit.
import { CelCompileError, CelEvaluationError, CostLimitExceeded, createCelEnvironment, declTypeOf, unescapePropertyName, type CelEnvironment, type Program } from '../../cel/index.js';
import { compileStructural } from '../../schema/structural/index.js';
import type { UserInfo } from '../../schema/user.js';

/** apiserver pkg/apis/cel/config.go PerCallLimit: the most one evaluation may spend. */
export const PER_CALL_LIMIT = 1_000_000;
/** cel-go's default parser limit on an expression's size, in code points. */
export const EXPRESSION_SIZE_LIMIT = 100_000;

const USER_INFO_SCHEMA = {
  type: 'object',
  properties: {
    username: { type: 'string' },
    uid: { type: 'string' },
    groups: { type: 'array', items: { type: 'string' } },
    extra: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
} as const;

let claimsEnv: CelEnvironment | undefined;
let userEnv: CelEnvironment | undefined;

/**
 * kube's authentication compiler checks no estimated cost (only the run-time
 * per-call limit applies), so the static limit is off here.
 */
function environment(variable: 'claims' | 'user'): CelEnvironment {
  if (variable === 'claims') {
    claimsEnv ??= createCelEnvironment({ variables: [{ name: 'claims', type: 'map<string, dyn>' }], costLimit: Infinity, perCallLimit: PER_CALL_LIMIT });
    return claimsEnv;
  }
  if (userEnv === undefined) {
    const type = declTypeOf(compileStructural(USER_INFO_SCHEMA), 'kubernetes.UserInfo');
    if (type === undefined) throw new Error('UserInfo has no CEL type');
    userEnv = createCelEnvironment({ variables: [{ name: 'user', type }], costLimit: Infinity, perCallLimit: PER_CALL_LIMIT });
  }
  return userEnv;
}

/** Why an expression does not compile: the detail of kube's field.Invalid. */
export class ExpressionCompileError extends Error {
  override readonly name = 'ExpressionCompileError';
}

/**
 * Compiles in the `claims` or `user` environment; `bool` expressions must have
 * the static type bool (dyn is refused, as cel-go's OutputType check refuses it).
 */
export function compileAuthenticationExpression(expression: string, opts: { variable: 'claims' | 'user'; result: 'bool' | 'any' }): Program {
  const size = [...expression].length;
  if (size > EXPRESSION_SIZE_LIMIT) {
    throw new ExpressionCompileError(`compilation failed: expression code point size exceeds limit: size: ${size}, limit ${EXPRESSION_SIZE_LIMIT}`);
  }
  let program: Program;
  try {
    program = environment(opts.variable).compile(expression);
  } catch (err) {
    if (err instanceof CelCompileError) throw new ExpressionCompileError(`compilation failed: ${err.message}`);
    throw err;
  }
  if (opts.result === 'bool' && program.ast.checkedType?.name !== 'bool') throw new ExpressionCompileError('must evaluate to bool');
  return program;
}

/** A run-time failure of an expression (kube's error text, for the 401's log line). */
export class ExpressionEvaluationError extends Error {
  override readonly name = 'ExpressionEvaluationError';
}

/** Evaluates; a failure reads as kube's mapper words it ("expression '…' resulted in error: …"). */
function run(program: Program, bindings: Record<string, unknown>): unknown {
  const failed = (why: string) => new ExpressionEvaluationError(`expression '${program.expression}' resulted in error: ${why}`);
  try {
    return program.evaluate(bindings);
  } catch (err) {
    if (err instanceof CostLimitExceeded) throw failed('operation cancelled: actual cost limit exceeded');
    if (err instanceof CelEvaluationError) throw failed(err.message);
    throw err;
  }
}

export function evaluateClaims(program: Program, claims: Readonly<Record<string, unknown>>): unknown {
  return run(program, { claims: unescaping(claims) });
}

/**
 * kube's unescapeWrapper: a claim name CEL cannot spell is reached through its
 * escaped form (`claims.foo__dot__bar` reads "foo.bar"; also __dash__, __slash__,
 * __underscores__), at any depth. As kube's Find does, a lookup whose name
 * unescapes to another name reads only that one; iteration and size see the real
 * names. Objects are wrapped lazily; arrays (bounded by the token) are copied so
 * their iteration yields wrapped members.
 */
function unescaping(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unescaping);
  if (value === null || typeof value !== 'object') return value;
  const lookup = (k: string | symbol): string | symbol => {
    if (typeof k !== 'string') return k;
    const name = unescapePropertyName(k);
    return name === undefined ? k : name;
  };
  return new Proxy(value as Record<string, unknown>, {
    get: (target, k) => {
      const name = lookup(k);
      return typeof name === 'string' && Object.hasOwn(target, name) ? unescaping(target[name]) : Reflect.get(target, k);
    },
    has: (target, k) => Reflect.has(target, lookup(k)),
    getOwnPropertyDescriptor: (target, k) => {
      const d = Reflect.getOwnPropertyDescriptor(target, lookup(k));
      return d === undefined ? undefined : { ...d, value: unescaping(d.value), configurable: true };
    },
  });
}

/** `user` as kube's lazy map presents it: every field present, absent ones empty. */
export function evaluateUser(program: Program, user: UserInfo): unknown {
  return run(program, { user: { username: user.username, uid: user.uid ?? '', groups: [...user.groups], extra: { ...(user.extra ?? {}) } } });
}

/**
 * kube's convertCELValueToStringList: a string (empty: none) or a list of strings
 * (empty entries dropped; empty: none) or null; anything else is an error.
 */
export function celStringList(value: unknown): string[] | undefined {
  if (value === null) return undefined;
  if (typeof value === 'string') return value === '' ? undefined : [value];
  if (!Array.isArray(value)) throw new ExpressionEvaluationError('expression must return a string or a list of strings');
  const out: string[] = [];
  for (const v of value) {
    if (typeof v !== 'string') throw new ExpressionEvaluationError('expression must return a string or a list of strings');
    if (v !== '') out.push(v);
  }
  return out.length === 0 ? undefined : out;
}
