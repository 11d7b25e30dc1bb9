// The ABAC mode (src/auth/authz/abac/abac.ts) over parsed policy files. The facts
// are kube's pkg/auth/authorizer/abac/abac_test.go (TestAuthorizeV0,
// TestAuthorizeV1beta1, TestSubjectMatches, TestPolicy, TestRulesFor), rewritten as
// named rows, plus the edges those tests leave implicit.
import { describe, expect, test } from 'vitest';
import { createAbacAuthorizer, NO_POLICY_MATCHED } from '../../../../src/auth/authz/abac/abac.js';
import { parseAbacPolicyFile, type AbacPolicy } from '../../../../src/auth/authz/abac/policy.js';
import type { AuthorizationAttributes, Decision, RulesResult } from '../../../../src/auth/authz/authorizer.js';
import type { UserInfo } from '../../../../src/schema/user.js';

const AUTHENTICATED = 'system:authenticated';
const V1 = '"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy"';

const user = (username: string, groups: string[] = [AUTHENTICATED]): UserInfo => ({ username, groups });
const anonymous = user('system:anonymous', ['system:unauthenticated']);

/** As kube's tests build attributes: a request with a namespace or a resource is a resource request. */
interface Request {
  readonly user: UserInfo;
  readonly verb: string;
  readonly namespace?: string;
  readonly resource?: string;
  readonly apiGroup?: string;
  readonly subresource?: string;
  readonly name?: string;
  readonly path?: string;
}

function attrs(r: Request): AuthorizationAttributes {
  const namespace = r.namespace ?? '';
  const resource = r.resource ?? '';
  return {
    user: r.user,
    verb: r.verb,
    isResourceRequest: namespace !== '' || resource !== '',
    path: r.path ?? '',
    namespace,
    apiGroup: r.apiGroup ?? '',
    apiVersion: '',
    resource,
    subresource: r.subresource ?? '',
    name: r.name ?? '',
  };
}

function modeOf(file: string) {
  return createAbacAuthorizer(parseAbacPolicyFile(file, 'policy.jsonl'));
}

function describeDecisions(title: string, file: string, cases: ReadonlyArray<{ name: string; input: Request; want: Decision }>): void {
  describe(title, () => {
    const mode = modeOf(file);
    for (const c of cases) {
      test(c.name, async () => {
        expect((await mode.authorize(attrs(c.input))).decision).toBe(c.want);
      });
    }
  });
}

const scheduler = user('scheduler');
const alice = user('alice');
const chuck = user('chuck');

describeDecisions(
  'unversioned (v0) policies (kube TestAuthorizeV0)',
  [
    '{                    "readonly": true, "resource": "events"   }',
    '{"user":"scheduler", "readonly": true, "resource": "pods"     }',
    '{"user":"scheduler",                   "resource": "bindings" }',
    '{"user":"kubelet",   "readonly": true, "resource": "bindings" }',
    '{"user":"kubelet",                     "resource": "events"   }',
    '{"user":"alice",                                              "namespace": "projectCaribou"}',
    '{"user":"bob",       "readonly": true,                        "namespace": "projectCaribou"}',
  ].join('\n'),
  [
    { name: 'scheduler may list pods in a namespace', input: { user: scheduler, verb: 'list', resource: 'pods', namespace: 'ns1' }, want: 'Allow' },
    { name: 'scheduler may list pods across namespaces', input: { user: scheduler, verb: 'list', resource: 'pods' }, want: 'Allow' },
    { name: 'scheduler may not create pods', input: { user: scheduler, verb: 'create', resource: 'pods', namespace: 'ns1' }, want: 'NoOpinion' },
    { name: 'scheduler may not create cluster-wide pods', input: { user: scheduler, verb: 'create', resource: 'pods' }, want: 'NoOpinion' },
    { name: 'scheduler may read bindings', input: { user: scheduler, verb: 'get', resource: 'bindings', namespace: 'ns1' }, want: 'Allow' },
    { name: 'alice may read anything in her namespace', input: { user: alice, verb: 'get', resource: 'widgets', namespace: 'projectCaribou' }, want: 'Allow' },
    { name: 'alice may get the namespace-level request with no resource', input: { user: alice, verb: 'get', namespace: 'projectCaribou' }, want: 'Allow' },
    { name: 'alice may write any group in her namespace', input: { user: alice, verb: 'update', resource: 'foo', apiGroup: 'bar', namespace: 'projectCaribou' }, want: 'Allow' },
    { name: 'alice may not read another namespace', input: { user: alice, verb: 'get', resource: 'pods', namespace: 'ns1' }, want: 'NoOpinion' },
    { name: 'anyone authenticated may read events', input: { user: chuck, verb: 'get', resource: 'events', namespace: 'ns1' }, want: 'Allow' },
    { name: 'but not write them', input: { user: chuck, verb: 'update', resource: 'events', namespace: 'ns1' }, want: 'NoOpinion' },
    { name: 'nor read pods', input: { user: chuck, verb: 'get', resource: 'pods', namespace: 'ns1' }, want: 'NoOpinion' },
    { name: 'a policy naming a resource grants no paths', input: { user: chuck, verb: 'get', path: '/' }, want: 'NoOpinion' },
  ],
);

const v1beta1File = [
  '',
  '  # Comment line, after a blank line',
  `{${V1},"spec":{"user":"*",         "readonly": true, "nonResourcePath": "/api"}}`,
  `{${V1},"spec":{"user":"*",                           "nonResourcePath": "/custom"}}`,
  `{${V1},"spec":{"user":"*",                           "nonResourcePath": "/root/*"}}`,
  `{${V1},"spec":{"user":"noresource",                  "nonResourcePath": "*"}}`,
  `{${V1},"spec":{"user":"*",         "readonly": true, "resource": "events",   "namespace": "*"}}`,
  `{${V1},"spec":{"user":"scheduler", "readonly": true, "resource": "pods",     "namespace": "*"}}`,
  `{${V1},"spec":{"user":"scheduler",                   "resource": "bindings", "namespace": "*"}}`,
  `{${V1},"spec":{"user":"alice",                       "resource": "*",        "namespace": "projectCaribou"}}`,
  `{${V1},"spec":{"user":"debbie",                      "resource": "pods",     "namespace": "projectCaribou"}}`,
  `{${V1},"spec":{"user":"apigroupuser",                "resource": "*",        "namespace": "projectAnyGroup",   "apiGroup": "*"}}`,
  `{${V1},"spec":{"user":"apigroupuser",                "resource": "*",        "namespace": "projectEmptyGroup", "apiGroup": ""}}`,
  `{${V1},"spec":{"user":"apigroupuser",                "resource": "*",        "namespace": "projectXGroup",     "apiGroup": "x"}}`,
].join('\n');

describeDecisions('v1beta1 policies (kube TestAuthorizeV1beta1)', v1beta1File, [
  { name: 'scheduler may list pods', input: { user: scheduler, verb: 'list', resource: 'pods', namespace: 'ns1' }, want: 'Allow' },
  { name: 'scheduler may not create pods', input: { user: scheduler, verb: 'create', resource: 'pods' }, want: 'NoOpinion' },
  { name: 'alice may write anything in her namespace', input: { user: alice, verb: 'update', resource: 'widgets', namespace: 'projectCaribou' }, want: 'Allow' },
  { name: 'alice may not read another namespace', input: { user: alice, verb: 'get', resource: 'pods', namespace: 'ns1' }, want: 'NoOpinion' },
  { name: 'debbie may write pods in her namespace', input: { user: user('debbie'), verb: 'update', resource: 'pods', namespace: 'projectCaribou' }, want: 'Allow' },
  { name: 'a v1beta1 policy without apiGroup covers only the core group', input: { user: user('debbie'), verb: 'update', resource: 'pods', apiGroup: 'apps', namespace: 'projectCaribou' }, want: 'NoOpinion' },
  { name: 'user * reads events', input: { user: chuck, verb: 'get', resource: 'events', namespace: 'ns1' }, want: 'Allow' },
  { name: 'user * may not get /', input: { user: chuck, verb: 'get', path: '/' }, want: 'NoOpinion' },
  { name: 'user * may get /api', input: { user: chuck, verb: 'get', path: '/api' }, want: 'Allow' },
  { name: 'but not post to it (readonly)', input: { user: chuck, verb: 'create', path: '/api' }, want: 'NoOpinion' },
  { name: 'and may write /custom', input: { user: chuck, verb: 'update', path: '/custom' }, want: 'Allow' },
  { name: '/root/* does not cover /root', input: { user: chuck, verb: 'get', path: '/root' }, want: 'NoOpinion' },
  { name: '/root/* covers /root/', input: { user: chuck, verb: 'get', path: '/root/' }, want: 'Allow' },
  { name: '/root/* covers deep subpaths', input: { user: chuck, verb: 'get', path: '/root/test/1/2/3' }, want: 'Allow' },
  { name: 'nonResourcePath * covers the empty path', input: { user: user('noresource'), verb: 'get', path: '' }, want: 'Allow' },
  { name: 'nonResourcePath * covers any path', input: { user: user('noresource'), verb: 'get', path: '/foo/bar/baz' }, want: 'Allow' },
  { name: 'nonResourcePath * never covers a resource request', input: { user: user('noresource'), verb: 'get', path: '/', namespace: 'bar' }, want: 'NoOpinion' },
  { name: 'apiGroup * matches group x', input: { user: user('apigroupuser'), verb: 'get', apiGroup: 'x', resource: 'foo', namespace: 'projectAnyGroup' }, want: 'Allow' },
  { name: 'apiGroup "" does not match group x', input: { user: user('apigroupuser'), verb: 'get', apiGroup: 'x', resource: 'foo', namespace: 'projectEmptyGroup' }, want: 'NoOpinion' },
  { name: 'apiGroup x matches group x', input: { user: user('apigroupuser'), verb: 'get', apiGroup: 'x', resource: 'foo', namespace: 'projectXGroup' }, want: 'Allow' },
]);

describe('subjects (kube TestSubjectMatches)', () => {
  // Each line allows everything but its subject, so only the subject decides.
  const v0 = (subject: string): string => `{${subject}}`;
  const v1 = (subject: string): string => `{${V1},"spec":{${subject}${subject === '' ? '' : ','}"resource":"*","namespace":"*","apiGroup":"*"}}`;
  const withGroups = (name: string, ...groups: string[]): UserInfo => user(name, [...groups, AUTHENTICATED]);
  const cases: Array<{ name: string; input: { line: string; user: UserInfo }; want: boolean }> = [];
  for (const [form, line] of [['v0', v0], ['v1beta1', v1]] as const) {
    cases.push(
      { name: `${form}: empty subject, anonymous`, input: { line: line(''), user: anonymous }, want: false },
      { name: `${form}: user *, anonymous`, input: { line: line('"user":"*"'), user: anonymous }, want: false },
      { name: `${form}: group *, anonymous`, input: { line: line('"group":"*"'), user: anonymous }, want: false },
      { name: `${form}: empty subject, authenticated`, input: { line: line(''), user: withGroups('Foo', 'a') }, want: form === 'v0' },
      { name: `${form}: user *, authenticated`, input: { line: line('"user":"*"'), user: withGroups('Foo') }, want: true },
      { name: `${form}: user *, a user without system:authenticated`, input: { line: line('"user":"*"'), user: user('Foo', ['a']) }, want: false },
      { name: `${form}: user matches its name`, input: { line: line('"user":"Foo"'), user: withGroups('Foo') }, want: true },
      { name: `${form}: user is case-sensitive`, input: { line: line('"user":"Foo"'), user: withGroups('foo') }, want: false },
      { name: `${form}: user is no prefix`, input: { line: line('"user":"Foo"'), user: withGroups('FooBar') }, want: false },
      { name: `${form}: group matches a member`, input: { line: line('"group":"B"'), user: withGroups('Foo', 'A', 'B', 'C') }, want: true },
      { name: `${form}: group is case-sensitive`, input: { line: line('"group":"b"'), user: withGroups('Foo', 'A', 'B', 'C') }, want: false },
      { name: `${form}: group is no prefix`, input: { line: line('"group":"B"'), user: withGroups('Foo', 'A', 'BBB', 'C') }, want: false },
      { name: `${form}: user and group: both must match (user wrong)`, input: { line: line('"user":"Foo","group":"B"'), user: withGroups('Bar', 'B') }, want: false },
      { name: `${form}: user and group: both must match (group wrong)`, input: { line: line('"user":"Foo","group":"D"'), user: withGroups('Foo', 'B') }, want: false },
      { name: `${form}: user and group: both match`, input: { line: line('"user":"Foo","group":"B"'), user: withGroups('Foo', 'B') }, want: true },
      { name: `${form}: system:anonymous by name`, input: { line: line('"user":"system:anonymous"'), user: anonymous }, want: true },
      { name: `${form}: system:unauthenticated by group`, input: { line: line('"group":"system:unauthenticated"'), user: anonymous }, want: true },
    );
  }
  cases.push({ name: 'internal version: user * matches anonymous too', input: { line: '{"apiVersion":"abac.authorization.kubernetes.io/__internal","kind":"Policy","Spec":{"User":"*","Resource":"*","Namespace":"*","APIGroup":"*"}}', user: anonymous }, want: true });
  for (const c of cases) {
    test(c.name, async () => {
      const decision = (await modeOf(c.input.line).authorize(attrs({ user: c.input.user, verb: 'get', resource: 'pods', namespace: 'ns' }))).decision;
      expect(decision === 'Allow').toBe(c.want);
    });
  }
});

describeDecisions('verbs: readonly means get, list and watch', `{${V1},"spec":{"user":"bob","readonly":true,"resource":"*","namespace":"*","apiGroup":"*","nonResourcePath":"*"}}`, [
  ...['get', 'list', 'watch'].map((verb) => ({ name: `resource ${verb} allowed`, input: { user: user('bob'), verb, resource: 'pods', namespace: 'ns' }, want: 'Allow' as const })),
  ...['create', 'update', 'patch', 'delete', 'deletecollection', 'impersonate', 'escalate', '', 'GET'].map((verb) => ({ name: `resource "${verb}" refused`, input: { user: user('bob'), verb, resource: 'pods', namespace: 'ns' }, want: 'NoOpinion' as const })),
  { name: 'non-resource get allowed', input: { user: user('bob'), verb: 'get', path: '/metrics' }, want: 'Allow' },
  ...['post', 'put', 'patch', 'delete', 'head', 'options'].map((verb) => ({ name: `non-resource ${verb} refused`, input: { user: user('bob'), verb, path: '/metrics' }, want: 'NoOpinion' as const })),
]);

describeDecisions(
  'non-resource paths and resource attributes (kube TestPolicy)',
  [
    `{${V1},"spec":{"user":"exact","nonResourcePath":"/api"}}`,
    `{${V1},"spec":{"user":"prefix","nonResourcePath":"/api/*"}}`,
    `{${V1},"spec":{"user":"bare","nonResourcePath":"/ro*"}}`,
    `{${V1},"spec":{"user":"stars","nonResourcePath":"/logs**"}}`,
    `{${V1},"spec":{"user":"pods","resource":"pods","namespace":"ns"}}`,
    `{${V1},"spec":{"user":"cluster","resource":"nodes","namespace":"*"}}`,
  ].join('\n'),
  [
    { name: 'exact path', input: { user: user('exact'), verb: 'get', path: '/api' }, want: 'Allow' },
    { name: 'exact path is not a prefix', input: { user: user('exact'), verb: 'get', path: '/api2' }, want: 'NoOpinion' },
    { name: 'exact path does not cover a subpath', input: { user: user('exact'), verb: 'get', path: '/api/v1' }, want: 'NoOpinion' },
    { name: '/api/* covers /api/foo', input: { user: user('prefix'), verb: 'get', path: '/api/foo' }, want: 'Allow' },
    { name: '/api/* does not cover /api2/foo', input: { user: user('prefix'), verb: 'get', path: '/api2/foo' }, want: 'NoOpinion' },
    { name: 'a prefix need not end in a slash', input: { user: user('bare'), verb: 'get', path: '/root' }, want: 'Allow' },
    { name: 'all trailing stars are trimmed', input: { user: user('stars'), verb: 'get', path: '/logs/kube-apiserver.log' }, want: 'Allow' },
    { name: 'a path policy never covers a resource request', input: { user: user('bare'), verb: 'get', resource: 'roles', namespace: 'ns' }, want: 'NoOpinion' },
    { name: 'subresource and name are not part of ABAC', input: { user: user('pods'), verb: 'create', resource: 'pods', subresource: 'exec', name: 'web-0', namespace: 'ns' }, want: 'Allow' },
    { name: 'a named namespace does not cover cluster scope', input: { user: user('pods'), verb: 'list', resource: 'pods' }, want: 'NoOpinion' },
    { name: 'namespace * covers cluster-scoped requests', input: { user: user('cluster'), verb: 'get', resource: 'nodes' }, want: 'Allow' },
    { name: 'namespace * covers every namespace', input: { user: user('cluster'), verb: 'get', resource: 'nodes', namespace: 'x' }, want: 'Allow' },
    { name: 'a resource policy never covers a path', input: { user: user('cluster'), verb: 'get', path: '/nodes' }, want: 'NoOpinion' },
  ],
);

describe('answers', () => {
  const cases: Array<{ name: string; input: { policies: AbacPolicy[]; request: Request }; want: { decision: Decision; reason: string } }> = [
    { name: 'allow has no reason', input: { policies: parseAbacPolicyFile('{"user":"bob"}', 'f'), request: { user: user('bob'), verb: 'delete', resource: 'pods', namespace: 'ns' } }, want: { decision: 'Allow', reason: '' } },
    { name: "no match abstains with kube's reason", input: { policies: parseAbacPolicyFile('{"user":"bob"}', 'f'), request: { user: user('eve'), verb: 'get', path: '/' } }, want: { decision: 'NoOpinion', reason: NO_POLICY_MATCHED } },
    { name: 'no policies abstain', input: { policies: [], request: { user: user('bob'), verb: 'get', path: '/' } }, want: { decision: 'NoOpinion', reason: 'No policy matched.' } },
    {
      name: 'a v1beta1 policy naming only a user covers no real resource',
      input: { policies: parseAbacPolicyFile(`{${V1},"spec":{"user":"bob"}}`, 'f'), request: { user: user('bob'), verb: 'get', resource: 'pods', namespace: 'ns' } },
      want: { decision: 'NoOpinion', reason: NO_POLICY_MATCHED },
    },
    {
      name: 'nor any real path',
      input: { policies: parseAbacPolicyFile(`{${V1},"spec":{"user":"bob"}}`, 'f'), request: { user: user('bob'), verb: 'get', path: '/' } },
      want: { decision: 'NoOpinion', reason: NO_POLICY_MATCHED },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect(await createAbacAuthorizer(c.input.policies).authorize(attrs(c.input.request))).toEqual(c.want);
    });
  }

  test('empty fields match empty attributes exactly (kube "v1 user match"), though no real request has them', async () => {
    const mode = createAbacAuthorizer(parseAbacPolicyFile(`{${V1},"spec":{"user":"bob"}}`, 'f'));
    const empty = attrs({ user: user('bob'), verb: 'get' });
    expect((await mode.authorize({ ...empty, isResourceRequest: true })).decision).toBe('Allow');
    expect((await mode.authorize({ ...empty, isResourceRequest: false })).decision).toBe('Allow');
  });

  test('the mode keeps its own copy of the policies', async () => {
    const policies = parseAbacPolicyFile('{"user":"bob"}', 'f');
    const mutable = policies.map((p) => ({ ...p }));
    const mode = createAbacAuthorizer(mutable);
    mutable[0]!.user = 'eve';
    mutable.length = 0;
    expect((await mode.authorize(attrs({ user: user('bob'), verb: 'get', path: '/' }))).decision).toBe('Allow');
  });
});

describe('rulesFor (kube TestRulesFor)', () => {
  const mode = modeOf(
    [
      '',
      '{                    "readonly": true, "resource": "events"   }',
      '{"user":"scheduler", "readonly": true, "resource": "pods"     }',
      '{"user":"scheduler",                   "resource": "bindings" }',
      '{"user":"kubelet",   "readonly": true, "resource": "pods"     }',
      '{"user":"kubelet",                     "resource": "events"   }',
      '{"user":"alice",                                              "namespace": "projectCaribou"}',
      '{"user":"bob",       "readonly": true,                        "namespace": "projectCaribou"}',
      '{"user":"bob",       "readonly": true,                                                     "nonResourcePath": "*"}',
      '{"group":"a",                          "resource": "bindings" }',
      '{"group":"b",        "readonly": true,                                                     "nonResourcePath": "*"}',
      `{${V1},"spec":{"user":"carol","resource":"deployments","apiGroup":"apps","namespace":"web"}}`,
      `{${V1},"spec":{"user":"carol","nonResourcePath":"/healthz","namespace":"web"}}`,
      `{${V1},"spec":{"user":"carol","nonResourcePath":"/metrics"}}`,
    ].join('\n'),
  );
  const read = ['get', 'list', 'watch'];
  const rule = (verbs: string[], resource: string, apiGroup = '*') => ({ verbs, apiGroups: [apiGroup], resources: [resource] });
  const cases: Array<{ name: string; input: { user: UserInfo; namespace: string }; want: RulesResult }> = [
    {
      name: 'scheduler: events for everyone, then its own, in file order',
      input: { user: user('scheduler'), namespace: 'ns1' },
      want: { resourceRules: [rule(read, 'events'), rule(read, 'pods'), rule(['*'], 'bindings')], nonResourceRules: [], incomplete: false },
    },
    {
      name: 'kubelet without system:authenticated: not the everyone rule, but its groups',
      input: { user: user('kubelet', ['a', 'b']), namespace: 'ns1' },
      want: { resourceRules: [rule(read, 'pods'), rule(['*'], 'events'), rule(['*'], 'bindings'), rule(read, '*')], nonResourceRules: [{ verbs: read, nonResourceURLs: ['*'] }], incomplete: false },
    },
    { name: 'alice in her namespace', input: { user: alice, namespace: 'projectCaribou' }, want: { resourceRules: [rule(read, 'events'), rule(['*'], '*')], nonResourceRules: [], incomplete: false } },
    { name: 'alice elsewhere', input: { user: alice, namespace: 'ns1' }, want: { resourceRules: [rule(read, 'events')], nonResourceRules: [], incomplete: false } },
    {
      name: 'bob: a v0 line with no namespace lists all resources and all paths',
      input: { user: user('bob'), namespace: 'projectCaribou' },
      want: { resourceRules: [rule(read, 'events'), rule(read, '*'), rule(read, '*')], nonResourceRules: [{ verbs: read, nonResourceURLs: ['*'] }], incomplete: false },
    },
    {
      name: 'chuck by groups only',
      input: { user: user('chuck', ['a', 'b']), namespace: 'ns1' },
      want: { resourceRules: [rule(['*'], 'bindings'), rule(read, '*')], nonResourceRules: [{ verbs: read, nonResourceURLs: ['*'] }], incomplete: false },
    },
    {
      name: 'v1beta1: the API group as written; a path rule needs the namespace to match too',
      input: { user: user('carol'), namespace: 'web' },
      want: { resourceRules: [rule(read, 'events'), rule(['*'], 'deployments', 'apps')], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/healthz'] }], incomplete: false },
    },
    {
      name: 'v1beta1: a path rule without namespace is listed only for the empty namespace',
      input: { user: user('carol'), namespace: '' },
      want: { resourceRules: [rule(read, 'events')], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/metrics'] }], incomplete: false },
    },
    { name: 'anonymous gets nothing', input: { user: anonymous, namespace: 'ns1' }, want: { resourceRules: [], nonResourceRules: [], incomplete: false } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect(await mode.rulesFor(c.input.user, c.input.namespace)).toEqual(c.want);
    });
  }
});
