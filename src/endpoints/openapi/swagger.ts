// The Swagger 2.0 shapes kapi publishes. Only what we emit is typed; the v3
// documents and the gnostic encoding are derived from these, so this is the one
// description of an operation the rest of the folder agrees on.
import type { OpenApiSchema } from '../../schema/definitions.js';
import type { GroupVersionKind } from '../../schema/object.js';

/** kube-apiserver's x-kubernetes-action values (api/openapi-spec/README.md). */
export type Action = 'get' | 'list' | 'put' | 'patch' | 'post' | 'delete' | 'deletecollection' | 'watch' | 'watchlist';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

export type ParameterLocation = 'query' | 'path' | 'body';

export interface SwaggerParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required?: boolean;
  readonly type?: 'string' | 'boolean' | 'integer';
  readonly uniqueItems?: boolean;
  readonly schema?: OpenApiSchema;
}

export interface SwaggerResponse {
  readonly description: string;
  readonly schema?: OpenApiSchema;
}

export interface SwaggerOperation {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
  readonly schemes: readonly string[];
  readonly parameters?: readonly SwaggerParameter[];
  readonly responses: Readonly<Record<string, SwaggerResponse>>;
  readonly 'x-kubernetes-action'?: Action;
  readonly 'x-kubernetes-group-version-kind'?: GroupVersionKind;
}

export type SwaggerPathItem = Partial<Record<HttpMethod, SwaggerOperation>> & {
  readonly parameters?: readonly SwaggerParameter[];
};

export interface SwaggerDocument {
  readonly swagger: '2.0';
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Readonly<Record<string, SwaggerPathItem>>;
  readonly definitions: Readonly<Record<string, OpenApiSchema>>;
  readonly securityDefinitions: Readonly<Record<string, { type: 'apiKey'; name: string; in: 'header' }>>;
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
}

export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch'];
