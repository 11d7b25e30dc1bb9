// Impersonation (auth/impersonation.ts): which headers ask for what, which
// authorization checks run, and the user a request then runs as.
import { describe, expect, test } from 'vitest';
import type { AuthorizationAttributes, Authorizer } from '../../src/auth/authz/authorizer.js';
import { impersonate, impersonationHeaders } from '../../src/auth/impersonation.js';
import { isStatusError } from '../../src/errors/status-error.js';
import type { UserInfo } from '../../src/schema/user.js';

const caller: UserInfo = { username: 'bob', groups: ['dev', 'system:authenticated'] };

function recording(deny?: (a: AuthorizationAttributes) => boolean): { authorizer: Authorizer; asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return {
    asked,
    authorizer: async (attrs) => {
      asked.push(attrs);
      return deny?.(attrs) === true ? { decision: 'NoOpinion', reason: '' } : { decision: 'Allow', reason: '' };
    },
  };
}

async function failure(p: Promise<unknown>): Promise<{ code: number; message: string; details: unknown }> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return { code: err.code, message: err.message, details: err.toStatus().details };
    throw err;
  }
  throw new Error('expected a StatusError');
}

describe('headers', () => {
  test('none: undefined, so the request runs as its caller', () => {
    expect(impersonationHeaders(['Accept', 'application/json', 'Authorization', 'Bearer x'])).toBeUndefined();
  });

  test('any case; repeated groups and extras stay apart; extra keys lower-cased and unescaped; the first user and uid win', () => {
    const h = impersonationHeaders([
      'Impersonate-User', 'jane',
      'impersonate-user', 'ignored',
      'IMPERSONATE-GROUP', 'a',
      'Impersonate-Group', 'b, c',
      'Impersonate-Extra-Scopes', 'view',
      'Impersonate-Extra-scopes', 'edit',
      'Impersonate-Extra-Example.com%2Fteam', 'x',
      'Impersonate-Uid', 'u-1',
    ])!;
    expect(h.user).toBe('jane');
    expect(h.groups).toEqual(['a', 'b, c']);
    expect(h.uid).toBe('u-1');
    expect([...h.extra]).toEqual([['scopes', ['view', 'edit']], ['example.com/team', ['x']]]);
  });
});

describe('the impersonated user', () => {
  test('a user alone gets system:authenticated; each part is authorized with verb impersonate', async () => {
    const { authorizer, asked } = recording();
    const user = await impersonate({ caller, headers: impersonationHeaders(['Impersonate-User', 'jane']), authorizer });
    expect(user).toEqual({ username: 'jane', groups: ['system:authenticated'] });
    expect(asked).toEqual([expect.objectContaining({ user: caller, verb: 'impersonate', apiGroup: '', resource: 'users', name: 'jane', namespace: '', isResourceRequest: true })]);
  });

  test('named groups are the groups, with system:authenticated as kube adds it; uid and extras come along, each checked in authentication.k8s.io', async () => {
    const { authorizer, asked } = recording();
    const headers = impersonationHeaders(['Impersonate-User', 'jane', 'Impersonate-Group', 'devs', 'Impersonate-Uid', 'u-1', 'Impersonate-Extra-Scopes', 'view']);
    const user = await impersonate({ caller, headers, authorizer });
    expect(user).toEqual({ username: 'jane', groups: ['devs', 'system:authenticated'], uid: 'u-1', extra: { scopes: ['view'] } });
    expect(asked.map((a) => [a.apiGroup, a.resource, a.subresource, a.name])).toEqual([
      ['', 'users', '', 'jane'],
      ['', 'groups', '', 'devs'],
      ['authentication.k8s.io', 'userextras', 'scopes', 'view'],
      ['authentication.k8s.io', 'uids', '', 'u-1'],
    ]);
  });

  test('a service account is checked as serviceaccounts in its namespace and gets its fixed groups', async () => {
    const { authorizer, asked } = recording();
    const user = await impersonate({ caller, headers: impersonationHeaders(['Impersonate-User', 'system:serviceaccount:ci:builder']), authorizer });
    expect(user).toEqual({ username: 'system:serviceaccount:ci:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] });
    expect(asked[0]).toMatchObject({ resource: 'serviceaccounts', namespace: 'ci', name: 'builder', apiGroup: '' });
  });

  test('system:anonymous does not become authenticated: it gets system:unauthenticated', async () => {
    const { authorizer } = recording();
    expect(await impersonate({ caller, headers: impersonationHeaders(['Impersonate-User', 'system:anonymous']), authorizer })).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    const named = impersonationHeaders(['Impersonate-User', 'system:anonymous', 'Impersonate-Group', 'system:unauthenticated', 'Impersonate-Group', 'x']);
    expect((await impersonate({ caller, headers: named, authorizer })).groups).toEqual(['system:unauthenticated', 'x']);
  });

  test('a named system:authenticated or system:unauthenticated group is kept as the only one of the two', async () => {
    const { authorizer } = recording();
    const authd = impersonationHeaders(['Impersonate-User', 'jane', 'Impersonate-Group', 'system:authenticated', 'Impersonate-Group', 'devs']);
    expect((await impersonate({ caller, headers: authd, authorizer })).groups).toEqual(['system:authenticated', 'devs']);
    const unauthd = impersonationHeaders(['Impersonate-User', 'jane', 'Impersonate-Group', 'system:unauthenticated']);
    expect((await impersonate({ caller, headers: unauthd, authorizer })).groups).toEqual(['system:unauthenticated']);
  });

  test('prototype-named extra keys are data', async () => {
    const { authorizer } = recording();
    const user = await impersonate({ caller, headers: impersonationHeaders(['Impersonate-User', 'jane', 'Impersonate-Extra-__proto__', 'x', 'Impersonate-Extra-constructor', 'y']), authorizer });
    expect(Object.keys(user.extra!)).toEqual(['__proto__', 'constructor']);
    expect(user.extra!['__proto__']).toEqual(['x']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('refusals', () => {
  test('the first refused part is a 403 naming it, in kube\'s words; nothing after it is asked', async () => {
    const { authorizer, asked } = recording((a) => a.resource === 'groups');
    const headers = impersonationHeaders(['Impersonate-User', 'jane', 'Impersonate-Group', 'system:masters', 'Impersonate-Uid', 'u-1']);
    const err = await failure(impersonate({ caller, headers, authorizer }));
    expect(err).toMatchObject({
      code: 403,
      message: 'groups "system:masters" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
      details: { name: 'system:masters', kind: 'groups' },
    });
    expect(asked.map((a) => a.resource)).toEqual(['users', 'groups']);
  });

  test('a refused service account names its namespace', async () => {
    const { authorizer } = recording(() => true);
    const err = await failure(impersonate({ caller, headers: impersonationHeaders(['Impersonate-User', 'system:serviceaccount:ci:builder']), authorizer }));
    expect(err.message).toBe('serviceaccounts "builder" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ci"');
  });

  test('groups, extras or a uid without a user are 400', async () => {
    const { authorizer, asked } = recording();
    for (const raw of [['Impersonate-Group', 'devs'], ['Impersonate-Uid', 'u-1'], ['Impersonate-Extra-scopes', 'view'], ['Impersonate-User', '', 'Impersonate-Group', 'devs']]) {
      const err = await failure(impersonate({ caller, headers: impersonationHeaders(raw), authorizer }));
      expect(err.code).toBe(400);
      expect(err.message).toMatch(/^requested \[\{.*\}\] without impersonating a user$/);
    }
    expect(asked).toEqual([]);
  });
});
