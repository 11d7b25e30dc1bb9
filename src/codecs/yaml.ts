// YAML in both directions (application/yaml). Decoding yields the same JSON-shaped
// values the JSON codec does: the core schema only (no timestamps, binary or custom
// tags that JSON cannot hold), a repeated key keeps the last value as Go's YAMLToJSON
// does. Encoding sorts keys and leaves sequences unindented, as sigs.k8s.io/yaml writes.
import yaml from 'js-yaml';
import { badRequest } from '../errors/status-error.js';
import type { Codec } from './codec.js';

export const YAML_MEDIA_TYPE = 'application/yaml';

export function decodeYaml(body: Buffer): unknown {
  try {
    // json: true lets duplicate keys override instead of failing the whole body.
    const value = yaml.load(body.toString('utf8'), { schema: yaml.CORE_SCHEMA, json: true });
    return value === undefined ? null : value;
  } catch (err) {
    const why = err instanceof yaml.YAMLException ? err.message.split('\n')[0]! : String(err);
    throw badRequest(`error converting YAML to JSON: yaml: ${why}`);
  }
}

export function encodeYaml(obj: unknown): Buffer {
  return Buffer.from(yaml.dump(obj, { schema: yaml.CORE_SCHEMA, sortKeys: true, noArrayIndent: true, lineWidth: -1 }), 'utf8');
}

export const yamlCodec: Codec = {
  mediaType: YAML_MEDIA_TYPE,
  decode: (body) => decodeYaml(body),
  encode: (obj) => encodeYaml(obj),
};
