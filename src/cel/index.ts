// kapi's CEL library: the Kubernetes expression environment used by CRD
// validation rules, admission policies and match conditions. It depends on
// nothing in the server; callers build an environment (variables + limits),
// compile rules once (cached) and evaluate them per object.
export { CelCompileError, type SourcePosition } from './compile-error.js';
export { CelEnvironment, createCelEnvironment, ruleVariables, type CelEnvironmentOptions, type CelVariable } from './environment.js';
export { CelEvaluationError, type Program } from './program.js';
export { CRD_COST_LIMITS } from './cost.js';
export { CostLimitExceeded } from './runtime-cost.js';
export { authorizerValue, AUTHORIZER_TYPE, type AuthorizationDecision, type CelAuthorizationAttributes, type CelAuthorizationResult, type CelAuthorizer } from './library/authz.js';
export type { CelFeatureGates } from './library/index.js';
export { declTypeOf, type DeclField, type DeclType, type DeclTypeOptions } from './schema-types.js';
export { escapePropertyName, unescapePropertyName } from './escaping.js';
export { compileRules, compiledRulesOf, RULE_REASONS, type CompiledRule, type CompileRulesOptions, type NodeRules, type RuleCompilation, type RuleReason } from './rules/compile.js';
export { evaluateRules, type EvaluateRulesOptions } from './rules/evaluate.js';
