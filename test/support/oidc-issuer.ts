// A small OpenID Connect issuer for tests: HTTPS on 127.0.0.1 (a free port),
// with a CA of its own, serving the discovery document (at the well-known path,
// and at ALT_DISCOVERY_PATH for `discoveryURL` tests) and a JWKS of keys the
// test adds, and signing ID tokens with them. The test that starts it stops it.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import { createCertificateAuthority, issueCertificate } from '../../src/auth/pki/issue.js';

export interface TestIssuer {
  readonly url: string;
  readonly caPem: string;
  /** Adds a key to the JWKS (served from then on); answers its kid. */
  addKey(alg?: 'RS256' | 'ES256'): Promise<string>;
  /** Signs claims with a key (the JWKS's, or one it does not serve when `unpublished`). */
  sign(claims: JWTPayload, opts?: { kid?: string; unpublished?: boolean; alg?: 'RS256' | 'ES256' }): Promise<string>;
  /** How often the JWKS was fetched. */
  readonly jwksFetches: () => number;
  /** How often the discovery document was fetched at ALT_DISCOVERY_PATH. */
  readonly altDiscoveryFetches: () => number;
  close(): Promise<void>;
}

/** A second place the discovery document is served (an `issuer.discoveryURL`). */
export const ALT_DISCOVERY_PATH = '/elsewhere/openid-configuration';

export async function startTestIssuer(): Promise<TestIssuer> {
  const clock = () => new Date();
  const ca = await createCertificateAuthority({ commonName: 'test-oidc-ca', validityDays: 1, clock });
  const serving = await issueCertificate({ ca, commonName: '127.0.0.1', usage: 'server', hosts: ['127.0.0.1'], validityDays: 1, clock });
  const keys: { kid: string; alg: string; privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']; jwk: JWK }[] = [];
  let fetches = 0;
  let altDiscoveryFetches = 0;
  let url = '';
  const server: Server = createServer({ key: serving.keyPem, cert: serving.certPem }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === ALT_DISCOVERY_PATH) altDiscoveryFetches++;
    if (req.url === '/.well-known/openid-configuration' || req.url === ALT_DISCOVERY_PATH) {
      res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/keys`, id_token_signing_alg_values_supported: ['RS256', 'ES256'] }));
    } else if (req.url === '/keys') {
      fetches++;
      res.end(JSON.stringify({ keys: keys.map((k) => k.jwk) }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function makeKey(alg: 'RS256' | 'ES256') {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    const kid = `key-${keys.length + 1}-${Math.random().toString(36).slice(2, 8)}`;
    return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
  }

  return {
    url,
    caPem: ca.certPem,
    async addKey(alg = 'RS256') {
      const key = await makeKey(alg);
      keys.push(key);
      return key.kid;
    },
    async sign(claims, opts = {}) {
      const key = opts.unpublished === true ? await makeKey(opts.alg ?? 'RS256') : (keys.find((k) => k.kid === opts.kid) ?? keys[0]!);
      return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
    },
    jwksFetches: () => fetches,
    altDiscoveryFetches: () => altDiscoveryFetches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
