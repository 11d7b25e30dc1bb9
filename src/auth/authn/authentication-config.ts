// --authentication-config: kube-apiserver's AuthenticationConfiguration
// (apiserver.config.k8s.io v1, v1beta1 and v1alpha1, which share one shape) read
// from YAML or JSON as kube's strict decoder reads it: apiVersion and kind
// required, unknown and duplicate fields refused, wrong JSON types named with Go's
// "cannot unmarshal" text. What it means is checked by
// authentication-config-validation.ts; jwt.ts builds an authenticator per issuer.
import { decodeJson } from '../../codecs/json.js';
import { decodeYaml } from '../../codecs/yaml.js';
import { isStatusError } from '../../errors/status-error.js';

export const AUTHENTICATION_CONFIG_GROUP = 'apiserver.config.k8s.io';
export const AUTHENTICATION_CONFIG_VERSIONS: readonly string[] = ['v1', 'v1beta1', 'v1alpha1'];

export interface AuthenticationConfiguration {
  readonly jwt: readonly JwtAuthenticatorConfig[];
  /** Absent: the file says nothing about anonymous requests (--anonymous-auth decides). */
  readonly anonymous?: AnonymousAuthConfig;
}

export interface AnonymousAuthConfig {
  readonly enabled: boolean;
  /** Empty: every request without credentials; else only these exact paths. */
  readonly conditions: readonly { readonly path: string }[];
}

export interface JwtAuthenticatorConfig {
  readonly issuer: IssuerConfig;
  readonly claimValidationRules: readonly ClaimValidationRule[];
  readonly claimMappings: ClaimMappings;
  readonly userValidationRules: readonly UserValidationRule[];
}

export interface IssuerConfig {
  readonly url: string;
  /** '' when unset. */
  readonly discoveryURL: string;
  /** PEM; '' trusts the system's roots. */
  readonly certificateAuthority: string;
  readonly audiences: readonly string[];
  readonly audienceMatchPolicy: string;
  readonly egressSelectorType: string;
}

export interface ClaimValidationRule {
  readonly claim: string;
  readonly requiredValue: string;
  readonly expression: string;
  readonly message: string;
}

export interface PrefixedClaimOrExpression {
  readonly claim: string;
  /** undefined when unset ('' is a set, empty prefix). */
  readonly prefix: string | undefined;
  readonly expression: string;
}

export interface ClaimOrExpression {
  readonly claim: string;
  readonly expression: string;
}

export interface ClaimMappings {
  readonly username: PrefixedClaimOrExpression;
  readonly groups: PrefixedClaimOrExpression;
  readonly uid: ClaimOrExpression;
  readonly extra: readonly { readonly key: string; readonly valueExpression: string }[];
}

export interface UserValidationRule {
  readonly expression: string;
  readonly message: string;
}

/** The file could not be decoded; the message is kube's (without the file prefix). */
export class AuthenticationConfigDecodeError extends Error {
  override readonly name = 'AuthenticationConfigDecodeError';
}

// The Go types of apiserver.config.k8s.io, as far as decoding needs them: field
// names (case-sensitive, as sigs.k8s.io/json matches them), JSON kinds, and the
// struct names Go's type errors print.
type Shape =
  | { readonly kind: 'string' }
  | { readonly kind: 'optionalString' }
  | { readonly kind: 'bool' }
  | { readonly kind: 'list'; readonly goType: string; readonly of: Shape }
  | { readonly kind: 'struct'; readonly name: string; readonly fields: ReadonlyMap<string, Shape> };

const STRING: Shape = { kind: 'string' };
const struct = (name: string, fields: Record<string, Shape>): Shape => ({ kind: 'struct', name, fields: new Map(Object.entries(fields)) });
const list = (goType: string, of: Shape): Shape => ({ kind: 'list', goType, of });

const PREFIXED = struct('PrefixedClaimOrExpression', { claim: STRING, prefix: { kind: 'optionalString' }, expression: STRING });
const JWT = struct('JWTAuthenticator', {
  issuer: struct('Issuer', {
    url: STRING,
    discoveryURL: STRING,
    certificateAuthority: STRING,
    audiences: list('[]string', STRING),
    audienceMatchPolicy: STRING,
    egressSelectorType: STRING,
  }),
  claimValidationRules: list('[]v1.ClaimValidationRule', struct('ClaimValidationRule', { claim: STRING, requiredValue: STRING, expression: STRING, message: STRING })),
  claimMappings: struct('ClaimMappings', {
    username: PREFIXED,
    groups: PREFIXED,
    uid: struct('ClaimOrExpression', { claim: STRING, expression: STRING }),
    extra: list('[]v1.ExtraMapping', struct('ExtraMapping', { key: STRING, valueExpression: STRING })),
  }),
  userValidationRules: list('[]v1.UserValidationRule', struct('UserValidationRule', { expression: STRING, message: STRING })),
});
const ROOT = struct('AuthenticationConfiguration', {
  apiVersion: STRING,
  kind: STRING,
  jwt: list('[]v1.JWTAuthenticator', JWT),
  anonymous: struct('AnonymousAuthConfig', {
    enabled: { kind: 'bool' },
    conditions: list('[]v1.AnonymousAuthCondition', struct('AnonymousAuthCondition', { path: STRING })),
  }),
});

/** Kinds of the apiserver.config.k8s.io group other than this one: decodable, but not what the flag wants. */
const OTHER_KINDS: ReadonlySet<string> = new Set(['AdmissionConfiguration', 'AuthorizationConfiguration', 'EncryptionConfiguration', 'EgressSelectorConfiguration', 'TracingConfiguration']);

interface WalkState {
  /** Go's first type error ("cannot unmarshal …"); decoding goes on to find strict errors, as encoding/json does. */
  typeError: string | undefined;
  readonly strict: string[];
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/**
 * Decoded JSON into the shape, with Go's zero values for what is absent or null
 * (so every string is a string and every list a list afterwards). `goPath` is Go's
 * dotted field path for type errors; `path` the strict decoder's (with indices).
 */
function walk(value: unknown, shape: Shape, at: { readonly goPath: string; readonly path: string; readonly struct: string }, state: WalkState): unknown {
  if (value === null || value === undefined) return shape.kind === 'optionalString' ? undefined : zero(shape);
  const mismatch = (goType: string): unknown => {
    state.typeError ??= `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${at.struct}.${at.goPath} of type ${goType}`;
    return zero(shape);
  };
  switch (shape.kind) {
    case 'string':
    case 'optionalString':
      return typeof value === 'string' ? value : mismatch('string');
    case 'bool':
      return typeof value === 'boolean' ? value : mismatch('bool');
    case 'list':
      if (!Array.isArray(value)) return mismatch(shape.goType);
      return value.map((item, i) => walk(item, shape.of, { ...at, path: `${at.path}[${i}]` }, state));
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return mismatch(`v1.${shape.name}`);
      // Keys come from the file: the result is built over a null prototype and only
      // the shape's own names are ever read, so `__proto__` is just an unknown field.
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [name, fieldShape] of shape.fields) out[name] = zero(fieldShape);
      for (const key of Object.keys(value)) {
        const fieldShape = shape.fields.get(key);
        const path = at.path === '' ? key : `${at.path}.${key}`;
        if (fieldShape === undefined) {
          state.strict.push(`unknown field ${JSON.stringify(path)}`);
          continue;
        }
        const goPath = at.goPath === '' ? key : `${at.goPath}.${key}`;
        out[key] = walk((value as Record<string, unknown>)[key], fieldShape, { goPath, path, struct: shape.name }, state);
      }
      return out;
    }
  }
}

function zero(shape: Shape): unknown {
  switch (shape.kind) {
    case 'string':
      return '';
    case 'optionalString':
      return undefined;
    case 'bool':
      return false;
    case 'list':
      return [];
    case 'struct':
      return walk({}, shape, { goPath: '', path: '', struct: shape.name }, { typeError: undefined, strict: [] });
  }
}

/** JSON when it opens with `{` (kube's JSON serializer recognises it so), YAML otherwise. */
function parse(data: Buffer, strictErrors: string[]): unknown {
  const text = data.toString('utf8').trimStart();
  try {
    return text.startsWith('{') ? decodeJson(data, { strictErrors }) : decodeYaml(data, { strictErrors });
  } catch (err) {
    // The codecs answer a client's bytes with a 400 Status; here the message is the whole story.
    if (isStatusError(err)) throw new AuthenticationConfigDecodeError(err.message);
    throw err;
  }
}

/**
 * Decodes the file's bytes as kube's strict UniversalDecoder does; throws
 * AuthenticationConfigDecodeError with kube's text. Nothing here recurses past the
 * codecs' depth bound.
 */
export function decodeAuthenticationConfiguration(data: Buffer): AuthenticationConfiguration {
  if (data.length === 0) throw new AuthenticationConfigDecodeError('empty config data');
  const strictErrors: string[] = [];
  const value = parse(data, strictErrors);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AuthenticationConfigDecodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const typeMeta = value as Record<string, unknown>;
  const apiVersion = Object.hasOwn(typeMeta, 'apiVersion') && typeof typeMeta.apiVersion === 'string' ? typeMeta.apiVersion : '';
  const kind = Object.hasOwn(typeMeta, 'kind') && typeof typeMeta.kind === 'string' ? typeMeta.kind : '';
  const compact = JSON.stringify(value);
  if (kind === '') throw new AuthenticationConfigDecodeError(`Object 'Kind' is missing in '${compact}'`);
  if (apiVersion === '') throw new AuthenticationConfigDecodeError(`Object 'apiVersion' is missing in '${compact}'`);
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  if (group !== AUTHENTICATION_CONFIG_GROUP || !AUTHENTICATION_CONFIG_VERSIONS.includes(version!) || (kind !== 'AuthenticationConfiguration' && !OTHER_KINDS.has(kind))) {
    throw new AuthenticationConfigDecodeError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/kubeapiserver/options/authentication.go"`);
  }
  if (kind !== 'AuthenticationConfiguration') throw new AuthenticationConfigDecodeError(`expected AuthenticationConfiguration, got *apiserver.${kind}`);
  const state: WalkState = { typeError: undefined, strict: [] };
  const decoded = walk(value, ROOT, { goPath: '', path: '', struct: 'AuthenticationConfiguration' }, state) as Record<string, unknown>;
  if (state.typeError !== undefined) throw new AuthenticationConfigDecodeError(state.typeError);
  const strict = [...strictErrors, ...state.strict];
  // A YAML duplicate comes as goyaml's multi-line text; the start error is one line.
  if (strict.length > 0) throw new AuthenticationConfigDecodeError(`strict decoding error: ${strict.join(', ').replace(/\s*\n\s*/g, ' ')}`);
  // The walk gave every field its Go type (zero values included): the shapes above are these interfaces.
  const jwt = decoded.jwt as JwtAuthenticatorConfig[];
  return Object.hasOwn(typeMeta, 'anonymous') && typeMeta.anonymous !== null ? { jwt, anonymous: decoded.anonymous as AnonymousAuthConfig } : { jwt };
}
