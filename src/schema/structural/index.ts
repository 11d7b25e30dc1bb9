// The compiled schema model (structural.ts), how it is built (compile.ts), and how
// it is written back for publishing (to-openapi.ts). See structural.ts.
export * from './structural.js';
export { compileStructural, EMPTY_STRUCTURAL, isBuiltinTable, NO_VALUE_VALIDATION, structuralDefinition, structuralOf } from './compile.js';
export { toOpenApi } from './to-openapi.js';
export { validateValueGroups, validateValues, type ValidateValuesOptions, type ValueErrors } from './validate-values.js';
export { prune, type PruneOptions } from './prune.js';
export { applyDefaults, pruneNonNullableNullsWithoutDefaults, validateDefaults, type DefaultOptions, type ValidateDefaultsOptions } from './default.js';
export * as fieldSet from './field-set.js';
