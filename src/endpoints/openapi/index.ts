// The OpenAPI folder's public surface for main.ts: documents that follow the
// catalog, rebuilt once per change (openapi.ts), and the GET routes (routes.ts).
export { createOpenApi, DEFAULT_OPENAPI_VERSION, type OpenApi, type OpenApiDocuments, type OpenApiOptions } from './openapi.js';
export { registerOpenApiRoutes } from './routes.js';
