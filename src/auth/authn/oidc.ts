// OpenID Connect ID tokens (kube-apiserver's --oidc-* flags): a bearer JWT whose
// `iss` is the configured issuer is verified with the issuer's keys (found
// through its discovery document, cached, fetched again when a token names an
// unknown key id), for the configured client id (`aud`), with `exp`, `nbf` and
// `iat` checked and the allowed signing algorithms only. The username comes from
// the configured claim (prefixed with the issuer URL and `#` unless it is the
// email or a prefix is given), groups from the groups claim; required claims must
// be present with their values. A token for another issuer is left to the other
// authenticators; one for this issuer that fails a check is refused (401).
import { request } from 'node:https';
import { createLocalJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { UserInfo } from '../../schema/user.js';
import { AuthenticationError, bearerToken, type Authenticator } from './authenticator.js';

export interface OidcOptions {
  readonly issuerUrl: string;
  readonly clientId: string;
  /** Default `sub`. */
  readonly usernameClaim: string;
  /** undefined: kube's default (issuer URL + `#`, none for `email`); '-' disables. */
  readonly usernamePrefix: string | undefined;
  readonly groupsClaim: string | undefined;
  readonly groupsPrefix: string;
  /** PEM bundle the issuer's certificate must chain to; undefined: the system's roots. */
  readonly caPem: string | undefined;
  /** Each claim must be present and equal to the value. */
  readonly requiredClaims: ReadonlyMap<string, string>;
  /** Default ['RS256']. */
  readonly signingAlgs: readonly string[];
  readonly clock?: () => Date;
  /** The least time between two fetches of the keys (a flood of unknown key ids cannot hammer the issuer). */
  readonly refreshIntervalMs?: number;
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


function claimString(payload: JWTPayload, name: string): string | undefined {
  if (!Object.hasOwn(payload, name)) return undefined;
  const v = payload[name];
  return typeof v === 'string' ? v : undefined;
}

export function createOidcAuthenticator(opts: OidcOptions): Authenticator {
  const clock = opts.clock ?? (() => new Date());
  const refreshIntervalMs = opts.refreshIntervalMs ?? 10_000;
  const prefix = opts.usernamePrefix === '-' ? '' : (opts.usernamePrefix ?? (opts.usernameClaim === 'email' ? '' : `${opts.issuerUrl}#`));
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetchedAt = -Infinity;
  let inFlight: Promise<void> | undefined;

  const refresh = async (): Promise<void> => {
    if (inFlight !== undefined) return inFlight;
    if (clock().getTime() - fetchedAt < refreshIntervalMs && keys !== undefined) return;
    inFlight = (async () => {
      try {
        const discovery = (await getJson(`${opts.issuerUrl.replace(/\/$/, '')}/.well-known/openid-configuration`, opts.caPem)) as Record<string, unknown>;
        if (discovery === null || typeof discovery !== 'object') throw new Error('discovery document is not an object');
        if (discovery.issuer !== opts.issuerUrl) throw new Error(`oidc: issuer did not match the issuer returned by provider, expected "${opts.issuerUrl}" got "${String(discovery.issuer)}"`);
        if (typeof discovery.jwks_uri !== 'string') throw new Error('discovery document has no jwks_uri');
        const jwks = (await getJson(discovery.jwks_uri, opts.caPem)) as JSONWebKeySet;
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
    const options = { issuer: opts.issuerUrl, audience: opts.clientId, algorithms: [...opts.signingAlgs], currentDate: clock(), clockTolerance: LEEWAY_SECONDS };
    try {
      return (await jwtVerify(token, keys!, options)).payload;
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
      // A key the cache does not know: the issuer may have rotated; fetch once more.
      await refresh().catch(() => undefined);
      return (await jwtVerify(token, keys!, options)).payload;
    }
  };

  return async (req) => {
    const token = bearerToken(req.headers);
    if (token === undefined) return undefined;
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      return undefined; // not a JWT: another authenticator's
    }
    if (unverified.iss !== opts.issuerUrl) return undefined;
    let payload: JWTPayload;
    try {
      payload = await verify(token);
    } catch (err) {
      if (err instanceof AuthenticationError) throw err;
      throw new AuthenticationError(`oidc: verify token: ${(err as Error).message}`);
    }
    if (typeof payload.iat === 'number' && payload.iat > clock().getTime() / 1000 + LEEWAY_SECONDS) throw new AuthenticationError('oidc: token issued in the future');
    for (const [claim, value] of opts.requiredClaims) {
      if (claimString(payload, claim) !== value) throw new AuthenticationError(`oidc: required claim ${claim} not present or not ${JSON.stringify(value)}`);
    }
    const name = claimString(payload, opts.usernameClaim);
    if (name === undefined || name === '') throw new AuthenticationError(`oidc: parse username claims "${opts.usernameClaim}": claim not present`);
    if (opts.usernameClaim === 'email' && Object.hasOwn(payload, 'email_verified') && payload.email_verified !== true) {
      throw new AuthenticationError(`oidc: email not verified`);
    }
    const groups: string[] = [];
    if (opts.groupsClaim !== undefined && Object.hasOwn(payload, opts.groupsClaim)) {
      const raw = payload[opts.groupsClaim];
      const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((g) => typeof g === 'string') ? (raw as string[]) : undefined;
      if (list === undefined) throw new AuthenticationError(`oidc: parse groups claim "${opts.groupsClaim}": not a string or a list of strings`);
      for (const g of list) groups.push(`${opts.groupsPrefix}${g}`);
    }
    const user: UserInfo = { username: `${prefix}${name}`, groups };
    return { user };
  };
}
