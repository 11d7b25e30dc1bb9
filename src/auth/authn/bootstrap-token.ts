// Bootstrap tokens (kube's bootstrap token authenticator, --enable-bootstrap-token-auth):
// a bearer token `<id>.<secret>` (6 and 16 characters of [a-z0-9]) is checked
// against the Secret `kube-system/bootstrap-token-<id>` of type
// `bootstrap.kubernetes.io/token`: its token-id and token-secret must match, it
// must allow authentication (`usage-bootstrap-authentication: "true"`), must not
// have expired or be being deleted, and its `auth-extra-groups` must each start
// with `system:bootstrappers:`. The user is `system:bootstrap:<id>` in
// `system:bootstrappers` plus those groups, sorted and without repeats as kube
// lists them. A token of this shape that fails a
// check is not accepted (so it is a 401, never another identity).
import { timingSafeEqual } from 'node:crypto';
import { parseRfc3339 } from '../../schema/go-time.js';
import type { KubeObject } from '../../schema/object.js';
import { bearerToken, type Authenticator } from './authenticator.js';

export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** Reads kube-system/<name>; undefined when absent. */
export type SecretLookup = (name: string) => Promise<KubeObject | undefined>;

/** A Secret's data value as text (data is base64; stringData never reaches storage). */
export function secretValue(secret: KubeObject, key: string): string | undefined {
  const data = secret.data;
  if (data === null || typeof data !== 'object' || !Object.hasOwn(data, key)) return undefined;
  const value = (data as Record<string, unknown>)[key];
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;
}

function equalSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The expiration of a token Secret, or undefined when it has none; one Go cannot
 * parse counts as expired, as kube's bootstrap secret util HasExpired says.
 */
export function tokenExpiration(secret: KubeObject): Date | undefined | 'invalid' {
  const text = secretValue(secret, 'expiration');
  if (text === undefined) return undefined;
  const at = parseRfc3339(text);
  return at === undefined ? 'invalid' : new Date(at);
}

const DEFAULT_GROUP = 'system:bootstrappers';

/**
 * A token's groups as kube's bootstrap secret util GetGroups makes them:
 * system:bootstrappers and each `auth-extra-groups` entry (split on commas,
 * untrimmed), deduplicated and sorted; undefined when an entry is not a
 * bootstrappers group (the token is then refused).
 */
export function tokenGroups(secret: KubeObject): string[] | undefined {
  const text = secretValue(secret, 'auth-extra-groups');
  if (text === undefined || text === '') return [DEFAULT_GROUP];
  const extras = text.split(',');
  if (!extras.every((g) => EXTRA_GROUP.test(g))) return undefined;
  // Go's sets.String.List: byte order, which is code-unit order for these ASCII names.
  return [...new Set([DEFAULT_GROUP, ...extras])].sort();
}


export function createBootstrapTokenAuthenticator(opts: { lookup: SecretLookup; clock?: () => Date }): Authenticator {
  const clock = opts.clock ?? (() => new Date());
  return async (req) => {
    const token = bearerToken(req.headers);
    const m = token === undefined ? null : TOKEN.exec(token);
    if (m === null) return undefined;
    const [, id, secretPart] = m as unknown as [string, string, string];
    const secret = await opts.lookup(`${BOOTSTRAP_TOKEN_SECRET_PREFIX}${id}`);
    if (secret === undefined || secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return undefined;
    if (secret.metadata.deletionTimestamp !== undefined && secret.metadata.deletionTimestamp !== null) return undefined;
    if (secretValue(secret, 'token-id') !== id) return undefined;
    if (!equalSecret(secretValue(secret, 'token-secret') ?? '', secretPart)) return undefined;
    if (secretValue(secret, 'usage-bootstrap-authentication') !== 'true') return undefined;
    const expiration = tokenExpiration(secret);
    if (expiration === 'invalid' || (expiration !== undefined && expiration.getTime() <= clock().getTime())) return undefined;
    const groups = tokenGroups(secret);
    if (groups === undefined) return undefined;
    return { user: { username: `system:bootstrap:${id}`, groups } };
  };
}
