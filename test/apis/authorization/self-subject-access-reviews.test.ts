import { describe, expect, test } from 'vitest';
import { selfSubjectAccessReviews } from '../../../src/apis/authorization/v1/self-subject-access-reviews.js';
import type { AuthorizationAttributes } from '../../../src/auth/authz/authorizer.js';

const user = { username: 'bob', groups: ['dev', 'system:authenticated'] };

describe('SelfSubjectAccessReview', () => {
  const cases = [
    { name: 'allowed', decision: 'Allow' as const, reason: '', want: { allowed: true } },
    { name: 'nobody allows: not allowed, not denied', decision: 'NoOpinion' as const, reason: 'Everything is forbidden.', want: { allowed: false, reason: 'Everything is forbidden.' } },
    { name: 'explicitly denied', decision: 'Deny' as const, reason: 'no', want: { allowed: false, denied: true, reason: 'no' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const asked: AuthorizationAttributes[] = [];
      const def = selfSubjectAccessReviews(async (q) => {
        asked.push(q);
        return { decision: c.decision, reason: c.reason };
      });
      const spec = { resourceAttributes: { verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'd' } };
      const out = await def.virtualCreate!({ metadata: {}, spec }, { user, namespace: undefined, dryRun: false });
      expect(out).toEqual({ kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec, status: c.want });
      expect(asked).toEqual([
        { user, verb: 'get', isResourceRequest: true, path: '', namespace: 'ns', apiGroup: 'apps', apiVersion: 'v1', resource: 'deployments', subresource: 'scale', name: 'd' },
      ]);
    });
  }

  test('both attribute kinds at once are invalid', async () => {
    const def = selfSubjectAccessReviews(async () => ({ decision: 'Allow', reason: '' }));
    await expect(
      def.virtualCreate!({ metadata: {}, spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { verb: 'get', path: '/' } } }, { user, namespace: undefined, dryRun: false }),
    ).rejects.toMatchObject({ code: 422, reason: 'Invalid' });
  });
});
