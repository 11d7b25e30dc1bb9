import { describe, expect, test } from 'vitest';
import { decodeYaml, encodeYaml } from '../../src/codecs/yaml.js';
import { StatusError } from '../../src/errors/status-error.js';

describe('yaml codec', () => {
  const decodeCases: { name: string; input: string; want: unknown }[] = [
    { name: 'mapping', input: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n', want: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } },
    { name: 'JSON is YAML', input: '{"a": [1, "b"]}', want: { a: [1, 'b'] } },
    { name: 'timestamps stay strings', input: 't: 2024-01-01T00:00:00Z\n', want: { t: '2024-01-01T00:00:00Z' } },
    { name: 'duplicate key keeps the last', input: 'a: 1\na: 2\n', want: { a: 2 } },
    { name: 'empty document is null', input: '', want: null },
  ];
  for (const c of decodeCases) {
    test(`decode: ${c.name}`, () => {
      expect(decodeYaml(Buffer.from(c.input))).toEqual(c.want);
    });
  }

  const badCases: { name: string; input: string }[] = [
    { name: 'bad indentation', input: 'a:\n  b: 1\n c: 2\n' },
    { name: 'unclosed flow', input: '{a: [1, 2' },
    { name: 'two documents', input: 'a: 1\n---\nb: 2\n' },
  ];
  for (const c of badCases) {
    test(`decode rejects ${c.name} with 400`, () => {
      let caught: unknown;
      try {
        decodeYaml(Buffer.from(c.input));
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(StatusError);
      expect((caught as StatusError).code).toBe(400);
      expect((caught as StatusError).message).toMatch(/^error converting YAML to JSON: yaml: /);
    });
  }

  test('encode sorts keys and does not indent sequences', () => {
    const out = encodeYaml({ kind: 'List', apiVersion: 'v1', items: [{ b: 1, a: 'x' }] }).toString('utf8');
    expect(out).toBe('apiVersion: v1\nitems:\n- a: x\n  b: 1\nkind: List\n');
  });

  test('encode round-trips strings that look like other types', () => {
    const obj = { a: 'true', b: '1', c: 'null', d: '', e: 'yes' };
    expect(decodeYaml(encodeYaml(obj))).toEqual(obj);
  });
});
