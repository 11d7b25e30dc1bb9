// SubjectAccessReview / LocalSubjectAccessReview ask about the user the spec
// names (causes printed as field.Error prints them); SelfSubjectRulesReview answers what the authorizer can enumerate.
import { describe, expect, test } from 'vitest';
import { localSubjectAccessReviews, subjectAccessReviews } from '../../../src/apis/authorization/v1/subject-access-reviews.js';
import { selfSubjectRulesReviews } from '../../../src/apis/authorization/v1/self-subject-rules-reviews.js';
import { probingRulesResolver } from '../../../src/apis/authorization/v1/rules-resolver.js';
import type { AuthorizationAttributes, Authorizer } from '../../../src/auth/authz/authorizer.js';
import { createAuthorizer } from '../../../src/auth/authz/create.js';
import { isStatusError } from '../../../src/errors/status-error.js';
import type { KubeObject } from '../../../src/schema/object.js';

const requester = { username: 'admin', groups: ['system:masters'] };

function recording(decision: 'Allow' | 'Deny' | 'NoOpinion', reason = ''): { authorizer: Authorizer; asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return { asked, authorizer: async (a) => (asked.push(a), { decision, reason }) };
}

async function causesOf(p: Promise<unknown>): Promise<{ field: string; message: string }[]> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err) && err.reason === 'Invalid') return (err.details?.causes ?? []).map((c) => ({ field: c.field ?? '', message: `${c.field ?? ''}: ${c.message ?? ''}` }));
    throw err;
  }
  return [];
}

describe('SubjectAccessReview', () => {
  test('asks about the spec\'s user, not the requester', async () => {
    const { authorizer, asked } = recording('Deny', 'no');
    const spec = { user: 'jane', uid: 'j1', groups: ['dev'], extra: { scopes: ['a'] }, resourceAttributes: { verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'ns', name: 'd' } };
    const out = await subjectAccessReviews(authorizer).virtualCreate!({ metadata: {}, spec }, { user: requester, namespace: undefined, dryRun: false });
    expect(out.status).toEqual({ allowed: false, denied: true, reason: 'no' });
    expect(asked).toEqual([
      {
        user: { username: 'jane', uid: 'j1', groups: ['dev'], extra: { scopes: ['a'] } },
        verb: 'delete', isResourceRequest: true, path: '', namespace: 'ns', apiGroup: 'apps', apiVersion: '', resource: 'deployments', subresource: '', name: 'd',
      },
    ]);
  });

  test('raw selectors reach the authorizer; an evaluation error is the status\' evaluationError', async () => {
    const asked: AuthorizationAttributes[] = [];
    const authorizer: Authorizer = async (a) => (asked.push(a), { decision: 'NoOpinion', reason: '', error: 'webhook "corp" failed' });
    const spec = { user: 'jane', resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'ns', labelSelector: { rawSelector: 'app=web' }, fieldSelector: { rawSelector: 'spec.nodeName=n1' } } };
    const out = await subjectAccessReviews(authorizer).virtualCreate!({ metadata: {}, spec }, { user: requester, namespace: undefined, dryRun: false });
    expect(out.status).toEqual({ allowed: false, evaluationError: 'webhook "corp" failed' });
    expect(asked[0]).toMatchObject({ labelSelector: 'app=web', fieldSelector: 'spec.nodeName=n1' });
  });

  test('non-resource attributes', async () => {
    const { authorizer, asked } = recording('Allow');
    const out = await subjectAccessReviews(authorizer).virtualCreate!({ metadata: {}, spec: { groups: ['g'], nonResourceAttributes: { verb: 'get', path: '/healthz' } } }, { user: requester, namespace: undefined, dryRun: false });
    expect(out.status).toEqual({ allowed: true });
    expect(asked[0]).toMatchObject({ isResourceRequest: false, path: '/healthz', verb: 'get', user: { username: '', groups: ['g'] } });
  });

  const invalid = [
    { name: 'no attributes', obj: { metadata: {}, spec: { user: 'u' } }, want: [{ field: 'spec.resourceAttributes', message: 'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified' }] },
    { name: 'both attributes', obj: { metadata: {}, spec: { user: 'u', resourceAttributes: {}, nonResourceAttributes: {} } }, want: [{ field: 'spec.nonResourceAttributes', message: 'spec.nonResourceAttributes: Invalid value: {}: cannot be specified in combination with resourceAttributes' }] },
    { name: 'no user or group', obj: { metadata: {}, spec: { resourceAttributes: {} } }, want: [{ field: 'spec.user', message: 'spec.user: Invalid value: "": at least one of user or group must be specified' }] },
    { name: 'metadata set', obj: { metadata: { name: 'x' }, spec: { user: 'u', resourceAttributes: {} } }, want: [{ field: 'metadata', message: 'metadata: Invalid value: {"name":"x"}: must be empty' }] },
  ];
  for (const c of invalid) {
    test(`${c.name} is Invalid`, async () => {
      const { authorizer, asked } = recording('Allow');
      expect(await causesOf(Promise.resolve(subjectAccessReviews(authorizer).virtualCreate!(c.obj as KubeObject, { user: requester, namespace: undefined, dryRun: false })))).toEqual(c.want);
      expect(asked).toEqual([]);
    });
  }
});

describe('LocalSubjectAccessReview', () => {
  const create = (obj: KubeObject, namespace: string | undefined): Promise<KubeObject> =>
    Promise.resolve(localSubjectAccessReviews(recording('Allow').authorizer).virtualCreate!(obj, { user: requester, namespace, dryRun: false }));

  test('takes the URL\'s namespace', async () => {
    const out = await create({ metadata: {}, spec: { user: 'u', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'ns' } } }, 'ns');
    expect(out).toMatchObject({ metadata: { namespace: 'ns' }, status: { allowed: true } });
  });

  const invalid = [
    { name: 'resource namespace not the URL\'s', spec: { user: 'u', resourceAttributes: { verb: 'get', namespace: 'other' } }, want: [{ field: 'spec.resourceAttributes.namespace', message: 'spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace' }] },
    {
      name: 'non-resource attributes',
      spec: { user: 'u', nonResourceAttributes: { verb: 'get', path: '/' } },
      want: [{ field: 'spec.nonResourceAttributes', message: 'spec.nonResourceAttributes: Invalid value: {"verb":"get","path":"/"}: disallowed on this kind of request' }],
    },
  ];
  for (const c of invalid) {
    test(`${c.name} is Invalid`, async () => {
      expect(await causesOf(create({ metadata: {}, spec: c.spec }, 'ns'))).toEqual(c.want);
    });
  }

  test('an object namespace other than the URL\'s is a 400', async () => {
    await expect(create({ metadata: { namespace: 'a' }, spec: { user: 'u', resourceAttributes: { namespace: 'a' } } }, 'ns')).rejects.toMatchObject({
      code: 400,
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });
});

describe('SelfSubjectRulesReview', () => {
  const everything = { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false };
  const nothing = { resourceRules: [], nonResourceRules: [], incomplete: false };
  const cases = [
    { name: 'AlwaysAllow: everything', resolver: createAuthorizer({ modes: ['AlwaysAllow'] }).rulesFor, want: everything },
    { name: 'AlwaysDeny: nothing, complete', resolver: createAuthorizer({ modes: ['AlwaysDeny'] }).rulesFor, want: nothing },
    { name: 'AlwaysDeny,AlwaysAllow: the union', resolver: createAuthorizer({ modes: ['AlwaysDeny', 'AlwaysAllow'] }).rulesFor, want: everything },
    { name: 'a mode that cannot enumerate: incomplete', resolver: createAuthorizer({ modes: ['Webhook'], webhook: { authorize: async () => ({ decision: 'NoOpinion', reason: '' }), rulesFor: async () => ({ ...nothing, incomplete: true }) } }).rulesFor, want: { ...nothing, incomplete: true } },
    { name: 'probing an authorizer that allows all', resolver: probingRulesResolver(createAuthorizer({ modes: ['AlwaysAllow'] }).authorize), want: everything },
    { name: 'probing an authorizer that does not', resolver: probingRulesResolver(createAuthorizer({ modes: ['AlwaysDeny'] }).authorize), want: { ...nothing, incomplete: true } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const out = await selfSubjectRulesReviews(c.resolver).virtualCreate!({ metadata: {}, spec: { namespace: 'default' } }, { user: { username: 'bob', groups: [] }, namespace: undefined, dryRun: false });
      expect(out).toEqual({ kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: {}, status: c.want });
    });
  }

  test('no namespace is a 400', async () => {
    const def = selfSubjectRulesReviews(createAuthorizer({ modes: ['AlwaysAllow'] }).rulesFor);
    await expect(Promise.resolve(def.virtualCreate!({ metadata: {}, spec: {} }, { user: requester, namespace: undefined, dryRun: false }))).rejects.toMatchObject({ code: 400, message: 'no namespace on request' });
  });
});
