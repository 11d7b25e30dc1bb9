import { describe, expect, test } from 'vitest';
import { selfSubjectReviews as v1 } from '../../../src/apis/authentication/v1/self-subject-reviews.js';
import { selfSubjectReviews as v1beta1 } from '../../../src/apis/authentication/v1beta1/self-subject-reviews.js';
import type { UserInfo } from '../../../src/schema/user.js';

const cases: { name: string; def: typeof v1; user: UserInfo; want: unknown }[] = [
  {
    name: 'v1 admin certificate user',
    def: v1,
    user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
    want: {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      status: { userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } },
    },
  },
  {
    name: 'v1beta1 with uid and extra',
    def: v1beta1,
    user: { username: 'system:serviceaccount:ns:sa', uid: 'u-1', groups: ['system:serviceaccounts'], extra: { 'authentication.kubernetes.io/pod-name': ['p'] } },
    want: {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1beta1',
      metadata: { creationTimestamp: null },
      status: {
        userInfo: {
          username: 'system:serviceaccount:ns:sa',
          uid: 'u-1',
          groups: ['system:serviceaccounts'],
          extra: { 'authentication.kubernetes.io/pod-name': ['p'] },
        },
      },
    },
  },
];

describe('SelfSubjectReview', () => {
  for (const c of cases) {
    test(c.name, async () => {
      const got = await c.def.virtualCreate!({ metadata: {} }, { user: c.user, namespace: undefined, dryRun: false });
      expect(got).toEqual(c.want);
    });
  }

  test('declared create-only and cluster scoped', () => {
    for (const def of [v1, v1beta1]) {
      expect(def).toMatchObject({ group: 'authentication.k8s.io', scope: 'Cluster', verbs: ['create'], schema: { name: `io.k8s.api.authentication.${def.version}.SelfSubjectReview` } });
    }
  });
});
