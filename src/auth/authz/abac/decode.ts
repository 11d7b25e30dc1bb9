// One policy-file line, decoded as kube's NewFromFile decodes it with abac's
// UniversalDecoder: JSON when it opens with `{`, YAML otherwise; apiVersion/kind
// read first (case-insensitively, as encoding/json does); a registered kind then
// decoded case-sensitively with unknown fields dropped; no kind or version, or an
// unregistered kind, retried as the unversioned v0 Policy. convert.ts turns each
// version into the shape abac.ts matches.
import { decodeJson } from '../../../codecs/json.js';
import { decodeYaml } from '../../../codecs/yaml.js';
import { isStatusError } from '../../../errors/status-error.js';
import { goJsonType } from '../../../schema/object.js';
import { ABAC_GROUP, VERSIONS, type AbacPolicy, type PolicySpec, type PolicyVersion, type SpecField } from './convert.js';

/** A line that does not decode; the message is the decoder's, without file or line. */
export class PolicyDecodeError extends Error {
  override readonly name = 'PolicyDecodeError';
}

export interface DecodedLine {
  readonly policy: AbacPolicy;
  /** Decoded through the v0 fallback (kube warns once per file about these). */
  readonly unversioned: boolean;
}

/** Go's unicode.IsSpace, which is neither JS's \s (it has U+FEFF) nor JSON's whitespace. */
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

export function trimGoSpaceStart(text: string): string {
  return text.replace(GO_SPACE, '');
}

/** The scheme kube's not-registered errors name: the call site of abac.Scheme's runtime.NewScheme(). */
const SCHEME_NAME = 'pkg/apis/abac/register.go:33';

const TYPE_META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

function parse(line: string): unknown {
  const bytes = Buffer.from(line, 'utf8');
  try {
    // apimachinery's JSON serializer claims data whose first non-space byte is `{`; the YAML one takes the rest.
    return trimGoSpaceStart(line).startsWith('{') ? decodeJson(bytes) : decodeYaml(bytes);
  } catch (err) {
    // The codecs answer a client with a 400 Status; here the message is all there is to say.
    if (isStatusError(err)) throw new PolicyDecodeError(err.message);
    throw err;
  }
}

/** encoding/json's case folding of a key onto a field name: ASCII case, plus the Kelvin sign and the long s. */
function foldKey(key: string): string {
  return key.replace(/\u212a/g, 'k').replace(/\u017f/g, 's').toLowerCase();
}

/**
 * json.SimpleMetaFactory.Interpret: apiVersion and kind through encoding/json,
 * which matches keys case-insensitively, lets the last of several win, and leaves a
 * null alone; then schema.ParseGroupVersion.
 */
function interpret(value: unknown): GroupVersionKind {
  const found = { apiVersion: '', kind: '' };
  if (value !== null) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new PolicyDecodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(value)} into Go value of type ${TYPE_META_STRUCT}`);
    }
    for (const key of Object.keys(value)) {
      const folded = foldKey(key);
      const field = folded === 'apiversion' ? 'apiVersion' : folded === 'kind' ? 'kind' : undefined;
      if (field === undefined) continue;
      const v = (value as Record<string, unknown>)[key];
      if (v === null) continue;
      if (typeof v !== 'string') {
        throw new PolicyDecodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(v)} into Go struct field .${field} of type string`);
      }
      found[field] = v;
    }
  }
  const { apiVersion, kind } = found;
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const slashes = apiVersion.split('/').length - 1;
  if (slashes > 1) throw new PolicyDecodeError(`unexpected GroupVersion string: ${apiVersion}`);
  if (slashes === 0) return { group: '', version: apiVersion, kind };
  const at = apiVersion.indexOf('/');
  return { group: apiVersion.slice(0, at), version: apiVersion.slice(at + 1), kind };
}

function registered(gvk: GroupVersionKind): PolicyVersion | undefined {
  if (gvk.group !== ABAC_GROUP || gvk.kind !== 'Policy') return undefined;
  return Object.hasOwn(VERSIONS, gvk.version) ? (gvk.version as PolicyVersion) : undefined;
}

/** runtime.notRegisteredErr's text. */
function notRegistered(gvk: GroupVersionKind): PolicyDecodeError {
  if (gvk.version === '__internal') return new PolicyDecodeError(`no kind ${JSON.stringify(gvk.kind)} is registered for the internal version of group ${JSON.stringify(gvk.group)} in scheme ${JSON.stringify(SCHEME_NAME)}`);
  const gv = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
  return new PolicyDecodeError(`no kind ${JSON.stringify(gvk.kind)} is registered for version ${JSON.stringify(gv)} in scheme ${JSON.stringify(SCHEME_NAME)}`);
}

/**
 * The spec fields of one struct, in document order as Go reports the first type
 * error. Keys are file data: only the version's own names are looked up (in a
 * Map), so `__proto__` or `constructor` are unknown fields, dropped.
 */
function readSpec(obj: object, version: PolicyVersion, at: { readonly struct: string; readonly path: string }): PolicySpec {
  const shape = VERSIONS[version];
  const spec = { user: '', group: '', readonly: false, apiGroup: '', resource: '', namespace: '', nonResourcePath: '' };
  for (const key of Object.keys(obj)) {
    const field: SpecField | undefined = shape.fields.get(key);
    if (field === undefined) continue;
    const value = (obj as Record<string, unknown>)[key];
    // A JSON null leaves Go's zero value.
    if (value === null) continue;
    if (field === 'readonly') {
      if (typeof value !== 'boolean') throw new PolicyDecodeError(`json: cannot unmarshal ${goJsonType(value)} into Go struct field ${at.struct}.${at.path}${key} of type bool`);
      spec.readonly = value;
    } else {
      if (typeof value !== 'string') throw new PolicyDecodeError(`json: cannot unmarshal ${goJsonType(value)} into Go struct field ${at.struct}.${at.path}${key} of type string`);
      spec[field] = value;
    }
  }
  return spec;
}

/** Unmarshals `value` (an object or null) into the version's Go struct. */
function unmarshal(value: unknown, version: PolicyVersion): PolicySpec {
  const shape = VERSIONS[version];
  if (value === null) return readSpec({}, version, { struct: 'Policy', path: '' });
  if (shape.specKey === undefined) return readSpec(value as object, version, { struct: 'Policy', path: '' });
  const { key, goType } = shape.specKey;
  const spec = Object.hasOwn(value as object, key) ? (value as Record<string, unknown>)[key] : null;
  if (spec === null) return readSpec({}, version, { struct: 'PolicySpec', path: '' });
  if (typeof spec !== 'object' || Array.isArray(spec)) {
    throw new PolicyDecodeError(`json: cannot unmarshal ${goJsonType(spec)} into Go struct field Policy.${key} of type ${goType}`);
  }
  return readSpec(spec, version, { struct: 'PolicySpec', path: `${key}.` });
}

/**
 * NewFromFile's fallback: runtime.DecodeInto a v0.Policy. The serializer fills what
 * the line left out from v0 (gvkWithDefaults); a kind that is still not v0's is
 * created, decoded and then fails to convert, as kube's versioning codec does.
 */
function decodeAsV0(value: unknown, line: string, gvk: GroupVersionKind): AbacPolicy {
  const kind = gvk.kind === '' ? 'Policy' : gvk.kind;
  let { group, version } = gvk;
  if (version === '' && group === '') group = ABAC_GROUP;
  if (version === '' && group === ABAC_GROUP) version = 'v0';
  if (version === '') throw new PolicyDecodeError(`Object 'apiVersion' is missing in '${line}'`);
  const target = registered({ group, version, kind });
  if (target === undefined) throw notRegistered({ group, version, kind });
  const spec = unmarshal(value, target);
  if (target !== 'v0') throw new PolicyDecodeError(`converting (${VERSIONS[target].goType}) to (${VERSIONS.v0.goType}): unknown conversion`);
  return VERSIONS.v0.convert(spec);
}

/** Decodes one non-blank, non-comment line; throws PolicyDecodeError with kube's text. */
export function decodePolicyLine(line: string): DecodedLine {
  const value = parse(line);
  const gvk = interpret(value);
  // Missing kind or version, or a kind not registered: kube retries the line as v0.
  const version = gvk.kind === '' || gvk.version === '' ? undefined : registered(gvk);
  if (version === undefined) return { policy: decodeAsV0(value, line, gvk), unversioned: true };
  return { policy: VERSIONS[version].convert(unmarshal(value, version)), unversioned: false };
}
