// The authorizer variable (Kubernetes' authz library) behind the CelAuthorizer interface.
import { describe, expect, test } from 'vitest';
import { authorizerValue, createCelEnvironment, AUTHORIZER_TYPE, type CelAuthorizationAttributes, type CelAuthorizer } from '../../src/cel/index.js';
import { runCelTable, type CelRow } from './table.js';

const seen: CelAuthorizationAttributes[] = [];
/** Allows get on pods in default, /healthz for GET, and anything for one service account; fails on "boom". */
const fake: CelAuthorizer = {
  check(a) {
    seen.push(a);
    if (a.verb === 'boom') return { decision: 'NoOpinion', reason: '', error: 'webhook unreachable' };
    if (a.verb === 'throw') throw new Error('authorizer crashed');
    if (a.user.username === 'system:serviceaccount:ns:sa') return { decision: 'Allow', reason: 'service account' };
    if (!a.isResourceRequest) return a.path === '/healthz' && a.verb === 'get' ? { decision: 'Allow', reason: 'health' } : { decision: 'NoOpinion', reason: '' };
    if (a.resource === 'pods' && a.namespace === 'default' && a.verb === 'get') return { decision: 'Allow', reason: 'rbac: pod reader' };
    return { decision: 'Deny', reason: 'not allowed' };
  },
};
const bindings = { authorizer: authorizerValue(fake, { username: 'alice', groups: ['dev'] }) };
const variables = [{ name: 'authorizer', type: AUTHORIZER_TYPE }];

const rows: CelRow[] = [
  { name: 'resource check allowed', expr: "authorizer.group('').resource('pods').namespace('default').check('get').allowed()", want: true },
  { name: 'resource check reason', expr: "authorizer.group('').resource('pods').namespace('default').check('get').reason()", want: 'rbac: pod reader' },
  { name: 'resource check denied', expr: "authorizer.group('apps').resource('deployments').check('delete').allowed()", want: false },
  { name: 'deny reason', expr: "authorizer.group('apps').resource('deployments').check('delete').reason()", want: 'not allowed' },
  { name: 'not errored', expr: "authorizer.group('').resource('pods').check('get').errored()", want: false },
  { name: 'error empty when none', expr: "authorizer.group('').resource('pods').check('get').error()", want: '' },
  { name: 'errored', expr: "authorizer.group('').resource('pods').check('boom').errored()", want: true },
  { name: 'error text', expr: "authorizer.group('').resource('pods').check('boom').error()", want: 'webhook unreachable' },
  { name: 'a throwing authorizer is an errored decision', expr: "authorizer.group('').resource('pods').check('throw').error()", want: 'authorizer crashed' },
  { name: 'no opinion is not allowed', expr: "authorizer.path('/metrics').check('get').allowed()", want: false },
  { name: 'path check', expr: "authorizer.path('/healthz').check('get').allowed()", want: true },
  { name: 'path must not be empty', expr: "authorizer.path('').check('get')", error: 'path must not be empty' },
  { name: 'path must not be blank', expr: "authorizer.path('  ').check('get')", error: 'path must not be empty' },
  { name: 'resource must not be empty', expr: "authorizer.group('apps').resource(' ').check('get')", error: 'resource must not be empty' },
  { name: 'service account', expr: "authorizer.serviceAccount('ns', 'sa').group('').resource('secrets').check('list').allowed()", want: true },
  { name: 'service account name validated first', expr: "authorizer.serviceAccount('not@valid', 'invalid@*name').path('/x').check('get')", error: 'Invalid service account name' },
  { name: 'service account namespace validated', expr: "authorizer.serviceAccount('not@a#valid!namespace', 'validname').path('/x').check('get')", error: 'Invalid service account namespace' },
  { name: 'selectors need the gate', expr: "authorizer.group('').resource('pods').fieldSelector('a=b').check('list').allowed()", error: 'found no matching overload' },
];

describe('cel authorizer', () => {
  const env = createCelEnvironment({ variables });
  runCelTable(rows.map((r) => ({ ...r, bindings })), env);

  test('a resource check sends kube attributes', () => {
    seen.length = 0;
    env.compile("authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('web').check('update')").evaluate(bindings);
    expect(seen).toEqual([{
      user: { username: 'alice', groups: ['dev'] }, verb: 'update', isResourceRequest: true, path: '',
      apiGroup: 'apps', apiVersion: '*', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'web',
    }]);
  });

  test('a path check sends the path and the verb as written', () => {
    seen.length = 0;
    env.compile("authorizer.path('/healthz').check('GET')").evaluate(bindings);
    expect(seen[0]).toMatchObject({ isResourceRequest: false, path: '/healthz', verb: 'GET' });
  });

  test('serviceAccount switches the user', () => {
    seen.length = 0;
    env.compile("authorizer.serviceAccount('ns', 'sa').path('/x').check('get')").evaluate(bindings);
    expect(seen[0]!.user).toEqual({ username: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] });
  });

  test('with AuthorizeWithSelectors the selectors reach the authorizer', () => {
    const gated = createCelEnvironment({ variables, featureGates: { authorizeWithSelectors: true } });
    seen.length = 0;
    gated.compile("authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1').labelSelector('app=web').check('list')").evaluate(bindings);
    expect(seen[0]).toMatchObject({ fieldSelector: 'spec.nodeName=n1', labelSelector: 'app=web' });
    seen.length = 0;
    gated.compile("authorizer.group('').resource('pods').fieldSelector('').check('list')").evaluate(bindings);
    expect(seen[0]).not.toHaveProperty('fieldSelector');
  });
});
