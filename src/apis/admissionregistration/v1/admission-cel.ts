// CEL expressions of the admission kinds (webhook matchConditions, policy
// validations, variables, audit annotations, match conditions) are compiled
// when the object is written, as kube-apiserver's validation does, so a bad
// expression is refused with the field's path instead of failing at admission
// time. The variables are the admission environment's (object, oldObject,
// request, params, namespaceObject, authorizer, variables), typed as kube types
// them when no paramKind type is known: dyn, so field access checks at run time.
import { AUTHORIZER_TYPE, CelCompileError, createCelEnvironment, type CelEnvironment } from '../../../cel/index.js';
import { invalidValue, required, type FieldError, type FieldPath } from '../../../schema/field-errors.js';

/** Which admission environment an expression compiles in. */
export type ExpressionScope = 'webhook' | 'policy';

const environments = new Map<ExpressionScope, CelEnvironment>();

/**
 * Webhook match conditions see object, oldObject, request and authorizer; policy
 * expressions also params, namespaceObject and variables.
 */
function admissionEnvironment(scope: ExpressionScope): CelEnvironment {
  let env = environments.get(scope);
  if (env === undefined) {
    const common = [
      { name: 'object', type: 'dyn' },
      { name: 'oldObject', type: 'dyn' },
      { name: 'request', type: 'dyn' },
      { name: 'authorizer', type: AUTHORIZER_TYPE },
    ];
    const policy = [
      { name: 'params', type: 'dyn' },
      { name: 'namespaceObject', type: 'dyn' },
      { name: 'variables', type: 'map<string, dyn>' },
    ];
    env = createCelEnvironment({
      variables: scope === 'webhook' ? common : [...common, ...policy],
      // AuthorizeWithSelectors is GA and locked on in 1.36: no --feature-gates value
      // can turn the authorizer's fieldSelector/labelSelector off, so it is not passed down.
      featureGates: { authorizeWithSelectors: true },
    });
    environments.set(scope, env);
  }
  return env;
}

export type ExpressionResult = 'bool' | 'string' | 'any';

/**
 * The causes of one expression: Required when empty; Invalid with kube's
 * "compilation failed: …" when it does not parse or type-check; "must evaluate
 * to bool/string" when its type is known to be something else (dyn passes, and
 * is checked when evaluated).
 */
export function validateExpression(expression: unknown, p: FieldPath, result: ExpressionResult, scope: ExpressionScope = 'policy'): FieldError[] {
  return validateCelExpression(admissionEnvironment(scope), expression, p, result);
}

/** Compiles in `env`; a CelCompileError (deep nesting included, src/cel refuses it) is the client's error. */
function compileFails(env: CelEnvironment, expression: string): string | undefined {
  try {
    env.compile(expression);
    return undefined;
  } catch (err) {
    if (err instanceof CelCompileError) return err.message;
    throw err;
  }
}

/** validateExpression in any environment (device selectors use their own). */
export function validateCelExpression(env: CelEnvironment, expression: unknown, p: FieldPath, result: ExpressionResult): FieldError[] {
  if (typeof expression !== 'string' || expression.trim() === '') return [required(p)];
  const failure = compileFails(env, expression);
  if (failure !== undefined) return [invalidValue(p, expression, `compilation failed: ${failure}`)];
  if (result === 'any') return [];
  // The result type is not exposed by the compiled program: an expression that
  // only type-checks where a value of the wanted type is expected has that type (or dyn).
  const probe = result === 'bool' ? `!(${expression})` : `(${expression}) + ''`;
  return compileFails(env, probe) === undefined ? [] : [invalidValue(p, expression, `must evaluate to ${result}`)];
}
