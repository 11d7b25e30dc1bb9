// A webhook's matchConditions (apiserver authorization/cel): CEL expressions over
// `request`, the SubjectAccessReview spec in its v1 shape, each of which must
// yield bool. Compiled once when the configuration is validated, with kube's
// limits and messages (at most 64, none blank, none twice, "compilation failed:
// …"); evaluated per request in file order as CELMatcher.Eval does: the first
// false skips the webhook even after errors, otherwise any error is the answer.
import { CelCompileError, CelEvaluationError, CostLimitExceeded, createCelEnvironment, declTypeOf, type CelEnvironment, type DeclType, type Program } from '../../../cel/index.js';
import type { DeclField } from '../../../cel/schema-types.js';
import { compileStructural } from '../../../schema/structural/index.js';
import { duplicate, invalidValue, path as rootPath, required, tooMany, type FieldError, type FieldPath } from '../../../schema/field-errors.js';
import { EXPRESSION_SIZE_LIMIT, PER_CALL_LIMIT } from '../../authn/jwt-cel.js';
import { aggregateMessage } from './errors.js';
import type { SubjectAccessReviewSpec } from './subject-access-review.js';

export const MAX_MATCH_CONDITIONS = 64;

const STRING = { type: 'string' } as const;
const STRINGS = { type: 'array', items: STRING } as const;
const SELECTOR = { type: 'object', properties: { rawSelector: STRING, requirements: { type: 'array', items: { type: 'object', properties: { key: STRING, operator: STRING, values: STRINGS } } } } } as const;
const REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    resourceAttributes: {
      type: 'object',
      properties: { namespace: STRING, verb: STRING, group: STRING, version: STRING, resource: STRING, subresource: STRING, name: STRING, fieldSelector: SELECTOR, labelSelector: SELECTOR },
    },
    nonResourceAttributes: { type: 'object', properties: { path: STRING, verb: STRING } },
    user: STRING,
    groups: STRINGS,
    extra: { type: 'object', additionalProperties: STRINGS },
    uid: STRING,
  },
} as const;

/** kube's object type names (authorization/cel compile.go), by the field or list that holds them. */
const KUBE_TYPE_NAMES: Readonly<Record<string, string>> = {
  SubjectAccessReviewSpec: 'kubernetes.SubjectAccessReviewSpec',
  resourceAttributes: 'kubernetes.ResourceAttributes',
  nonResourceAttributes: 'kubernetes.NonResourceAttributes',
  fieldSelector: 'kubernetes.FieldSelectorAttributes',
  labelSelector: 'kubernetes.LabelSelectorAttributes',
  __items__: 'kubernetes.SelectorRequirement',
};

/**
 * The schema's declaration with kube's names: fields under their JSON names (kube
 * does not escape them, so `request.resourceAttributes.namespace` compiles, where
 * a CRD schema would need `__namespace__`) and one SelectorRequirement type.
 */
function withKubeNames(d: DeclType, memo: Map<string, DeclType>): DeclType {
  if (d.kind === 'list' || d.kind === 'map') {
    const elem = withKubeNames(d.elem!, memo);
    return { ...d, elem, celType: d.kind === 'list' ? `list<${elem.celType}>` : `map<string, ${elem.celType}>` };
  }
  if (d.kind !== 'object') return d;
  const last = d.celType.slice(d.celType.lastIndexOf('.') + 1);
  const name = Object.hasOwn(KUBE_TYPE_NAMES, last) ? KUBE_TYPE_NAMES[last]! : d.celType;
  const seen = memo.get(name);
  if (seen !== undefined) return seen;
  const fields = new Map<string, DeclField>();
  for (const f of d.fields!.values()) fields.set(f.jsonName, { jsonName: f.jsonName, type: withKubeNames(f.type, memo) });
  const out: DeclType = { ...d, celType: name, fields };
  memo.set(name, out);
  return out;
}

let env: CelEnvironment | undefined;

/** kube's authorization compiler checks no estimated cost; only the per-call limit applies. */
function environment(): CelEnvironment {
  if (env === undefined) {
    const type = declTypeOf(compileStructural(REQUEST_SCHEMA), 'kubernetes.SubjectAccessReviewSpec');
    if (type === undefined) throw new Error('SubjectAccessReviewSpec has no CEL type');
    env = createCelEnvironment({ variables: [{ name: 'request', type: withKubeNames(type, new Map()) }], costLimit: Infinity, perCallLimit: PER_CALL_LIMIT });
  }
  return env;
}

/** Why an expression does not compile (the detail of kube's field.Invalid). */
function compileDetail(expression: string): { program?: Program; detail?: string } {
  const size = [...expression].length;
  if (size > EXPRESSION_SIZE_LIMIT) return { detail: `compilation failed: expression code point size exceeds limit: size: ${size}, limit ${EXPRESSION_SIZE_LIMIT}` };
  let program: Program;
  try {
    program = environment().compile(expression);
  } catch (err) {
    if (err instanceof CelCompileError) return { detail: `compilation failed: ${err.message}` };
    throw err;
  }
  const type = program.ast.checkedType?.name ?? 'dyn';
  return type === 'bool' ? { program } : { detail: `must evaluate to bool but got ${type}` };
}

/**
 * kube's compileMatchConditions: the compiled programs and every problem, under
 * `at` (the authorizer's path in the file; the root for --authorization-webhook-*).
 */
export function compileMatchConditions(expressions: readonly string[], at: FieldPath = rootPath()): { programs: Program[]; errors: FieldError[] } {
  const list = at.child('matchConditions');
  if (expressions.length > MAX_MATCH_CONDITIONS) return { programs: [], errors: [tooMany(list, expressions.length, MAX_MATCH_CONDITIONS)] };
  const programs: Program[] = [];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  expressions.forEach((expression, i) => {
    const p = list.index(i).child('expression');
    if (expression.trim() === '') return void errors.push(required(p));
    if (seen.has(expression)) return void errors.push(duplicate(p, expression));
    seen.add(expression);
    const { program, detail } = compileDetail(expression);
    if (program !== undefined) programs.push(program);
    else errors.push(invalidValue(p, expression, detail!));
  });
  return { programs, errors };
}

/** convertObjectToUnstructured: every user field present, absent ones empty. */
function requestValue(spec: SubjectAccessReviewSpec): Record<string, unknown> {
  const r = spec.resourceAttributes;
  const selector = (s: { requirements: readonly { key: string; operator: string; values?: readonly string[] }[] } | undefined) =>
    s === undefined ? undefined : { requirements: s.requirements.map((q) => ({ key: q.key, operator: q.operator, values: q.values ?? [] })) };
  const resourceAttributes =
    r === undefined
      ? undefined
      : { namespace: r.namespace, verb: r.verb, group: r.group, version: r.version, resource: r.resource, subresource: r.subresource, name: r.name, fieldSelector: selector(r.fieldSelector), labelSelector: selector(r.labelSelector) };
  return {
    user: spec.user,
    groups: spec.groups,
    uid: spec.uid,
    extra: spec.extra ?? {},
    ...(resourceAttributes === undefined ? {} : { resourceAttributes }),
    ...(spec.nonResourceAttributes === undefined ? {} : { nonResourceAttributes: spec.nonResourceAttributes }),
  };
}

export type MatchResult = { readonly kind: 'match' } | { readonly kind: 'noMatch' } | { readonly kind: 'error'; readonly error: string };

export function evaluateMatchConditions(programs: readonly Program[], spec: SubjectAccessReviewSpec): MatchResult {
  if (programs.length === 0) return { kind: 'match' };
  const bindings = { request: requestValue(spec) };
  const errors: string[] = [];
  for (const program of programs) {
    const failed = (why: string) => errors.push(`cel evaluation error: expression '${program.expression}' resulted in error: ${why}`);
    let value: unknown;
    try {
      value = program.evaluate(bindings);
    } catch (err) {
      if (err instanceof CostLimitExceeded) failed('operation cancelled: actual cost limit exceeded');
      else if (err instanceof CelEvaluationError) failed(err.message);
      else throw err;
      continue;
    }
    if (typeof value !== 'boolean') errors.push(`cel evaluation error: expression '${program.expression}' eval result type should be bool`);
    else if (!value) return { kind: 'noMatch' };
  }
  return errors.length === 0 ? { kind: 'match' } : { kind: 'error', error: aggregateMessage(errors) };
}
