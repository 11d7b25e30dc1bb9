// What the filter chain learns about a request and hands down to the handlers.
// server/ fills it in onRequest (request info, user, audit id); endpoints/ reads it
// and adds warnings. Fastify carries it as request.kapi.
import type {} from 'fastify';
import type { Verb } from '../schema/api-resource.js';
import type { UserInfo } from '../schema/user.js';

/** Verbs of resource requests, plus the lower-cased HTTP method for non-resource ones. */
export type RequestVerb = Verb | 'proxy' | 'head' | 'options' | 'post' | 'put' | 'patch' | 'delete' | 'get';

/** The apiserver's RequestInfo: what a URL and method mean (k8s.io/apiserver/pkg/endpoints/request). */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  /** The URL path without the query. */
  readonly path: string;
  readonly verb: RequestVerb;
  /** 'api' or 'apis' for resource requests, '' otherwise. */
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly parts: readonly string[];
  /**
   * list, watch and deletecollection: the raw ?labelSelector= and ?fieldSelector=
   * when given (kube's AuthorizeWithSelectors, on by default in 1.36), which the
   * authorizers receive.
   */
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export interface RequestContext {
  readonly info: RequestInfo;
  /** Set by authentication; absent only before it ran. */
  user: UserInfo | undefined;
  readonly auditId: string;
  /** Texts for `Warning: 299 - "..."` response headers. */
  readonly warnings: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    kapi: RequestContext;
  }
}
