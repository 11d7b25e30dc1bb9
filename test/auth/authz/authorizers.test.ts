import { describe, expect, test } from 'vitest';
import { alwaysAllow, alwaysDeny } from '../../../src/auth/authz/always.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../../src/auth/authz/authorizer.js';
import { createAuthorizer, type AuthorizationMode } from '../../../src/auth/authz/create.js';
import { privilegedGroupsAuthorizer } from '../../../src/auth/authz/privileged-groups.js';
import { unionAuthorizer } from '../../../src/auth/authz/union.js';

const attrs = (groups: string[]): AuthorizationAttributes => ({
  user: { username: 'bob', groups },
  verb: 'list',
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/pods',
  namespace: 'default',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: '',
});

const fixed = (result: AuthorizationResult): Authorizer => async () => result;

describe('single authorizers', () => {
  const cases: Array<{ name: string; authorizer: Authorizer; groups: string[]; want: AuthorizationResult }> = [
    { name: 'AlwaysAllow', authorizer: alwaysAllow, groups: [], want: { decision: 'Allow', reason: '' } },
    { name: 'AlwaysDeny abstains with its reason', authorizer: alwaysDeny, groups: [], want: { decision: 'NoOpinion', reason: 'Everything is forbidden.' } },
    { name: 'privileged group member', authorizer: privilegedGroupsAuthorizer(['system:masters']), groups: ['x', 'system:masters'], want: { decision: 'Allow', reason: '' } },
    { name: 'privileged group non-member', authorizer: privilegedGroupsAuthorizer(['system:masters']), groups: ['system:authenticated'], want: { decision: 'NoOpinion', reason: '' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect(await c.authorizer(attrs(c.groups))).toEqual(c.want);
    });
  }
});

describe('unionAuthorizer', () => {
  const cases: Array<{ name: string; members: Authorizer[]; want: AuthorizationResult }> = [
    { name: 'no members: no opinion', members: [], want: { decision: 'NoOpinion', reason: '' } },
    { name: 'first Allow wins', members: [fixed({ decision: 'NoOpinion', reason: '' }), fixed({ decision: 'Allow', reason: 'a' }), fixed({ decision: 'Deny', reason: 'd' })], want: { decision: 'Allow', reason: 'a' } },
    { name: 'first Deny wins', members: [fixed({ decision: 'Deny', reason: 'no' }), fixed({ decision: 'Allow', reason: '' })], want: { decision: 'Deny', reason: 'no' } },
    {
      name: 'all NoOpinion: no opinion with the reasons joined',
      members: [fixed({ decision: 'NoOpinion', reason: 'one' }), fixed({ decision: 'NoOpinion', reason: '' }), fixed({ decision: 'NoOpinion', reason: 'two' })],
      want: { decision: 'NoOpinion', reason: 'one\ntwo' },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect(await unionAuthorizer(...c.members)(attrs([]))).toEqual(c.want);
    });
  }
});

describe('createAuthorizer from --authorization-mode', () => {
  const cases: Array<{ name: string; modes: AuthorizationMode[]; groups: string[]; want: AuthorizationResult }> = [
    { name: 'AlwaysAllow allows anyone', modes: ['AlwaysAllow'], groups: [], want: { decision: 'Allow', reason: '' } },
    { name: 'AlwaysDeny denies a normal user (no one allows)', modes: ['AlwaysDeny'], groups: ['system:authenticated'], want: { decision: 'NoOpinion', reason: 'Everything is forbidden.' } },
    { name: 'AlwaysDeny still lets system:masters in', modes: ['AlwaysDeny'], groups: ['system:masters'], want: { decision: 'Allow', reason: '' } },
    { name: 'AlwaysDeny then AlwaysAllow allows', modes: ['AlwaysDeny', 'AlwaysAllow'], groups: [], want: { decision: 'Allow', reason: '' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect(await createAuthorizer({ modes: c.modes }).authorize(attrs(c.groups))).toEqual(c.want);
    });
  }
});
