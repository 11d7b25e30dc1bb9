// Codecs turn request bytes into JSON-shaped objects and objects into response
// bytes. The endpoint layer picks one by media type (negotiation.ts); everything
// below it sees only objects. A codec throws StatusError badRequest for bytes it
// cannot read, never a bare Error.
import type { GroupVersionKind } from '../schema/object.js';

export interface DecodeOptions {
  /** The kind the endpoint expects; protobuf needs it when the envelope is absent. */
  readonly expected?: GroupVersionKind;
  /**
   * When given, the codec appends kube's strict-decoding texts for what a lax
   * decode silently accepted: repeated keys (JSON `duplicate field "a.b"`, YAML
   * `yaml: unmarshal errors:\n  line 3: key "a" already set in map`). The scan
   * costs a second pass over the body, so it runs only when this is passed
   * (fieldValidation Strict or Warn). Unknown fields are not the codec's: it
   * does not know the schema.
   */
  readonly strictErrors?: string[];
}

export interface Codec {
  /** The media type this codec answers with, e.g. application/vnd.kubernetes.protobuf. */
  readonly mediaType: string;
  decode(body: Buffer, opts?: DecodeOptions): unknown;
  /** Objects carry apiVersion and kind; protobuf looks the message up from them. */
  encode(obj: unknown): Buffer;
}
