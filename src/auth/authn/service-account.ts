// Bearer service-account tokens (kube's serviceaccount token authenticator):
// `Authorization: Bearer <jwt>` signed by this server's keys, for this issuer and
// an API audience, not expired, whose account (and bound pod, secret or node)
// still exists with the uid the token names. The user is
// system:serviceaccount:<ns>:<name> in system:serviceaccounts and
// system:serviceaccounts:<ns>, with the token's jti as credential id and the
// bound pod/node in extra, as kube reports them (`kubectl auth whoami`).
import { AuthenticationError, CREDENTIAL_ID_KEY, type Authenticator, bearerToken } from './authenticator.js';
import { TokenError, type ObjectRefClaim, type TokenKeys } from '../serviceaccount/tokens.js';
import type { KubeObject } from '../../schema/object.js';

/** Reads the objects a token is bound to; undefined when absent. */
export type BoundObjectLookup = (kind: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes', namespace: string, name: string) => Promise<KubeObject | undefined>;


export function createServiceAccountAuthenticator(opts: { keys: TokenKeys; lookup: BoundObjectLookup; clock?: () => Date }): Authenticator {
  const clock = opts.clock ?? (() => new Date());
  const check = async (kind: Parameters<BoundObjectLookup>[0], namespace: string, ref: ObjectRefClaim): Promise<void> => {
    const obj = await opts.lookup(kind, namespace, ref.name);
    const what = `${kind.replace(/s$/, '')} ${namespace === '' ? '' : `${namespace}/`}${ref.name}`;
    if (obj === undefined) throw new AuthenticationError(`${what} has been deleted`);
    if (obj.metadata.uid !== ref.uid) throw new AuthenticationError(`${what} uid (${obj.metadata.uid ?? ''}) does not match claim (${ref.uid})`);
    if (kind === 'pods' && obj.metadata.deletionTimestamp !== undefined) throw new AuthenticationError(`${what} is being deleted`);
  };
  return async (req) => {
    const token = bearerToken(req.headers);
    if (token === undefined) return undefined;
    let verified;
    try {
      verified = await opts.keys.verify(token, clock());
    } catch (err) {
      if (err instanceof TokenError) throw new AuthenticationError(err.message);
      throw err;
    }
    if (verified === undefined) return undefined;
    const { claims } = verified;
    const ns = claims.namespace;
    await check('serviceaccounts', ns, claims.serviceaccount);
    if (claims.pod !== undefined) await check('pods', ns, claims.pod);
    if (claims.secret !== undefined) await check('secrets', ns, claims.secret);
    if (claims.node !== undefined) await check('nodes', '', claims.node);
    const extra: Record<string, string[]> = {};
    if (verified.jti !== undefined) extra[CREDENTIAL_ID_KEY] = [`JTI=${verified.jti}`];
    if (claims.pod !== undefined) {
      extra['authentication.kubernetes.io/pod-name'] = [claims.pod.name];
      extra['authentication.kubernetes.io/pod-uid'] = [claims.pod.uid];
    }
    if (claims.node !== undefined) {
      extra['authentication.kubernetes.io/node-name'] = [claims.node.name];
      extra['authentication.kubernetes.io/node-uid'] = [claims.node.uid];
    }
    return {
      user: {
        username: `system:serviceaccount:${ns}:${claims.serviceaccount.name}`,
        uid: claims.serviceaccount.uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
        ...(Object.keys(extra).length === 0 ? {} : { extra }),
      },
    };
  };
}
