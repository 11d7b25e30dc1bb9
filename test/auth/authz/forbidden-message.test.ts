import { describe, expect, test } from 'vitest';
import type { AuthorizationAttributes } from '../../../src/auth/authz/authorizer.js';
import { createAuthorizer } from '../../../src/auth/authz/create.js';
import { forbiddenMessage } from '../../../src/auth/authz/forbidden-message.js';
import { goQuote } from '../../../src/schema/go-quote.js';
import { createRequestAuthorizer } from '../../../src/auth/authz/request.js';

const base: AuthorizationAttributes = {
  user: { username: 'bob', groups: [] },
  verb: 'list',
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/pods',
  namespace: 'default',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: '',
};

describe('forbiddenMessage', () => {
  const cases: Array<{ name: string; attrs: Partial<AuthorizationAttributes>; want: string }> = [
    { name: 'namespaced list', attrs: {}, want: 'User "bob" cannot list resource "pods" in API group "" in the namespace "default"' },
    {
      name: 'cluster scope, named group',
      attrs: { verb: 'get', namespace: '', apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'admin' },
      want: 'User "bob" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
    },
    { name: 'subresource', attrs: { verb: 'get', resource: 'pods', subresource: 'log', name: 'web' }, want: 'User "bob" cannot get resource "pods/log" in API group "" in the namespace "default"' },
    { name: 'non-resource path', attrs: { isResourceRequest: false, verb: 'get', path: '/foo', resource: '', namespace: '' }, want: 'User "bob" cannot get path "/foo"' },
    { name: 'odd user names are Go-quoted', attrs: { user: { username: 'a"b\\c\n', groups: [] } }, want: 'User "a\\"b\\\\c\\n" cannot list resource "pods" in API group "" in the namespace "default"' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(forbiddenMessage({ ...base, ...c.attrs })).toBe(c.want);
    });
  }
});

describe('goQuote', () => {
  const cases: Array<{ name: string; input: string; want: string }> = [
    { name: 'plain', input: 'system:serviceaccount:ns:sa', want: '"system:serviceaccount:ns:sa"' },
    { name: 'empty', input: '', want: '""' },
    { name: 'short escapes', input: '\x07\b\f\n\r\t\v', want: '"\\a\\b\\f\\n\\r\\t\\v"' },
    { name: 'other control bytes', input: '\x01\x7f', want: '"\\x01\\x7f"' },
    { name: 'printable unicode stays', input: 'jürgen 名前 ✓', want: '"jürgen 名前 ✓"' },
    { name: 'non-printable unicode', input: '\u0085\u200b\u{e0001}', want: '"\\u0085\\u200b\\U000e0001"' },
    { name: 'non-ASCII space is escaped', input: '\u00a0', want: '"\\u00a0"' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(goQuote(c.input)).toBe(c.want);
    });
  }
});

describe('createRequestAuthorizer', () => {
  const cases: Array<{ name: string; groups: string[]; want: { allowed: boolean; message: string } }> = [
    { name: 'allowed', groups: ['system:masters'], want: { allowed: true, message: '' } },
    {
      name: 'denied with the AlwaysDeny reason',
      groups: ['system:authenticated'],
      want: { allowed: false, message: 'User "bob" cannot list resource "pods" in API group "" in the namespace "default": Everything is forbidden.' },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const authorize = createRequestAuthorizer(createAuthorizer({ modes: ['AlwaysDeny'] }).authorize);
      const { user: _user, ...info } = base;
      expect(await authorize({ username: 'bob', groups: c.groups }, info)).toEqual(c.want);
    });
  }
});
