// RFC 6902 JSON patch: every operation, and kube's error tiers (400 for a body
// that is not a patch, the fixed "rejected" sentence for one that cannot apply).
import { describe, expect, test } from 'vitest';
import { isStatusError } from '../../src/errors/status-error.js';
import { applyJsonPatch, decodeJsonPatch, MAX_JSON_PATCH_OPERATIONS } from '../../src/patch/json-patch.js';
import type { Json } from '../../src/patch/json.js';

const DOC: Json = { metadata: { name: 'p', labels: { a: '1' } }, spec: { list: ['x', 'y'] } };

function failure(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return isStatusError(err) ? err.toStatus() : err;
  }
  throw new Error('expected a failure');
}

describe('applyJsonPatch', () => {
  const cases: { name: string; ops: unknown[]; want: Json }[] = [
    { name: 'add a label', ops: [{ op: 'add', path: '/metadata/labels/b', value: '2' }], want: { metadata: { name: 'p', labels: { a: '1', b: '2' } }, spec: { list: ['x', 'y'] } } },
    { name: 'remove a label', ops: [{ op: 'remove', path: '/metadata/labels/a' }], want: { metadata: { name: 'p', labels: {} }, spec: { list: ['x', 'y'] } } },
    { name: 'replace a list element', ops: [{ op: 'replace', path: '/spec/list/0', value: 'z' }], want: { metadata: { name: 'p', labels: { a: '1' } }, spec: { list: ['z', 'y'] } } },
    { name: 'append with -', ops: [{ op: 'add', path: '/spec/list/-', value: 'z' }], want: { metadata: { name: 'p', labels: { a: '1' } }, spec: { list: ['x', 'y', 'z'] } } },
    { name: 'move', ops: [{ op: 'move', from: '/metadata/labels/a', path: '/metadata/labels/c' }], want: { metadata: { name: 'p', labels: { c: '1' } }, spec: { list: ['x', 'y'] } } },
    { name: 'copy', ops: [{ op: 'copy', from: '/spec/list', path: '/spec/other' }], want: { metadata: { name: 'p', labels: { a: '1' } }, spec: { list: ['x', 'y'], other: ['x', 'y'] } } },
    { name: 'passing test then replace', ops: [{ op: 'test', path: '/metadata/labels/a', value: '1' }, { op: 'replace', path: '/metadata/labels/a', value: '3' }], want: { metadata: { name: 'p', labels: { a: '3' } }, spec: { list: ['x', 'y'] } } },
    { name: 'escaped key', ops: [{ op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'web' }], want: { metadata: { name: 'p', labels: { a: '1', 'app.kubernetes.io/name': 'web' } }, spec: { list: ['x', 'y'] } } },
    { name: 'empty patch', ops: [], want: DOC },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const before = JSON.stringify(DOC);
      expect(applyJsonPatch(DOC, decodeJsonPatch(JSON.stringify(c.ops)))).toEqual(c.want);
      expect(JSON.stringify(DOC)).toBe(before);
    });
  }
});

describe('JSON patch failures', () => {
  const rejected = 'the server rejected our request due to an error in our request';
  const cases: { name: string; body: string; want: { code: number; message: string; cause?: string } }[] = [
    { name: 'not JSON', body: '[{', want: { code: 400, message: 'unexpected end of JSON input' } },
    { name: 'an object, not a list', body: '{"op":"add"}', want: { code: 400, message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' } },
    { name: 'an element that is not an object', body: '["add"]', want: { code: 400, message: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation' } },
    { name: 'failed test', body: '[{"op":"test","path":"/metadata/labels/a","value":"2"}]', want: { code: 422, message: rejected, cause: 'testing value /metadata/labels/a failed: test failed' } },
    { name: 'remove of a missing path', body: '[{"op":"remove","path":"/metadata/labels/zz"}]', want: { code: 422, message: rejected, cause: 'remove operation does not apply: doc is missing path: "/metadata/labels/zz": missing value' } },
    { name: 'add under a missing parent', body: '[{"op":"add","path":"/spec/nope/x","value":1}]', want: { code: 422, message: rejected, cause: 'add operation does not apply: doc is missing path: "/spec/nope/x": missing value' } },
    { name: 'unknown op', body: '[{"op":"frobnicate","path":"/a"}]', want: { code: 422, message: rejected, cause: 'Unexpected kind: frobnicate' } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = failure(() => applyJsonPatch(DOC, decodeJsonPatch(c.body)));
      expect(got).toMatchObject({ code: c.want.code, message: c.want.message });
      if (c.want.cause !== undefined) expect(got).toMatchObject({ details: { causes: [{ reason: 'UnexpectedServerResponse', message: c.want.cause }] } });
    });
  }

  test('more operations than kube allows is 413', () => {
    const ops = JSON.stringify(Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/a', value: 1 })));
    expect(failure(() => decodeJsonPatch(ops))).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001` });
  });
});
