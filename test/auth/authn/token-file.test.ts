// --token-auth-file (auth/authn/token-file.ts): the CSV as kube reads it, and the
// bearer tokens it lets in.
import { describe, expect, test } from 'vitest';
import { createTokenFileAuthenticator, parseTokenFile, TokenFileError } from '../../../src/auth/authn/token-file.js';

describe('parseTokenFile', () => {
  test('token, user, uid and an optional quoted group list; blank lines skipped; a BOM ignored', () => {
    const tokens = parseTokenFile('\ufeffabc,alice,u-1,"dev,ops"\n\ndef,bob,u-2\n', '/t.csv');
    expect(tokens.get('abc')).toEqual({ username: 'alice', uid: 'u-1', groups: ['dev', 'ops'] });
    expect(tokens.get('def')).toEqual({ username: 'bob', uid: 'u-2', groups: [] });
  });

  test('more columns than four are allowed; an empty token is skipped; a repeated token keeps its last line', () => {
    const tokens = parseTokenFile('t,a,1,g,extra,more\n,nobody,0\nt,b,2\n', '/t.csv');
    expect(tokens.get('t')).toEqual({ username: 'b', uid: '2', groups: [] });
    expect(tokens.has('')).toBe(false);
    expect(tokens.size).toBe(1);
  });

  test('fewer than three columns stops the start, naming the file', () => {
    expect(() => parseTokenFile('abc,alice\n', '/etc/k/tokens.csv')).toThrow(
      new TokenFileError("token file '/etc/k/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2"),
    );
  });

  test('a line of spaces is not blank: one column', () => {
    expect(() => parseTokenFile('abc,alice,u\n  \n', '/t.csv')).toThrow(/found 1$/);
  });

  test('malformed CSV (an unterminated quote) names the file', () => {
    expect(() => parseTokenFile('abc,alice,u,"dev\n', '/t.csv')).toThrow(/^token file '\/t\.csv': /);
  });

  test('prototype-named tokens and users are data', () => {
    const tokens = parseTokenFile('__proto__,constructor,toString\n', '/t.csv');
    expect(tokens.get('__proto__')).toEqual({ username: 'constructor', uid: 'toString', groups: [] });
  });
});

describe('the authenticator', () => {
  const authenticate = createTokenFileAuthenticator(parseTokenFile('abc,alice,u-1,"dev"\n', '/t.csv'));

  test('a listed bearer token is its user', async () => {
    expect(await authenticate({ headers: { authorization: 'Bearer abc' } })).toEqual({ user: { username: 'alice', uid: 'u-1', groups: ['dev'] } });
  });

  test('an unknown token, another scheme or no header is left to the other authenticators', async () => {
    expect(await authenticate({ headers: { authorization: 'Bearer nope' } })).toBeUndefined();
    expect(await authenticate({ headers: { authorization: 'Basic abc' } })).toBeUndefined();
    expect(await authenticate({ headers: {} })).toBeUndefined();
  });
});
