// Golden files (STYLE.md §9): every test/testdata/<group>.<version>.<Kind>.json
// encodes byte-identically to its .pb and the .pb decodes back to the same object.
// `*.kubectl.pb` are request bodies captured from kubectl 1.33 (see
// protobuf-kubectl.test.ts); they must decode to their .kubectl.json.
// UPDATE_GOLDEN=1 rewrites the .pb files from the .json files.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { protobufCodec } from '../../src/codecs/protobuf.js';

const TESTDATA = join(import.meta.dirname, '..', 'testdata');
const update = process.env.UPDATE_GOLDEN === '1';
const stems = readdirSync(TESTDATA)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length));

describe('protobuf golden files', () => {
  test('the golden set covers the kinds kubectl sends and the special field types', () => {
    const want = [
      'core.v1.ConfigMap',
      'core.v1.Secret',
      'core.v1.Pod',
      'core.v1.Namespace',
      'authentication.k8s.io.v1.SelfSubjectReview',
      'authorization.k8s.io.v1.SelfSubjectAccessReview',
      'authentication.k8s.io.v1.TokenRequest',
      'events.k8s.io.v1.Event',
      'apps.v1.ControllerRevision',
    ];
    expect(stems).toEqual(expect.arrayContaining(want));
  });

  for (const stem of stems.filter((s) => !s.endsWith('.kubectl'))) {
    test(`${stem}: encodes to its .pb, which decodes back`, () => {
      const obj = JSON.parse(readFileSync(join(TESTDATA, `${stem}.json`), 'utf8')) as Record<string, unknown>;
      const encoded = protobufCodec.encode(obj);
      const pbPath = join(TESTDATA, `${stem}.pb`);
      if (update) writeFileSync(pbPath, encoded);
      const golden = readFileSync(pbPath);
      expect(encoded.toString('hex')).toBe(golden.toString('hex'));
      expect(protobufCodec.decode(golden)).toEqual(obj);
      expect(stem).toBe(goldenName(obj));
    });
  }

  for (const stem of stems.filter((s) => s.endsWith('.kubectl'))) {
    test(`${stem}: kubectl's bytes decode to the recorded object`, () => {
      const want = JSON.parse(readFileSync(join(TESTDATA, `${stem}.json`), 'utf8')) as unknown;
      expect(protobufCodec.decode(readFileSync(join(TESTDATA, `${stem}.pb`)))).toEqual(want);
    });
  }
});

/** <group>.<version>.<Kind>, with "core" for the legacy group. */
function goldenName(obj: Record<string, unknown>): string {
  const apiVersion = String(obj.apiVersion);
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? 'core' : apiVersion.slice(0, slash);
  return `${group}.${apiVersion.slice(slash + 1)}.${String(obj.kind)}`;
}
