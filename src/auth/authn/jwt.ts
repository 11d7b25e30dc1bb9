// One JWT authenticator (kube's plugin/pkg/authenticator/token/oidc): a bearer
// JWT whose `iss` is the configured issuer is verified with the issuer's keys
// (found through its discovery document, or `discoveryURL`, cached, fetched again
// when a token names an unknown key id), for one of the audiences, with `exp`,
// `nbf` and `iat` checked and only the allowed signing algorithms. The user is
// mapped from claims or CEL expressions, then the required claims, claim
// validation rules and user validation rules must hold, in kube's order and with
// kube's error texts (which only reach the log: the client sees a bare 401). A
// token for another issuer is left to the other authenticators.
//
// Both --authentication-config's `jwt` entries and the --oidc-* flags (oidc.ts,
// which kube turns into one such entry) end up here.
import { request } from 'node:https';
import { createLocalJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { UserInfo } from '../../schema/user.js';
import { AuthenticationError, bearerToken, CREDENTIAL_ID_KEY, type Authenticator } from './authenticator.js';
import type { JwtAuthenticatorConfig } from './authentication-config.js';
import type { CelMapper } from './authentication-config-validation.js';
import { celStringList, evaluateClaims, evaluateUser, ExpressionEvaluationError } from './jwt-cel.js';

/** The algorithms kube accepts at all (oidc.AllValidSigningAlgorithms); the config file allows them all. */
export const ALL_SIGNING_ALGS: readonly string[] = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'];

export interface JwtAuthenticatorOptions {
  readonly config: JwtAuthenticatorConfig;
  /** Its compiled expressions (validateJwtAuthenticator). */
  readonly mapper: CelMapper;
  readonly signingAlgs: readonly string[];
  readonly clock?: () => Date;
  /** The least time between two fetches of the keys (a flood of unknown key ids cannot hammer the issuer). */
  readonly refreshIntervalMs?: number;
}

export interface JwtAuthenticator {
  readonly issuer: string;
  readonly authenticate: Authenticator;
  /** Fetches discovery and keys now; rejects with the reason when the issuer cannot be reached (kube's health check). */
  init(): Promise<void>;
}

/** Allowed clock skew for nbf/iat, as go-oidc allows. */
const LEEWAY_SECONDS = 5 * 60;
const MAX_DOCUMENT_BYTES = 1 << 20;

function getJson(url: string, caPem: string | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { accept: 'application/json' }, ...(caPem === undefined ? {} : { ca: caPem }), timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_DOCUMENT_BYTES) req.destroy(new Error(`${url}: answer larger than ${MAX_DOCUMENT_BYTES} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode ?? 0}`));
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          reject(new Error(`${url}: not JSON`));
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/** kube's untrustedIssuer: the unverified `iss`, with Google's legacy issuer coalesced. */
function untrustedIssuer(token: string): string | undefined {
  let payload: JWTPayload;
  try {
    payload = decodeJwt(token);
  } catch {
    return undefined; // not a JWT: another authenticator's
  }
  return payload.iss === 'accounts.google.com' ? 'https://accounts.google.com' : payload.iss;
}

/** Go's json.Unmarshal of a claim into a string, with its error texts. */
function claimAsString(claims: JWTPayload, name: string): string {
  if (!Object.hasOwn(claims, name)) throw new Error('claim not present');
  const v = claims[name];
  if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${goJsonKind(v)} into Go value of type string`);
  return v;
}

function goJsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Go's %q of a []string. */
function goQuotedList(items: readonly string[]): string {
  return `[${items.map((s) => JSON.stringify(s)).join(' ')}]`;
}

export function createJwtAuthenticator(opts: JwtAuthenticatorOptions): JwtAuthenticator {
  const { issuer } = opts.config;
  const clock = opts.clock ?? (() => new Date());
  const refreshIntervalMs = opts.refreshIntervalMs ?? 10_000;
  const caPem = issuer.certificateAuthority === '' ? undefined : issuer.certificateAuthority;
  const discoveryUrl = issuer.discoveryURL !== '' ? issuer.discoveryURL : `${issuer.url.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetchedAt = -Infinity;
  let inFlight: Promise<void> | undefined;

  const refresh = async (): Promise<void> => {
    if (inFlight !== undefined) return inFlight;
    if (clock().getTime() - fetchedAt < refreshIntervalMs && keys !== undefined) return;
    inFlight = (async () => {
      try {
        const discovery = (await getJson(discoveryUrl, caPem)) as Record<string, unknown>;
        if (discovery === null || typeof discovery !== 'object') throw new Error('discovery document is not an object');
        if (discovery.issuer !== issuer.url) throw new Error(`oidc: issuer did not match the issuer returned by provider, expected "${issuer.url}" got "${String(discovery.issuer)}"`);
        if (typeof discovery.jwks_uri !== 'string') throw new Error('provider did not return JWKS URL');
        const jwks = (await getJson(discovery.jwks_uri, caPem)) as JSONWebKeySet;
        keys = createLocalJWKSet(jwks);
        fetchedAt = clock().getTime();
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  const verify = async (token: string): Promise<JWTPayload> => {
    if (keys === undefined) {
      try {
        await refresh();
      } catch (err) {
        throw new AuthenticationError(`oidc: authenticator not initialized: ${(err as Error).message}`);
      }
    }
    // go-oidc requires `exp` (a token without one reads as expired); audiences are checked below, as kube checks them.
    const options = { issuer: issuer.url, algorithms: [...opts.signingAlgs], currentDate: clock(), clockTolerance: LEEWAY_SECONDS, requiredClaims: ['exp'] };
    try {
      return (await jwtVerify(token, keys!, options)).payload;
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
      // A key the cache does not know: the issuer may have rotated; fetch once more.
      await refresh().catch(() => undefined);
      return (await jwtVerify(token, keys!, options)).payload;
    }
  };

  const checkAudience = (payload: JWTPayload): void => {
    const got = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud.filter((a): a is string => typeof a === 'string') : [];
    if (issuer.audiences.some((a) => got.includes(a))) return;
    const want = issuer.audiences.length === 1 ? `audience ${JSON.stringify(issuer.audiences[0])}` : `audience in ${goQuotedList([...issuer.audiences].sort())}`;
    throw new Error(`oidc: expected ${want} got ${goQuotedList(got)}`);
  };

  const authenticate: Authenticator = async (req) => {
    const token = bearerToken(req.headers);
    if (token === undefined || untrustedIssuer(token) !== issuer.url) return undefined;
    let claims: JWTPayload;
    try {
      claims = await verify(token);
      checkAudience(claims);
    } catch (err) {
      if (err instanceof AuthenticationError) throw err;
      throw new AuthenticationError(`oidc: verify token: ${(err as Error).message}`);
    }
    if (typeof claims.iat === 'number' && claims.iat > clock().getTime() / 1000 + LEEWAY_SECONDS) throw new AuthenticationError('oidc: verify token: token issued in the future');
    try {
      return { user: mapUser(opts.config, opts.mapper, claims) };
    } catch (err) {
      if (err instanceof ExpressionEvaluationError || err instanceof MappingError) throw new AuthenticationError(err.message);
      throw err;
    }
  };

  return { issuer: issuer.url, authenticate, init: () => refresh() };
}

class MappingError extends Error {}

/** Claims to user, then every rule, in kube's AuthenticateToken order. */
function mapUser(config: JwtAuthenticatorConfig, mapper: CelMapper, claims: JWTPayload): UserInfo {
  const username = usernameOf(config, mapper, claims);
  const groups = groupsOf(config, mapper, claims);
  const uid = uidOf(config, mapper, claims);
  const extra = extraOf(mapper, claims);
  const user: UserInfo = { username, groups, ...(uid === '' ? {} : { uid }), ...(Object.keys(extra).length === 0 ? {} : { extra }) };
  for (const rule of config.claimValidationRules) {
    if (rule.claim === '') continue;
    if (!Object.hasOwn(claims, rule.claim)) throw new MappingError(`oidc: required claim ${rule.claim} not present in ID token`);
    let value: string;
    try {
      value = claimAsString(claims, rule.claim);
    } catch (err) {
      throw new MappingError(`oidc: parse claim ${rule.claim}: ${(err as Error).message}`);
    }
    if (value !== rule.requiredValue) throw new MappingError(`oidc: required claim ${rule.claim} value does not match. Got = ${value}, want = ${rule.requiredValue}`);
  }
  checkRules(mapper.claimValidationRules, (p) => evaluateClaims(p, claims), 'oidc: error evaluating claim validation expression');
  checkRules(mapper.userValidationRules, (p) => evaluateUser(p, user), 'oidc: error evaluating user info validation rule');
  return user;
}

function checkRules(rules: CelMapper['claimValidationRules'], run: (p: CelMapper['claimValidationRules'][number]['program']) => unknown, prefix: string): void {
  for (const rule of rules) {
    let result: unknown;
    try {
      result = run(rule.program);
    } catch (err) {
      if (err instanceof ExpressionEvaluationError) throw new MappingError(`${prefix}: ${err.message}`);
      throw err;
    }
    if (typeof result !== 'boolean') throw new MappingError(`${prefix}: validation expression must return a boolean`);
    if (!result) throw new MappingError(`${prefix}: validation expression '${rule.program.expression}' failed: ${rule.message}`);
  }
}

function usernameOf(config: JwtAuthenticatorConfig, mapper: CelMapper, claims: JWTPayload): string {
  if (mapper.username !== undefined) {
    const what = 'oidc: error evaluating username claim expression';
    const value = evaluateWith(mapper.username, claims, what);
    if (typeof value !== 'string') throw new MappingError(`${what}: username claim expression must return a string`);
    if (value === '') throw new MappingError('oidc: empty username via CEL expression is not allowed');
    return value;
  }
  const claim = config.claimMappings.username.claim;
  let name: string;
  try {
    name = claimAsString(claims, claim);
  } catch (err) {
    throw new MappingError(`oidc: parse username claims ${JSON.stringify(claim)}: ${(err as Error).message}`);
  }
  // OpenID Connect Core §5.1: an email whose email_verified is present must be verified.
  if (claim === 'email' && Object.hasOwn(claims, 'email_verified')) {
    const verified = claims.email_verified;
    if (typeof verified !== 'boolean') throw new MappingError(`oidc: parse 'email_verified' claim: json: cannot unmarshal ${goJsonKind(verified)} into Go value of type bool`);
    if (!verified) throw new MappingError('oidc: email not verified');
  }
  const prefix = config.claimMappings.username.prefix ?? '';
  return `${prefix}${name}`;
}

function evaluateWith(program: NonNullable<CelMapper['username']>, claims: JWTPayload, what: string): unknown {
  try {
    return evaluateClaims(program, claims);
  } catch (err) {
    if (err instanceof ExpressionEvaluationError) throw new MappingError(`${what}: ${err.message}`);
    throw err;
  }
}

function groupsOf(config: JwtAuthenticatorConfig, mapper: CelMapper, claims: JWTPayload): string[] {
  const claim = config.claimMappings.groups.claim;
  if (claim !== '' && Object.hasOwn(claims, claim)) {
    // A single string is one group (kubernetes/kubernetes#33290).
    const raw = claims[claim];
    const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((g) => typeof g === 'string') ? (raw as string[]) : undefined;
    if (list === undefined) throw new MappingError(`oidc: parse groups claim ${JSON.stringify(claim)}: json: cannot unmarshal ${goJsonKind(raw)} into Go value of type string`);
    const prefix = config.claimMappings.groups.prefix ?? '';
    return list.map((g) => `${prefix}${g}`);
  }
  if (mapper.groups === undefined) return [];
  const what = 'oidc: error evaluating group claim expression';
  try {
    return celStringList(evaluateWith(mapper.groups, claims, what)) ?? [];
  } catch (err) {
    if (err instanceof ExpressionEvaluationError) throw new MappingError(`${what}: ${err.message}`);
    throw err;
  }
}

function uidOf(config: JwtAuthenticatorConfig, mapper: CelMapper, claims: JWTPayload): string {
  const claim = config.claimMappings.uid.claim;
  if (claim !== '') {
    try {
      return claimAsString(claims, claim);
    } catch (err) {
      throw new MappingError(`oidc: parse uid claim ${JSON.stringify(claim)}: ${(err as Error).message}`);
    }
  }
  if (mapper.uid === undefined) return '';
  const what = 'oidc: error evaluating uid claim expression';
  const value = evaluateWith(mapper.uid, claims, what);
  if (typeof value !== 'string') throw new MappingError(`${what}: uid claim expression must return a string`);
  return value;
}

function extraOf(mapper: CelMapper, claims: JWTPayload): Record<string, string[]> {
  // Keys are the configuration's and the credential id's, never the token's; still no prototype.
  const extra: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  if (typeof claims.jti === 'string' && claims.jti !== '') extra[CREDENTIAL_ID_KEY] = [`JTI=${claims.jti}`];
  for (const { key, program } of mapper.extra) {
    let value: unknown;
    try {
      value = evaluateClaims(program, claims);
    } catch (err) {
      // kube returns an evaluation error of an extra mapping without the "oidc:" prefix.
      if (err instanceof ExpressionEvaluationError) throw new MappingError(err.message);
      throw err;
    }
    let values: string[] | undefined;
    try {
      values = celStringList(value);
    } catch (err) {
      if (err instanceof ExpressionEvaluationError) throw new MappingError(`oidc: error evaluating extra claim expression: ${program.expression}: ${err.message}`);
      throw err;
    }
    if (values !== undefined) extra[key] = values;
  }
  return { ...extra };
}
