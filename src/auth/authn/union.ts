// Composition of authenticators, with kube-apiserver's union semantics
// (k8s.io/apiserver/pkg/authentication/request/union): the first authenticator
// that accepts the request wins; one that rejects its credentials does not stop
// the others (a bad client certificate next to a good bearer token still
// authenticates); only when nobody accepts do the collected errors surface.
import { AuthenticationError, SYSTEM_ANONYMOUS, SYSTEM_AUTHENTICATED, SYSTEM_UNAUTHENTICATED, type Authenticator } from './authenticator.js';
import type { UserInfo } from '../../schema/user.js';

export function unionAuthenticator(...authenticators: readonly Authenticator[]): Authenticator {
  return async (req) => {
    const errors: Error[] = [];
    for (const authenticate of authenticators) {
      try {
        const result = await authenticate(req);
        if (result !== undefined) return result;
      } catch (err) {
        // Only a credential rejection is collected; anything else is a bug or an
        // outage and must not read as "bad credentials".
        if (!(err instanceof AuthenticationError)) throw err;
        errors.push(err);
      }
    }
    if (errors.length === 0) return undefined;
    // utilerrors.NewAggregate's text: the message alone, or "[a, b]".
    throw new AuthenticationError(errors.length === 1 ? errors[0]!.message : `[${errors.map((e) => e.message).join(', ')}]`);
  };
}

/**
 * Adds `system:authenticated` to every authenticated user, as kube-apiserver's
 * AuthenticatedGroupAdder does after the union: not to the anonymous user, and not
 * twice.
 */
export function withAuthenticatedGroup(authenticate: Authenticator): Authenticator {
  // Authenticators hand back the same user object for the same credential (x509
  // per connection), so the extended user is built once per user object, not per request.
  const extended = new WeakMap<UserInfo, UserInfo>();
  return async (req) => {
    const result = await authenticate(req);
    if (result === undefined) return undefined;
    const { user } = result;
    if (user.username === SYSTEM_ANONYMOUS) return result;
    if (user.groups.some((g) => g === SYSTEM_AUTHENTICATED || g === SYSTEM_UNAUTHENTICATED)) return result;
    let withGroup = extended.get(user);
    if (withGroup === undefined) {
      withGroup = { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
      extended.set(user, withGroup);
    }
    return { ...result, user: withGroup };
  };
}
