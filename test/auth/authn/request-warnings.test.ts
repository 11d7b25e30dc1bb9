// An accepting authenticator's warnings (kube's legacy service-account token
// warning) reach the request through createRequestAuthenticator's onWarnings, and
// survive the union and the authenticated-group adder; a refusal hands none over.
import { describe, expect, test } from 'vitest';
import { AuthenticationError, type Authenticator } from '../../../src/auth/authn/authenticator.js';
import { createRequestAuthenticator, type RawRequestLike } from '../../../src/auth/authn/request.js';
import { unionAuthenticator, withAuthenticatedGroup } from '../../../src/auth/authn/union.js';

const request = (): RawRequestLike & { warnings: string[] } => ({ headers: { authorization: 'Bearer t' }, raw: { socket: undefined } as never, warnings: [] });

describe('authenticator warnings', () => {
  test('an accepted credential with warnings: the user, and the warnings on the request', async () => {
    const legacy: Authenticator = async () => ({ user: { username: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts'] }, warnings: ['use tokens from the TokenRequest API'] });
    const authenticate = createRequestAuthenticator({
      authenticator: withAuthenticatedGroup(unionAuthenticator(async () => undefined, legacy)),
      onWarnings: (req: ReturnType<typeof request>, warnings) => req.warnings.push(...warnings),
    });
    const req = request();
    const user = await authenticate(req);
    expect(user?.username).toBe('system:serviceaccount:ns:sa');
    expect(user?.groups).toContain('system:authenticated');
    expect(req.warnings).toEqual(['use tokens from the TokenRequest API']);
  });

  test('a refused credential: 401 and no warnings', async () => {
    const refuse: Authenticator = async () => {
      throw new AuthenticationError('Token has been invalidated');
    };
    const req = request();
    const authenticate = createRequestAuthenticator({ authenticator: refuse, onWarnings: (r: ReturnType<typeof request>, w) => r.warnings.push(...w) });
    await expect(authenticate(req)).rejects.toMatchObject({ code: 401 });
    expect(req.warnings).toEqual([]);
  });
});
