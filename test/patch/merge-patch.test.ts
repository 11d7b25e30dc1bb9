// RFC 7386 merge patch: the RFC's appendix A table plus kube's decoding tiers.
import { describe, expect, test } from 'vitest';
import { isStatusError } from '../../src/errors/status-error.js';
import { decodeMergePatch, mergePatch } from '../../src/patch/merge-patch.js';
import type { Json } from '../../src/patch/json.js';
import { builtinSchema } from '../../src/schema/definitions.js';

describe('mergePatch (RFC 7386 appendix A)', () => {
  const cases: { name: string; target: Json; patch: Json; want: Json }[] = [
    { name: 'replace a value', target: { a: 'b' }, patch: { a: 'c' }, want: { a: 'c' } },
    { name: 'add a key', target: { a: 'b' }, patch: { b: 'c' }, want: { a: 'b', b: 'c' } },
    { name: 'null deletes', target: { a: 'b' }, patch: { a: null }, want: {} },
    { name: 'null deletes one of two', target: { a: 'b', b: 'c' }, patch: { a: null }, want: { b: 'c' } },
    { name: 'list replaces scalar', target: { a: ['b'] }, patch: { a: 'c' }, want: { a: 'c' } },
    { name: 'scalar replaces list', target: { a: 'c' }, patch: { a: ['b'] }, want: { a: ['b'] } },
    { name: 'nested merge and delete', target: { a: { b: 'c' } }, patch: { a: { b: 'd', c: null } }, want: { a: { b: 'd' } } },
    { name: 'lists are replaced whole', target: { a: [{ b: 'c' }] }, patch: { a: [1] }, want: { a: [1] } },
    { name: 'array patch replaces the document', target: { a: 'foo' }, patch: ['c'], want: ['c'] },
    { name: 'nulls inside a new object are dropped', target: {}, patch: { a: { bb: { ccc: null } } }, want: { a: { bb: {} } } },
    { name: 'empty patch is a no-op', target: { a: 1, b: [1, 2] }, patch: {}, want: { a: 1, b: [1, 2] } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const before = JSON.stringify(c.target);
      expect(mergePatch(c.target, c.patch)).toEqual(c.want);
      expect(JSON.stringify(c.target)).toBe(before);
    });
  }
});

describe('decodeMergePatch', () => {
  const cases: { name: string; body: string; strict: boolean; wantMessage?: string; want?: Json }[] = [
    { name: 'object', body: '{"a":1}', strict: true, want: { a: 1 } },
    { name: 'syntax error, strict', body: '{"a":', strict: true, wantMessage: 'error decoding patch: unexpected end of JSON input' },
    { name: 'syntax error, lenient', body: '{"a":', strict: false, wantMessage: 'Invalid JSON Patch' },
    { name: 'array, strict', body: '[1]', strict: true, wantMessage: 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}' },
    { name: 'array, lenient replaces the document', body: '[1]', strict: false, want: [1] },
    { name: 'null', body: 'null', strict: false, wantMessage: 'Invalid JSON Patch' },
    { name: 'scalar', body: '"x"', strict: false, wantMessage: 'Invalid JSON Patch' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      if (c.wantMessage === undefined) {
        expect(decodeMergePatch(c.body, { strict: c.strict })).toEqual(c.want);
        return;
      }
      let caught: unknown;
      try {
        decodeMergePatch(c.body, { strict: c.strict });
      } catch (err) {
        caught = err;
      }
      expect(isStatusError(caught) && caught.toStatus()).toMatchObject({ code: 400, reason: 'BadRequest', message: c.wantMessage });
    });
  }
});

test('decodePatch(merge) leaves a frozen current object alone', async () => {
  const { decodePatch } = await import('../../src/patch/index.js');
  const deepFreeze = <T>(o: T): T => {
    if (typeof o === 'object' && o !== null) for (const v of Object.values(o)) deepFreeze(v);
    return Object.freeze(o);
  };
  const current = deepFreeze({ kind: 'Widget', metadata: { name: 'w' }, spec: { nested: { a: 1 } } });
  const patched = decodePatch({ type: 'merge', body: '{"spec":{"size":2}}', strict: true, schema: builtinSchema('none') }).apply(current) as { spec: { nested: { a: number } } };
  patched.spec.nested.a = 5;
  expect(current.spec.nested.a).toBe(1);
});
