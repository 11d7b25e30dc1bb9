// Bearer service-account tokens (kube's two serviceaccount JWT authenticators):
// - bound tokens (TokenRequest, `kubectl create token`): this issuer, an API
//   audience, not expired; the account, and any bound Secret, Pod or Node, must
//   still exist with the uid the token names (kube's validator always looks them
//   up, whatever --service-account-lookup says);
// - legacy tokens (`data.token` of a kubernetes.io/service-account-token Secret):
//   issuer `kubernetes/serviceaccount`, never expiring. With --service-account-lookup
//   (the default) the Secret must still hold exactly this token and the account
//   must exist with the token's uid; each use sets the Secret's
//   `kubernetes.io/legacy-token-last-used` label to today (UTC) unless it already
//   says today or tomorrow, and a Secret labelled `kubernetes.io/legacy-token-invalid-since`
//   refuses its token (pkg/serviceaccount legacy.go).
// Both are audience-aware as kube's are: a token is good for the audiences the
// request asks for (a TokenReview's spec.audiences, else the API audiences) that
// it names, and the answer says which; legacy tokens count as naming the API's.
// The user is system:serviceaccount:<ns>:<name> in system:serviceaccounts and
// system:serviceaccounts:<ns>; bound tokens add the jti as credential id and the
// pod/node in extra. Refusals carry kube's messages (TokenReview shows them).
// The signature check is cached by token string (verified-cache.ts); the lookups
// run on every request, so a revocation takes effect at once.
import { timingSafeEqual } from 'node:crypto';
import { AuthenticationError, CREDENTIAL_ID_KEY, type Authenticator, type AuthnResult, bearerToken } from './authenticator.js';
import { TokenError, tokenAudiences, type LegacyClaims, type ObjectRefClaim, type TokenKeys, type VerifiedToken } from '../serviceaccount/tokens.js';
import { createVerifiedCache } from '../serviceaccount/verified-cache.js';
import type { KubeObject } from '../../schema/object.js';
import type { UserInfo } from '../../schema/user.js';

/** Reads the objects a token names; undefined when absent. */
export type BoundObjectLookup = (kind: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes', namespace: string, name: string) => Promise<KubeObject | undefined>;

/**
 * Sets a legacy token's Secret's last-used label (kube's loopback merge patch of
 * the label with the Secret's uid, so a Secret recreated meanwhile is left alone).
 */
export type LegacyTokenUsedWriter = (secret: KubeObject, label: { readonly key: string; readonly value: string }) => Promise<void>;

export const LEGACY_TOKEN_LAST_USED_LABEL = 'kubernetes.io/legacy-token-last-used';
export const LEGACY_TOKEN_INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';
/** The Warning kube adds when a token of a Secret listed in its account's `secrets` is used. */
export const AUTO_GENERATED_TOKEN_WARNING = 'Use tokens from the TokenRequest API or manually created secret-based tokens instead of auto-generated secret-based tokens.';

/** An authentication answer that may carry Warning header texts (legacy auto-generated tokens). */
export type ServiceAccountAuthnResult = AuthnResult & { readonly warnings?: readonly string[] };

export interface ServiceAccountAuthenticatorOptions {
  readonly keys: TokenKeys;
  readonly lookup: BoundObjectLookup;
  /** --service-account-lookup (default true): legacy tokens are checked against their Secret and account. */
  readonly legacyLookup?: boolean;
  /** Writes the last-used label; absent: none is written. */
  readonly markLegacyTokenUsed?: LegacyTokenUsedWriter;
  /** A failed label write (kube logs it; the request still authenticates). */
  readonly onLabelError?: (err: unknown, secret: { readonly namespace: string; readonly name: string }) => void;
  readonly clock?: () => Date;
  /** Tokens whose signature check is remembered (default 4096; 0 turns the cache off). */
  readonly cacheSize?: number;
}

/** jwt.DefaultLeeway: objects deleted less than this ago still back their tokens (kube's validator). */
const DELETION_LEEWAY_MS = 60_000;
/** Legacy tokens never expire; their verification is re-done this often all the same. */
const LEGACY_VERIFICATION_TTL_MS = 10 * 60_000;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** What the signature check established, with the user it implies (built once per token). */
type Verified = (
  | { readonly kind: 'bound'; readonly token: VerifiedToken; readonly user: UserInfo }
  | { readonly kind: 'legacy'; readonly claims: LegacyClaims; readonly user: UserInfo }
) & {
  /** The audiences a request of the filter chain (the API audiences) gets, or why none: judged once per token. */
  readonly forApi: readonly string[] | AuthenticationError;
};

/** Frozen: one user object serves every request with the same token (it lives in the cache). */
function serviceAccountUser(namespace: string, name: string, uid: string, extra?: Record<string, string[]>): UserInfo {
  const hasExtra = extra !== undefined && Object.keys(extra).length > 0;
  if (hasExtra) for (const values of Object.values(extra)) Object.freeze(values);
  return Object.freeze({
    username: `system:serviceaccount:${namespace}:${name}`,
    uid,
    groups: Object.freeze(['system:serviceaccounts', `system:serviceaccounts:${namespace}`]),
    ...(hasExtra ? { extra: Object.freeze(extra) } : {}),
  });
}

/** ServiceAccountInfo.UserInfo of a bound token: pod name/uid, credential id, node name/uid. */
function boundUser(v: VerifiedToken): UserInfo {
  const { claims } = v;
  const extra: Record<string, string[]> = {};
  if (claims.pod !== undefined && claims.pod.name !== '' && claims.pod.uid !== '') {
    extra['authentication.kubernetes.io/pod-name'] = [claims.pod.name];
    extra['authentication.kubernetes.io/pod-uid'] = [claims.pod.uid];
  }
  if (v.jti !== undefined && v.jti !== '') extra[CREDENTIAL_ID_KEY] = [`JTI=${v.jti}`];
  if (claims.node !== undefined && claims.node.name !== '') {
    extra['authentication.kubernetes.io/node-name'] = [claims.node.name];
    if (claims.node.uid !== '') extra['authentication.kubernetes.io/node-uid'] = [claims.node.uid];
  }
  return serviceAccountUser(claims.namespace, claims.serviceaccount.name, claims.serviceaccount.uid, extra);
}

/** Was the object deleted (deletionTimestamp) before the leeway (kube: DeletionTimestamp.Before(now - leeway))? */
function deletedBefore(obj: KubeObject, cutMs: number): boolean {
  const ts = obj.metadata.deletionTimestamp;
  return typeof ts === 'string' && Date.parse(ts) < cutMs;
}

function isBeingDeleted(obj: KubeObject): boolean {
  const ts = obj.metadata.deletionTimestamp;
  return ts !== undefined && ts !== null;
}

/** apiserverserviceaccount.SplitUsername: `system:serviceaccount:<ns>:<name>` with valid names. */
function splitUsername(subject: string): { namespace: string; name: string } | undefined {
  const prefix = 'system:serviceaccount:';
  if (!subject.startsWith(prefix)) return undefined;
  const parts = subject.slice(prefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) return undefined;
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) return undefined;
  return { namespace, name };
}

/** The Secret's stored `token` equals the presented one (constant time). */
function holdsToken(secret: KubeObject, token: string): boolean {
  const data = secret.data;
  if (data === null || typeof data !== 'object' || !Object.hasOwn(data, 'token')) return false;
  const stored = (data as Record<string, unknown>)['token'];
  if (typeof stored !== 'string') return false;
  const want = Buffer.from(stored, 'base64');
  const got = Buffer.from(token, 'utf8');
  return want.length === got.length && timingSafeEqual(want, got);
}

function ownLabel(obj: KubeObject, key: string): string {
  const labels = obj.metadata.labels;
  if (labels === undefined || labels === null || !Object.hasOwn(labels, key)) return '';
  const value = labels[key];
  return typeof value === 'string' ? value : '';
}

function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function createServiceAccountAuthenticator(opts: ServiceAccountAuthenticatorOptions): Authenticator {
  const clock = opts.clock ?? (() => new Date());
  const legacyLookup = opts.legacyLookup ?? true;
  const cache = createVerifiedCache<Verified>({ maxEntries: opts.cacheSize ?? 4096 });
  // One label write per Secret version and day: requests racing on a new day share
  // the one in flight, and those that read the same version before it landed do
  // not write again (a later version without today's label is written, as kube would).
  const labelWrites = new Map<string, Promise<void>>();
  const labelled = new Set<string>();

  /** kube's audience rule as an answer. Legacy tokens count as naming none (verifyLegacy refused one naming audiences but none of the API's). */
  const audiencesOrError = (tokenAuds: readonly string[], requested: readonly string[] = opts.keys.apiAudiences): readonly string[] | AuthenticationError => {
    try {
      return tokenAudiences(tokenAuds, requested, opts.keys.apiAudiences);
    } catch (err) {
      if (err instanceof TokenError) return new AuthenticationError(err.message);
      throw err;
    }
  };

  const verify = async (token: string, now: Date): Promise<Verified | undefined> => {
    const nowMs = now.getTime();
    const hit = cache.get(token, nowMs);
    if (hit !== undefined) return hit;
    try {
      const bound = await opts.keys.verify(token, now);
      if (bound !== undefined) {
        const v: Verified = { kind: 'bound', token: bound, user: boundUser(bound), forApi: audiencesOrError(bound.audiences) };
        cache.set(token, v, bound.expiresAt.getTime(), nowMs);
        return v;
      }
      const legacy = await opts.keys.verifyLegacy(token);
      if (legacy === undefined) return undefined;
      const v: Verified = {
        kind: 'legacy',
        claims: legacy,
        user: serviceAccountUser(legacy.namespace, legacy.serviceAccountName, legacy.serviceAccountUid),
        forApi: audiencesOrError([]),
      };
      cache.set(token, v, nowMs + LEGACY_VERIFICATION_TTL_MS, nowMs);
      return v;
    } catch (err) {
      if (err instanceof TokenError) throw new AuthenticationError(err.message);
      throw err;
    }
  };

  /** The audiences asked for that the token is good for (kube checks them before its validator runs). */
  const audiencesFor = (v: Verified, requested: readonly string[] | undefined): readonly string[] => {
    const answer = requested === undefined ? v.forApi : audiencesOrError(v.kind === 'bound' ? v.token.audiences : [], requested);
    if (answer instanceof AuthenticationError) throw answer;
    return answer;
  };

  /** kube's bound-token validator: the account, then the bound Secret, Pod, Node. */
  const validateBound = async (v: Extract<Verified, { kind: 'bound' }>, now: Date, audiences: readonly string[]): Promise<AuthnResult> => {
    const { claims } = v.token;
    const ns = claims.namespace;
    const cut = now.getTime() - DELETION_LEEWAY_MS;
    const saRef = claims.serviceaccount;
    const sa = await opts.lookup('serviceaccounts', ns, saRef.name);
    if (sa === undefined) throw new AuthenticationError(`serviceaccounts "${saRef.name}" not found`);
    if ((sa.metadata.uid ?? '') !== saRef.uid) throw new AuthenticationError(`service account UID (${sa.metadata.uid ?? ''}) does not match claim (${saRef.uid})`);
    if (deletedBefore(sa, cut)) throw new AuthenticationError(`service account ${ns}/${saRef.name} has been deleted`);
    const checkBound = async (kind: 'secrets' | 'pods' | 'nodes', ref: ObjectRefClaim): Promise<void> => {
      const singular = kind.slice(0, -1);
      const obj = await opts.lookup(kind, kind === 'nodes' ? '' : ns, ref.name);
      if (obj === undefined) throw new AuthenticationError('service account token has been invalidated');
      if ((obj.metadata.uid ?? '') !== ref.uid) {
        throw new AuthenticationError(`${singular} UID (${obj.metadata.uid ?? ''}) does not match service account ${singular} ref claim (${ref.uid})`);
      }
      if (deletedBefore(obj, cut)) throw new AuthenticationError('service account token has been invalidated');
    };
    if (claims.secret !== undefined) await checkBound('secrets', claims.secret);
    if (claims.pod !== undefined) await checkBound('pods', claims.pod);
    // A pod-bound token's node claims are information only; a node-bound one is checked.
    else if (claims.node !== undefined) await checkBound('nodes', claims.node);
    return { user: v.user, audiences };
  };

  const markUsed = async (secret: KubeObject, nowMs: number): Promise<void> => {
    const write = opts.markLegacyTokenUsed;
    if (write === undefined) return;
    const today = utcDate(nowMs);
    const lastUsed = ownLabel(secret, LEGACY_TOKEN_LAST_USED_LABEL);
    // Tomorrow counts too: another server's clock may run a little ahead.
    if (lastUsed === today || lastUsed === utcDate(nowMs + 86_400_000)) return;
    const namespace = secret.metadata.namespace ?? '';
    const name = secret.metadata.name ?? '';
    const key = `${namespace}/${name}/${secret.metadata.uid ?? ''}/${secret.metadata.resourceVersion ?? ''}/${today}`;
    if (labelled.has(key)) return;
    let pending = labelWrites.get(key);
    if (pending === undefined) {
      pending = write(secret, { key: LEGACY_TOKEN_LAST_USED_LABEL, value: today })
        .then(
          () => {
            // Bounded: a day's worth of Secrets at most; yesterday's keys go with the rest.
            if (labelled.size >= 4096) labelled.clear();
            labelled.add(key);
          },
          (err: unknown) => opts.onLabelError?.(err, { namespace, name }),
        )
        .finally(() => labelWrites.delete(key));
      labelWrites.set(key, pending);
    }
    await pending;
  };

  /** kube's legacy validator (pkg/serviceaccount/legacy.go), in its order. */
  const validateLegacy = async (v: Extract<Verified, { kind: 'legacy' }>, token: string, now: Date, audiences: readonly string[]): Promise<ServiceAccountAuthnResult> => {
    const c = v.claims;
    if (c.subject === '') throw new AuthenticationError('sub claim is missing');
    if (c.namespace === '') throw new AuthenticationError('namespace claim is missing');
    if (c.secretName === '') throw new AuthenticationError('secretName claim is missing');
    if (c.serviceAccountName === '') throw new AuthenticationError('serviceAccountName claim is missing');
    if (c.serviceAccountUid === '') throw new AuthenticationError('serviceAccountUID claim is missing');
    const subject = splitUsername(c.subject);
    if (subject === undefined || subject.namespace !== c.namespace || subject.name !== c.serviceAccountName) throw new AuthenticationError('sub claim is invalid');
    if (!legacyLookup) return { user: v.user, audiences };

    const secret = await opts.lookup('secrets', c.namespace, c.secretName);
    if (secret === undefined || isBeingDeleted(secret)) throw new AuthenticationError('Token has been invalidated');
    if (!holdsToken(secret, token)) throw new AuthenticationError("Token does not match server's copy");
    const sa = await opts.lookup('serviceaccounts', c.namespace, c.serviceAccountName);
    if (sa === undefined) throw new AuthenticationError(`serviceaccounts "${c.serviceAccountName}" not found`);
    if (isBeingDeleted(sa)) throw new AuthenticationError(`ServiceAccount ${c.namespace}/${c.serviceAccountName} has been deleted`);
    if ((sa.metadata.uid ?? '') !== c.serviceAccountUid) throw new AuthenticationError(`ServiceAccount UID (${sa.metadata.uid ?? ''}) does not match claim (${c.serviceAccountUid})`);

    const nowMs = now.getTime();
    if (ownLabel(secret, LEGACY_TOKEN_INVALID_SINCE_LABEL) !== '') {
      // kube records the use even of a token it refuses, so the cleaner sees it is wanted.
      await markUsed(secret, nowMs);
      throw new AuthenticationError(
        `the token in secret ${c.namespace}/${c.secretName} for service account ${c.namespace}/${c.serviceAccountName} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${LEGACY_TOKEN_INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`,
      );
    }
    const refs = (sa as { secrets?: unknown }).secrets;
    const autoGenerated = Array.isArray(refs) && refs.some((r: unknown) => r !== null && typeof r === 'object' && (r as { name?: unknown }).name === c.secretName);
    await markUsed(secret, nowMs);
    return autoGenerated ? { user: v.user, audiences, warnings: [AUTO_GENERATED_TOKEN_WARNING] } : { user: v.user, audiences };
  };

  return async (req) => {
    const token = bearerToken(req.headers);
    if (token === undefined) return undefined;
    const now = clock();
    const verified = await verify(token, now);
    if (verified === undefined) return undefined;
    const audiences = audiencesFor(verified, req.audiences);
    return verified.kind === 'bound' ? validateBound(verified, now, audiences) : validateLegacy(verified, token, now, audiences);
  };
}
