// The compiled schema model (structural.ts), how it is built (compile.ts), and how
// it is written back for publishing (to-openapi.ts). See structural.ts.
export * from './structural.js';
export { compileStructural, EMPTY_STRUCTURAL, isBuiltinTable, NO_VALUE_VALIDATION, structuralDefinition, structuralOf } from './compile.js';
export { toOpenApi } from './to-openapi.js';
