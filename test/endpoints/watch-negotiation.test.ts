// Watch negotiation (kube's NegotiateOutputMediaTypeStream): the entry an ordinary
// answer would use, `stream=` only as `watch` on a codec with a stream form, and a
// 406 listing the stream media types when the chosen codec has none (YAML).
import { describe, expect, test } from 'vitest';
import { negotiateWatchOutput } from '../../src/endpoints/negotiation.js';
import { isStatusError } from '../../src/errors/status-error.js';

const CONFIG_MAP = { apiVersion: 'v1', kind: 'ConfigMap' };
const WIDGET = { apiVersion: 'example.test/v1', kind: 'Widget' };
const PB = 'application/vnd.kubernetes.protobuf';

const cases: { name: string; accept: string | undefined; type: { apiVersion: string; kind: string }; want: { contentType: string; table?: string } | 406 }[] = [
  { name: 'no Accept: JSON lines', accept: undefined, type: CONFIG_MAP, want: { contentType: 'application/json' } },
  { name: 'kubectl / client-go default JSON', accept: 'application/json, */*', type: CONFIG_MAP, want: { contentType: 'application/json' } },
  { name: 'client-go protobuf client (ContentType+", */*")', accept: `${PB}, */*`, type: CONFIG_MAP, want: { contentType: `${PB};stream=watch` } },
  { name: 'kube components (AcceptContentTypes)', accept: `${PB},application/json`, type: CONFIG_MAP, want: { contentType: `${PB};stream=watch` } },
  { name: 'explicit stream=watch', accept: `${PB};stream=watch`, type: CONFIG_MAP, want: { contentType: `${PB};stream=watch` } },
  { name: 'JSON with stream=watch', accept: 'application/json;stream=watch', type: CONFIG_MAP, want: { contentType: 'application/json' } },
  { name: 'protobuf for a kind without a message falls to JSON', accept: `${PB}, */*`, type: WIDGET, want: { contentType: 'application/json' } },
  { name: 'protobuf only, kind without a message: 406', accept: PB, type: WIDGET, want: 406 },
  { name: 'an unknown stream kind skips the entry', accept: `${PB};stream=other, application/json`, type: CONFIG_MAP, want: { contentType: 'application/json' } },
  { name: 'YAML has no stream form: 406, not a later entry', accept: 'application/yaml, application/json', type: CONFIG_MAP, want: 406 },
  { name: 'YAML with stream=watch is skipped', accept: 'application/yaml;stream=watch, application/json', type: CONFIG_MAP, want: { contentType: 'application/json' } },
  {
    name: 'kubectl get -w: Table rows in JSON lines',
    accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
    type: CONFIG_MAP,
    want: { contentType: 'application/json', table: 'v1' },
  },
];

describe('watch negotiation', () => {
  for (const c of cases) {
    test(c.name, () => {
      if (c.want === 406) {
        let err: unknown;
        try {
          negotiateWatchOutput({ accept: c.accept, type: c.type });
        } catch (e) {
          err = e;
        }
        expect(isStatusError(err) && err.code).toBe(406);
        expect((err as Error).message).toBe('only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch');
        return;
      }
      const got = negotiateWatchOutput({ accept: c.accept, type: c.type });
      expect({ contentType: got.framer.contentType, ...(got.table === undefined ? {} : { table: got.table }) }).toEqual(c.want);
    });
  }
});
