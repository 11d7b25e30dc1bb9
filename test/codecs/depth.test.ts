// Nesting depth is bounded once, at decode, in every codec and patch body; past
// the bound the answer is 400 with Go's encoding/json text (scanner.go:
// "invalid character '[' exceeded max depth"), never a stack overflow later.
import { describe, expect, test } from 'vitest';
import { checkDepth, depthOf, MAX_DEPTH, tooDeepAt } from '../../src/codecs/depth.js';
import { decodeJson } from '../../src/codecs/json.js';
import { isStatusError } from '../../src/errors/status-error.js';
import { decodePatch, type PatchType } from '../../src/patch/index.js';
import { builtinSchema } from '../../src/schema/definitions.js';

function nested(opts: { depth: number; open: '[' | '{' }): string {
  const open = opts.open === '[' ? '[' : '{"a":';
  const close = opts.open === '[' ? ']' : '}';
  return `${open.repeat(opts.depth)}1${close.repeat(opts.depth)}`;
}

function failure(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return isStatusError(err) ? err.toStatus() : err;
  }
  return undefined;
}

describe('JSON bodies', () => {
  const cases: { name: string; body: string; want: { code: number; message: string } | undefined }[] = [
    { name: 'arrays at the bound', body: nested({ depth: MAX_DEPTH, open: '[' }), want: undefined },
    { name: 'objects at the bound', body: nested({ depth: MAX_DEPTH, open: '{' }), want: undefined },
    { name: 'arrays one past the bound', body: nested({ depth: MAX_DEPTH + 1, open: '[' }), want: { code: 400, message: "couldn't get version/kind; json parse error: invalid character '[' exceeded max depth" } },
    { name: 'objects one past the bound', body: nested({ depth: MAX_DEPTH + 1, open: '{' }), want: { code: 400, message: "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth" } },
    { name: 'objects 100,000 deep', body: nested({ depth: 100_000, open: '{' }), want: { code: 400, message: "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth" } },
    { name: 'arrays 100,000 deep under data', body: `{"data":${nested({ depth: 100_000, open: '[' })}}`, want: { code: 400, message: "couldn't get version/kind; json parse error: invalid character '[' exceeded max depth" } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = failure(() => decodeJson(Buffer.from(c.body)));
      if (c.want === undefined) expect(got).toBeUndefined();
      else expect(got).toMatchObject(c.want);
    });
  }
});

describe('patch bodies of every type', () => {
  const deep = nested({ depth: 100_000, open: '{' });
  const cases: { name: string; type: PatchType; strict: boolean; body: string; want: { code: number; message: string } }[] = [
    { name: 'strategic merge', type: 'strategic', strict: false, body: `{"data":${deep}}`, want: { code: 400, message: "invalid character '{' exceeded max depth" } },
    { name: 'merge patch, strict', type: 'merge', strict: true, body: `{"data":${deep}}`, want: { code: 400, message: "error decoding patch: invalid character '{' exceeded max depth" } },
    { name: 'merge patch, lax', type: 'merge', strict: false, body: `{"data":${deep}}`, want: { code: 400, message: 'Invalid JSON Patch' } },
    { name: 'JSON patch value', type: 'json', strict: false, body: `[{"op":"add","path":"/data/x","value":${deep}}]`, want: { code: 400, message: "invalid character '{' exceeded max depth" } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = failure(() => decodePatch({ type: c.type, body: c.body, strict: c.strict, schema: builtinSchema('io.k8s.api.core.v1.ConfigMap') }));
      expect(got).toMatchObject(c.want);
    });
  }
});

describe('depth helpers', () => {
  const cases: { name: string; input: unknown; depth: number; tooDeep: '[' | '{' | undefined }[] = [
    { name: 'scalar', input: 1, depth: 0, tooDeep: undefined },
    { name: 'empty object', input: {}, depth: 1, tooDeep: undefined },
    { name: 'mixed', input: { a: [{ b: [] }], c: 1 }, depth: 4, tooDeep: undefined },
    { name: 'first over-deep container in document order', input: JSON.parse(`[${nested({ depth: MAX_DEPTH, open: '{' })}, ${nested({ depth: MAX_DEPTH, open: '[' })}]`), depth: MAX_DEPTH + 1, tooDeep: '{' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(depthOf(c.input)).toBe(c.depth);
      expect(tooDeepAt(c.input)).toBe(c.tooDeep);
    });
  }

  test('checkDepth throws 400 with the prefix given', () => {
    expect(failure(() => checkDepth(JSON.parse(nested({ depth: MAX_DEPTH + 1, open: '[' })), { prefix: 'p: ' }))).toMatchObject({ code: 400, message: "p: invalid character '[' exceeded max depth" });
  });
});
