// TokenReview: a virtual resource that asks the server's own authenticator
// whether a bearer token is valid and whom it names (webhook token
// authentication of kubelets, aggregated servers and Vault use it). Nothing is
// stored. Audiences follow kube's TokenReview REST: the spec's audiences, or the
// API audiences when it names none; the answer carries the audiences the token
// is good for. Service-account tokens are judged against the audiences asked for
// (a token made for `vault` passes a review asking for `vault`) and answer
// theirs; the other authenticators are audience-agnostic and treated as kube's
// WrapAudienceAgnosticToken treats them: good for the API audiences asked for, no others.
import type { Authenticator } from '../../../auth/authn/authenticator.js';
import { bearerToken, isAuthenticationError } from '../../../auth/authn/authenticator.js';
import { badRequest } from '../../../errors/status-error.js';
import { defineResource, type ResourceDefinition } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';

export interface TokenReviewDependencies {
  /** The authenticator the filter chain uses (x509 answers nothing for a bare token). */
  readonly authenticator: Authenticator;
  /** --api-audiences (the issuer by default): what a token must be for to reach this API. */
  readonly apiAudiences: readonly string[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function userInfo(user: { username: string; uid?: string; groups: readonly string[]; extra?: Readonly<Record<string, readonly string[]>> }): Record<string, unknown> {
  const out: Record<string, unknown> = { username: user.username };
  if (user.uid !== undefined && user.uid !== '') out.uid = user.uid;
  out.groups = [...user.groups];
  if (user.extra !== undefined && Object.keys(user.extra).length > 0) out.extra = structuredClone(user.extra);
  return out;
}

async function review(obj: KubeObject, namespace: string | undefined, deps: TokenReviewDependencies): Promise<KubeObject> {
  if (namespace !== undefined && namespace !== '') throw badRequest(`namespace is not allowed on this type: ${namespace}`);
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const token = typeof spec.token === 'string' ? spec.token : '';
  if (token === '') throw badRequest('token is required for TokenReview in authentication');
  const requested = strings(spec.audiences);
  const audiences = requested.length > 0 ? requested : [...deps.apiAudiences];
  // kube's status: authenticated and audiences omitted when empty, user always (a struct).
  const status: Record<string, unknown> = { user: {} };
  // What an audience-agnostic authenticator's answer is good for: the API audiences asked for.
  const good = audiences.filter((a) => deps.apiAudiences.includes(a));
  // The token travels as a header; one a header would not carry intact (a space inside,
  // whitespace at an end) must not match a shorter token.
  if (bearerToken({ authorization: `Bearer ${token}` }) === token) {
    try {
      const result = await deps.authenticator({ headers: { authorization: `Bearer ${token}` }, audiences });
      const granted = result === undefined ? [] : (result.audiences ?? good);
      if (result !== undefined && granted.length > 0) {
        Object.assign(status, { authenticated: true, user: userInfo(result.user), audiences: [...granted] });
      } else if (result !== undefined) {
        // kube's audience-agnostic wrapper abstains for audiences it does not serve, and the
        // bearer-token authenticator then names a token nobody accepted.
        status.error = 'invalid bearer token';
      }
    } catch (err) {
      // A token of a recognised kind that fails (expired, bad signature) is an answer, not a 500.
      if (!isAuthenticationError(err)) throw err;
      status.error = err.message;
    }
  }
  return {
    kind: 'TokenReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { ...obj.metadata, creationTimestamp: null },
    spec,
    status,
  };
}

export function tokenReviews(deps: TokenReviewDependencies): ResourceDefinition {
  return defineResource({
    group: 'authentication.k8s.io',
    version: 'v1',
    kind: 'TokenReview',
    plural: 'tokenreviews',
    scope: 'Cluster',
    virtualCreate: (obj, ctx) => review(obj, ctx.namespace, deps),
  });
}
