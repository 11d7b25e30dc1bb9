import { describe, expect, test } from 'vitest';
import { decodeJson, encodeJson, jsonCodec } from '../../src/codecs/json.js';
import { StatusError } from '../../src/errors/status-error.js';

describe('json codec', () => {
  const encodeCases: { name: string; input: unknown; pretty: boolean; want: string }[] = [
    { name: 'compact with newline', input: { a: 1, b: [true, null] }, pretty: false, want: '{"a":1,"b":[true,null]}\n' },
    { name: 'pretty two spaces', input: { a: { b: 'c' }, d: [] }, pretty: true, want: '{\n  "a": {\n    "b": "c"\n  },\n  "d": []\n}\n' },
    { name: 'escapes HTML characters like Go', input: { m: '<a> & </a>' }, pretty: false, want: '{"m":"\\u003ca\\u003e \\u0026 \\u003c/a\\u003e"}\n' },
  ];
  for (const c of encodeCases) {
    test(`encode: ${c.name}`, () => {
      const out = encodeJson(c.input, { pretty: c.pretty }).toString('utf8');
      expect(out).toBe(c.want);
      expect(JSON.parse(out)).toEqual(c.input);
    });
  }

  const badCases: { name: string; input: string; want: RegExp }[] = [
    { name: 'truncated', input: '{"a":', want: /^couldn't get version\/kind; json parse error: / },
    { name: 'empty', input: '', want: /json parse error/ },
    { name: 'trailing garbage', input: '{"a":1} x', want: /json parse error/ },
  ];
  for (const c of badCases) {
    test(`decode rejects ${c.name} with 400`, () => {
      let caught: unknown;
      try {
        decodeJson(Buffer.from(c.input));
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(StatusError);
      expect((caught as StatusError).code).toBe(400);
      expect((caught as StatusError).reason).toBe('BadRequest');
      expect((caught as StatusError).message).toMatch(c.want);
    });
  }

  test('round trip', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { k: 'ü' } };
    expect(jsonCodec.decode(jsonCodec.encode(obj))).toEqual(obj);
  });
});

describe('lone surrogates', () => {
  test('decode to U+FFFD in values and keys, as Go does', () => {
    const value = decodeJson(Buffer.from('{"metadata":{"name":"a\\ud800b","labels":{"k\\udfff":"\\ud83d\\ude00"}}}')) as { metadata: { name: string; labels: Record<string, string> } };
    expect(value.metadata.name).toBe('a\ufffdb');
    expect(value.metadata.labels).toEqual({ 'k\ufffd': '😀' });
    expect(() => encodeURIComponent(value.metadata.name)).not.toThrow();
  });
});
