import { describe, expect, test } from 'vitest';
import { AuthenticationError, type Authenticator } from '../../../src/auth/authn/authenticator.js';
import { unionAuthenticator, withAuthenticatedGroup } from '../../../src/auth/authn/union.js';

const accepts = (username: string, groups: string[] = []): Authenticator => async () => ({ user: { username, groups } });
const abstains: Authenticator = async () => undefined;
const rejects = (message: string): Authenticator => async () => {
  throw new AuthenticationError(message);
};

describe('unionAuthenticator', () => {
  const cases: Array<{ name: string; members: Authenticator[]; want: string | undefined | RegExp }> = [
    { name: 'no members: no answer', members: [], want: undefined },
    { name: 'all abstain: no answer', members: [abstains, abstains], want: undefined },
    { name: 'first acceptance wins', members: [abstains, accepts('a'), accepts('b')], want: 'a' },
    { name: 'a rejection does not stop a later acceptance', members: [rejects('bad cert'), accepts('token-user')], want: 'token-user' },
    { name: 'a rejection with no acceptance is an error', members: [rejects('bad cert'), abstains], want: /^bad cert$/ },
    { name: 'several rejections aggregate', members: [rejects('a'), rejects('b')], want: /^\[a, b\]$/ },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const run = unionAuthenticator(...c.members)({ headers: {} });
      if (c.want instanceof RegExp) await expect(run).rejects.toThrow(c.want);
      else expect((await run)?.user.username).toBe(c.want);
    });
  }

  test('other failures are not taken for bad credentials', async () => {
    const broken: Authenticator = async () => {
      throw new TypeError('bug');
    };
    await expect(unionAuthenticator(broken, accepts('a'))({ headers: {} })).rejects.toThrow(TypeError);
  });
});

describe('withAuthenticatedGroup', () => {
  const cases: Array<{ name: string; inner: Authenticator; want: string[] | undefined }> = [
    { name: 'appended after the user groups', inner: accepts('u', ['g']), want: ['g', 'system:authenticated'] },
    { name: 'not twice', inner: accepts('u', ['system:authenticated', 'g']), want: ['system:authenticated', 'g'] },
    { name: 'not to the anonymous user', inner: accepts('system:anonymous', ['system:unauthenticated']), want: ['system:unauthenticated'] },
    { name: 'not to an unauthenticated group member', inner: accepts('x', ['system:unauthenticated']), want: ['system:unauthenticated'] },
    { name: 'no answer stays no answer', inner: abstains, want: undefined },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect((await withAuthenticatedGroup(c.inner)({ headers: {} }))?.user.groups).toEqual(c.want);
    });
  }
});
