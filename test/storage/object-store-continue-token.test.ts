import { describe, expect, test } from 'vitest';
import { isStorageError } from '../../src/errors/storage-error.js';
import { decodeContinue, encodeContinue } from '../../src/storage/continue-token.js';

const b64 = (json: unknown): string => Buffer.from(JSON.stringify(json), 'utf8').toString('base64url');

describe('continue tokens', () => {
  test('encode gives kube-apiserver bytes', () => {
    const token = encodeContinue({ prefix: '/registry/pods/', lastKey: '/registry/pods/ns/a', revision: 42 });
    // kube: base64.RawURLEncoding of {"v":"meta.k8s.io/v1","rv":42,"start":"ns/a\u0000"}
    expect(token).toBe(Buffer.from('{"v":"meta.k8s.io/v1","rv":42,"start":"ns/a\\u0000"}').toString('base64url'));
    expect(token).not.toContain('=');
  });

  const decodeRows: { name: string; token: string; want: { revision: number; after: string } }[] = [
    {
      name: 'our own token resumes right after the last key',
      token: encodeContinue({ prefix: '/r/', lastKey: '/r/ns/a', revision: 7 }),
      want: { revision: 7, after: '/r/ns/a' },
    },
    {
      name: 'a start key without NUL resumes at that key',
      token: b64({ v: 'meta.k8s.io/v1', rv: 7, start: 'ns/b' }),
      want: { revision: 7, after: '/r/ns/a\uffff' },
    },
    {
      name: 'a negative revision (inconsistent continuation) decodes',
      token: b64({ v: 'meta.k8s.io/v1', rv: -1, start: 'a\u0000' }),
      want: { revision: -1, after: '/r/a' },
    },
  ];
  for (const row of decodeRows) {
    test(`decode: ${row.name}`, () => {
      expect(decodeContinue(row.token, '/r/')).toEqual(row.want);
    });
  }

  const badRows: { name: string; token: string; message: string }[] = [
    { name: 'bad base64', token: 'a*b', message: 'continue key is not valid: illegal base64 data' },
    { name: 'not an object', token: b64([1]), message: 'continue key is not valid: not an object' },
    {
      name: 'unknown version',
      token: b64({ v: 'x', rv: 1, start: 'a' }),
      message: 'continue key is not valid: server does not recognize this encoded version x',
    },
    {
      name: 'zero revision',
      token: b64({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }),
      message: 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    },
    {
      name: 'empty start',
      token: b64({ v: 'meta.k8s.io/v1', rv: 3, start: '' }),
      message: 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
    },
    { name: 'path traversal', token: b64({ v: 'meta.k8s.io/v1', rv: 3, start: 'a/../../b' }), message: 'continue key is not valid: a/../../b' },
    { name: 'doubled slash', token: b64({ v: 'meta.k8s.io/v1', rv: 3, start: 'a//b' }), message: 'continue key is not valid: a//b' },
  ];
  for (const row of badRows) {
    test(`decode rejects ${row.name} with BadRequest`, () => {
      let caught: unknown;
      try {
        decodeContinue(row.token, '/r/');
      } catch (err) {
        caught = err;
      }
      expect(isStorageError(caught, 'BadRequest')).toBe(true);
      expect((caught as Error).message).toBe(row.message);
    });
  }
});
