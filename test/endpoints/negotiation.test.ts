import { describe, expect, test } from 'vitest';
import type { Codec } from '../../src/codecs/codec.js';
import { createCodecRegistry, PROTOBUF_MEDIA_TYPE } from '../../src/codecs/registry.js';
import { negotiateInput, negotiateOutput, parseAccept } from '../../src/endpoints/negotiation.js';
import { StatusError } from '../../src/errors/status-error.js';

const fakeProtobuf: Codec = {
  mediaType: PROTOBUF_MEDIA_TYPE,
  decode: () => ({}),
  encode: () => Buffer.from('k8s\0'),
};
const codecs = createCodecRegistry({ protobuf: { codec: fakeProtobuf, hasMessage: (_apiVersion, kind) => kind !== 'Widget' } });
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io';

function statusOf(fn: () => unknown): StatusError | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  return undefined;
}

describe('negotiateOutput', () => {
  const cases: { name: string; accept: string | undefined; kind?: string; pretty?: boolean; want: string | 406; wantPretty?: boolean }[] = [
    { name: 'no Accept is JSON', accept: undefined, want: 'application/json' },
    { name: 'empty Accept is JSON', accept: '', want: 'application/json' },
    { name: '*/* is JSON', accept: '*/*', want: 'application/json' },
    { name: 'application/* is JSON', accept: 'application/*', want: 'application/json' },
    { name: 'typed clientset <=1.31', accept: 'application/json, */*', want: 'application/json' },
    { name: 'yaml', accept: 'application/yaml', want: 'application/yaml' },
    { name: 'protobuf first', accept: 'application/vnd.kubernetes.protobuf,application/json', want: PROTOBUF_MEDIA_TYPE },
    { name: 'protobuf for a kind without message falls to JSON', accept: 'application/vnd.kubernetes.protobuf,application/json', kind: 'Widget', want: 'application/json' },
    { name: 'protobuf only for a kind without message', accept: 'application/vnd.kubernetes.protobuf', kind: 'Widget', want: 406 },
    { name: 'q-values reorder', accept: 'application/json;q=0.5, application/yaml', want: 'application/yaml' },
    { name: 'q=0 is tried last', accept: 'application/yaml;q=0, application/json', want: 'application/json' },
    { name: 'Table then JSON degrades to JSON', accept: `${TABLE},application/json`, want: 'application/json' },
    { name: 'only Table is written as JSON (get/list/watch build the Table)', accept: TABLE, want: 'application/json' },
    { name: 'Table over protobuf only is 406', accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io', want: 406 },
    { name: 'unknown type is 406', accept: 'text/html', want: 406 },
    { name: 'unknown then wildcard', accept: 'text/html, */*;q=0.1', want: 'application/json' },
    { name: 'charset parameter ignored', accept: 'application/json;charset=utf-8', want: 'application/json' },
    { name: 'pretty indents JSON', accept: 'application/json', pretty: true, want: 'application/json', wantPretty: true },
    { name: 'pretty=1 media parameter', accept: 'application/json;pretty=1', want: 'application/json', wantPretty: true },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const run = () =>
        negotiateOutput({ accept: c.accept, codecs, pretty: c.pretty ?? false, type: { apiVersion: 'example.test/v1', kind: c.kind ?? 'ConfigMap' } });
      if (c.want === 406) {
        const err = statusOf(run);
        expect(err?.code).toBe(406);
        expect(err?.reason).toBe('NotAcceptable');
        expect(err?.message).toBe(`only the following media types are accepted: application/json, application/yaml, ${PROTOBUF_MEDIA_TYPE}`);
        return;
      }
      const codec = run();
      expect(codec.mediaType).toBe(c.want);
      if (c.want === 'application/json') {
        const text = codec.encode({ a: 1 }).toString();
        expect(text).toBe(c.wantPretty === true ? '{\n  "a": 1\n}\n' : '{"a":1}\n');
      }
    });
  }
});

describe('negotiateInput', () => {
  const cases: { name: string; contentType: string | undefined; want: string | 415 }[] = [
    { name: 'missing is JSON', contentType: undefined, want: 'application/json' },
    { name: 'json with charset', contentType: 'application/json; charset=utf-8', want: 'application/json' },
    { name: 'upper case', contentType: 'Application/JSON', want: 'application/json' },
    { name: 'yaml', contentType: 'application/yaml', want: 'application/yaml' },
    { name: 'protobuf', contentType: PROTOBUF_MEDIA_TYPE, want: PROTOBUF_MEDIA_TYPE },
    { name: 'text/plain', contentType: 'text/plain', want: 415 },
    { name: 'merge patch on a non-patch verb', contentType: 'application/merge-patch+json', want: 415 },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const run = () => negotiateInput({ contentType: c.contentType, codecs });
      if (c.want === 415) {
        const err = statusOf(run);
        expect(err?.code).toBe(415);
        expect(err?.message).toBe(
          `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PROTOBUF_MEDIA_TYPE}`,
        );
        return;
      }
      expect(run().mediaType).toBe(c.want);
    });
  }
});

test('parseAccept orders by q then specificity', () => {
  expect(parseAccept('*/*;q=0.9, application/*;q=0.9, application/json;q=0.9, text/plain').map((r) => `${r.type}/${r.subtype}`)).toEqual([
    'text/plain',
    'application/json',
    'application/*',
    '*/*',
  ]);
});
