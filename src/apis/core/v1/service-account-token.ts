// serviceaccounts/token: POST an authentication.k8s.io/v1 TokenRequest, get a
// signed token for the account (`kubectl create token`), as kube's TokenREST
// does. Audiences default to the API audiences; expirationSeconds to an hour and
// at least ten minutes; a token may be bound to a Pod or Secret of the account's
// namespace, or to a Node, and then stops working when that object goes. Dry run
// answers without a token. The signer comes from coreV1's dependencies (index.ts).
// Also here: the write the legacy-token authenticator makes (the last-used label).
import { randomUUID } from 'node:crypto';
import { badRequest, conflict, invalid, notFound } from '../../../errors/status-error.js';
import type { ResourceStore } from '../../../registry/store/types.js';
import { invalidValue, notSupported, path, type FieldError } from '../../../schema/field-errors.js';
import type { ResourceDefinition, SubresourceCreateContext } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import type { ServiceAccountClaims, TokenKeys } from '../../../auth/serviceaccount/tokens.js';
import { rfc3339 } from '../../../registry/store/metadata.js';

const TOKEN_REQUEST = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' } as const;
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

const BINDABLE = {
  Pod: { group: '', plural: 'pods', scope: 'Namespaced', claim: 'pod' },
  Secret: { group: '', plural: 'secrets', scope: 'Namespaced', claim: 'secret' },
  Node: { group: '', plural: 'nodes', scope: 'Cluster', claim: 'node' },
} as const;

interface BoundRef {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

interface TokenRequestSpec {
  audiences?: unknown;
  expirationSeconds?: unknown;
  boundObjectRef?: BoundRef | null;
}

function validateSpec(spec: TokenRequestSpec): FieldError[] {
  const errs: FieldError[] = [];
  const sp = path('spec');
  const exp = spec.expirationSeconds;
  if (exp !== undefined && exp !== null) {
    if (typeof exp !== 'number' || !Number.isInteger(exp)) errs.push(invalidValue(sp.child('expirationSeconds'), exp, 'must be an integer'));
    else if (exp < MIN_EXPIRATION_SECONDS) errs.push(invalidValue(sp.child('expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'));
    else if (exp > MAX_EXPIRATION_SECONDS) errs.push(invalidValue(sp.child('expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'));
  }
  const aud = spec.audiences;
  if (aud !== undefined && aud !== null && (!Array.isArray(aud) || aud.some((a) => typeof a !== 'string'))) {
    errs.push(invalidValue(sp.child('audiences'), aud, 'must be a list of strings'));
  }
  const ref = spec.boundObjectRef;
  if (ref !== undefined && ref !== null) {
    const rp = sp.child('boundObjectRef');
    if (!Object.hasOwn(BINDABLE, ref.kind ?? '')) errs.push(notSupported(rp.child('kind'), ref.kind ?? '', Object.keys(BINDABLE)));
    if ((ref.apiVersion ?? 'v1') !== 'v1') errs.push(notSupported(rp.child('apiVersion'), ref.apiVersion, ['v1']));
    if ((ref.name ?? '') === '') errs.push(invalidValue(rp.child('name'), ref.name ?? '', 'must be set'));
  }
  return errs;
}

/** What the token subresource needs of the server's service-account keys: the audiences and a signer. */
export type TokenIssuer = Pick<TokenKeys, 'apiAudiences' | 'issue'>;

/** The account's definition with its token subresource; `keys` sign what it answers. */
export function withTokenRequest(serviceAccounts: ResourceDefinition, keys: TokenIssuer): ResourceDefinition {
  const create = async (sa: KubeObject, body: KubeObject, ctx: SubresourceCreateContext): Promise<KubeObject> => {
    const spec = ((body as { spec?: TokenRequestSpec }).spec ?? {}) as TokenRequestSpec;
    const name = sa.metadata.name ?? '';
    const namespace = sa.metadata.namespace ?? '';
    const errs = validateSpec(spec);
    if (errs.length > 0) throw invalid(TOKEN_REQUEST, name, errs);
    const audiences = Array.isArray(spec.audiences) && spec.audiences.length > 0 ? (spec.audiences as string[]) : [...keys.apiAudiences];
    const expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : DEFAULT_EXPIRATION_SECONDS;
    let claims: ServiceAccountClaims = { namespace, serviceaccount: { name, uid: sa.metadata.uid ?? '' } };
    const ref = spec.boundObjectRef ?? undefined;
    let boundRef: BoundRef | undefined;
    if (ref !== undefined) {
      const kind = BINDABLE[ref.kind as keyof typeof BINDABLE];
      const target = await ctx.getObject(kind, kind.scope === 'Namespaced' ? namespace : '', ref.name!);
      if (target === undefined) throw notFound({ group: '', resource: kind.plural }, ref.name!);
      const uid = target.metadata.uid ?? '';
      if ((ref.uid ?? '') !== '' && ref.uid !== uid) {
        throw conflict(
          { group: '', resource: ref.kind! },
          ref.name!,
          `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
        );
      }
      claims = { ...claims, [kind.claim]: { name: ref.name!, uid } };
      if (ref.kind === 'Pod') {
        const spec = (target as { spec?: { serviceAccountName?: unknown; nodeName?: unknown } }).spec;
        if (spec?.serviceAccountName !== name) {
          throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
        }
        // ServiceAccountTokenPodNodeInfo (GA): the pod's node, with its uid when the Node exists.
        const nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : '';
        if (nodeName !== '') {
          const node = await ctx.getObject(BINDABLE.Node, '', nodeName);
          claims = { ...claims, node: { name: nodeName, uid: node?.metadata.uid ?? '' } };
        }
      }
      boundRef = { kind: ref.kind!, apiVersion: 'v1', name: ref.name!, uid };
    }
    const expires = new Date(ctx.now.getTime() + expirationSeconds * 1000);
    const token = ctx.dryRun ? '' : await keys.issue({ claims, audiences, now: ctx.now, expirationSeconds, jti: randomUUID() });
    return {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name, namespace, creationTimestamp: rfc3339(ctx.now) },
      spec: { audiences, expirationSeconds, boundObjectRef: boundRef ?? null },
      status: { token, expirationTimestamp: rfc3339(expires) },
    } as KubeObject;
  };
  return {
    ...serviceAccounts,
    subresources: { ...serviceAccounts.subresources, token: { verbs: ['create'], responseKind: TOKEN_REQUEST, create } },
  };
}

/**
 * Sets one label on a Secret as kube's legacy token validator does (a merge patch
 * of `metadata.labels` carrying the Secret's uid): a Secret deleted and recreated
 * under the same name since it was read is a Conflict, never relabelled.
 */
export async function setSecretLabel(store: ResourceStore, secret: KubeObject, label: { readonly key: string; readonly value: string }): Promise<void> {
  const namespace = secret.metadata.namespace ?? '';
  const name = secret.metadata.name ?? '';
  const uid = secret.metadata.uid ?? '';
  await store.write({
    verb: 'update',
    namespace,
    name,
    allowCreate: false,
    transform: (current) => {
      if (current === undefined) throw notFound({ group: '', resource: 'secrets' }, name);
      if ((current.metadata.uid ?? '') !== uid) {
        throw conflict({ group: '', resource: 'secrets' }, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
      }
      // Spread copies own members only; a stored `__proto__` label stays a label.
      return { object: { ...current, metadata: { ...current.metadata, labels: { ...(current.metadata.labels ?? {}), [label.key]: label.value } } } };
    },
  });
}
