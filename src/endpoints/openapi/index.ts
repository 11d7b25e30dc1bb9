// The OpenAPI folder's public surface for main.ts: build the documents once from
// the served resources (openapi.ts), then register the GET routes (routes.ts).
export { createOpenApi, DEFAULT_OPENAPI_VERSION, type OpenApi, type OpenApiOptions } from './openapi.js';
export { registerOpenApiRoutes } from './routes.js';
