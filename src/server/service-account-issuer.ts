// The service-account issuer's discovery documents, as kube-apiserver serves
// them: /.well-known/openid-configuration names the issuer and where its keys
// are, /openid/v1/jwks lists the public keys that verify its tokens, so other
// systems (cloud identity federation, vault, another cluster) can check a
// token kapi issued without asking kapi. Both go through the filter chain like
// any non-resource path.
import type { FastifyInstance } from 'fastify';
import type { TokenKeys } from '../auth/serviceaccount/tokens.js';

export function registerServiceAccountIssuerRoutes(app: FastifyInstance, opts: { keys: TokenKeys; serverUrl: string }): void {
  const jwksUri = `${opts.serverUrl.replace(/\/$/, '')}/openid/v1/jwks`;
  app.get('/.well-known/openid-configuration', async (_request, reply) => {
    const { keys } = await opts.keys.jwks();
    const algorithms = [...new Set(keys.map((k) => k.alg ?? ''))].filter((a) => a !== '').sort();
    reply.header('Content-Type', 'application/json').header('Cache-Control', 'public, max-age=3600');
    return reply.send(
      `${JSON.stringify({
        issuer: opts.keys.issuer,
        jwks_uri: jwksUri,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: algorithms,
      })}\n`,
    );
  });
  app.get('/openid/v1/jwks', async (_request, reply) => {
    reply.header('Content-Type', 'application/jwk-set+json').header('Cache-Control', 'public, max-age=3600');
    return reply.send(`${JSON.stringify(await opts.keys.jwks())}\n`);
  });
}
