// --authorization-config: kube-apiserver's AuthorizationConfiguration
// (apiserver.config.k8s.io v1, v1beta1 and v1alpha1 share one shape; kube 1.36
// registers all three) decoded as load.LoadFromData decodes it: kube's strict
// decoder (apiVersion and kind required, unknown and duplicate fields refused, Go's
// type errors, metav1.Duration strings), then the versioned defaults (authorizedTTL
// 5m, unauthorizedTTL 30s, both caches on). validation.ts checks the meaning.
import { decodeJson } from '../../../codecs/json.js';
import { decodeYaml } from '../../../codecs/yaml.js';
import { isStatusError } from '../../../errors/status-error.js';
import { parseGoDuration } from '../../../schema/go-duration.js';
import { ShapeDecodeError, walk, type Shape, type WalkState } from './decode-shape.js';

export interface AuthorizationConfiguration {
  readonly authorizers: readonly AuthorizerConfiguration[];
}

export interface AuthorizerConfiguration {
  /** Checked against the known types by validation (AUTHORIZER_TYPES). */
  readonly type: string;
  readonly name: string;
  readonly webhook?: WebhookConfiguration;
}

/** Durations in milliseconds (metav1.Duration). */
export interface WebhookConfiguration {
  readonly authorizedTTL: number;
  readonly cacheAuthorizedRequests: boolean;
  readonly unauthorizedTTL: number;
  readonly cacheUnauthorizedRequests: boolean;
  readonly timeout: number;
  readonly subjectAccessReviewVersion: string;
  readonly matchConditionSubjectAccessReviewVersion: string;
  readonly failurePolicy: string;
  readonly connectionInfo: WebhookConnectionInfo;
  readonly matchConditions: readonly { readonly expression: string }[];
}

export interface WebhookConnectionInfo {
  readonly type: string;
  /** undefined when unset (a Go nil pointer); '' is set and empty. */
  readonly kubeConfigFile?: string;
}

/** The file could not be decoded; the message is kube's. */
export class AuthorizationConfigDecodeError extends Error {
  override readonly name = 'AuthorizationConfigDecodeError';
}

const STRING: Shape = { kind: 'string' };

/** The Go types behind the JSON (field names, kinds, struct names for type errors) for one version. */
function rootShape(version: string): Shape {
  const struct = (name: string, fields: Record<string, Shape>, pointer = false): Shape => ({ kind: 'struct', name, goType: `${version}.${name}`, pointer, fields: new Map(Object.entries(fields)) });
  const matchCondition = struct('WebhookMatchCondition', { expression: STRING });
  const webhook = struct(
    'WebhookConfiguration',
    {
      authorizedTTL: { kind: 'duration' },
      cacheAuthorizedRequests: { kind: 'optionalBool' },
      unauthorizedTTL: { kind: 'duration' },
      cacheUnauthorizedRequests: { kind: 'optionalBool' },
      timeout: { kind: 'duration' },
      subjectAccessReviewVersion: STRING,
      matchConditionSubjectAccessReviewVersion: STRING,
      failurePolicy: STRING,
      connectionInfo: struct('WebhookConnectionInfo', { type: STRING, kubeConfigFile: { kind: 'optionalString' } }),
      matchConditions: { kind: 'list', goType: `[]${version}.WebhookMatchCondition`, of: matchCondition },
    },
    true,
  );
  const authorizer = struct('AuthorizerConfiguration', { type: STRING, name: STRING, webhook });
  return struct('AuthorizationConfiguration', { apiVersion: STRING, kind: STRING, authorizers: { kind: 'list', goType: `[]${version}.AuthorizerConfiguration`, of: authorizer } });
}

/** What load.go's scheme registers, by apiVersion (install.Install of apiserver's v1, v1beta1, v1alpha1). */
const REGISTERED: Readonly<Record<string, readonly string[]>> = {
  'apiserver.config.k8s.io/v1': ['AdmissionConfiguration', 'AuthenticationConfiguration', 'AuthorizationConfiguration', 'EncryptionConfiguration', 'TracingConfiguration'],
  'apiserver.config.k8s.io/v1beta1': ['AuthenticationConfiguration', 'AuthorizationConfiguration', 'TracingConfiguration'],
  'apiserver.config.k8s.io/v1alpha1': ['AuthenticationConfiguration', 'AuthorizationConfiguration', 'TracingConfiguration'],
  'apiserver.k8s.io/v1beta1': ['EgressSelectorConfiguration'],
  'apiserver.k8s.io/v1alpha1': ['AdmissionConfiguration', 'EgressSelectorConfiguration'],
};
const SCHEME = 'k8s.io/apiserver/pkg/apis/apiserver/load/load.go:32';

function parse(data: Buffer, strictErrors: string[]): unknown {
  try {
    return data.toString('utf8').trimStart().startsWith('{') ? decodeJson(data, { strictErrors }) : decodeYaml(data, { strictErrors });
  } catch (err) {
    // The codecs answer a client's bytes with a 400 Status; here the message is the whole story.
    if (isStatusError(err)) throw new AuthorizationConfigDecodeError(err.message);
    throw err;
  }
}

type Decoded = Record<string, unknown>;

function webhookWithDefaults(w: Decoded): WebhookConfiguration {
  return {
    authorizedTTL: w.authorizedTTL === 0 ? 5 * 60_000 : (w.authorizedTTL as number),
    cacheAuthorizedRequests: (w.cacheAuthorizedRequests as boolean | undefined) ?? true,
    unauthorizedTTL: w.unauthorizedTTL === 0 ? 30_000 : (w.unauthorizedTTL as number),
    cacheUnauthorizedRequests: (w.cacheUnauthorizedRequests as boolean | undefined) ?? true,
    timeout: w.timeout as number,
    subjectAccessReviewVersion: w.subjectAccessReviewVersion as string,
    matchConditionSubjectAccessReviewVersion: w.matchConditionSubjectAccessReviewVersion as string,
    failurePolicy: w.failurePolicy as string,
    connectionInfo: w.connectionInfo as WebhookConnectionInfo,
    matchConditions: w.matchConditions as { expression: string }[],
  };
}

/**
 * Decodes the file's bytes; throws AuthorizationConfigDecodeError with kube's
 * text. Empty bytes are kube's empty default (no authorizers), which validation
 * refuses. Nothing here recurses past the codecs' depth bound.
 */
export function decodeAuthorizationConfiguration(data: Buffer): AuthorizationConfiguration {
  if (data.length === 0) return { authorizers: [] };
  const strictErrors: string[] = [];
  const value = parse(data, strictErrors);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    throw new AuthorizationConfigDecodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${kind} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const typeMeta = value as Decoded;
  const text = (k: string) => (Object.hasOwn(typeMeta, k) && typeof typeMeta[k] === 'string' ? (typeMeta[k] as string) : '');
  const apiVersion = text('apiVersion');
  const kind = text('kind');
  if (kind === '') throw new AuthorizationConfigDecodeError(`Object 'Kind' is missing in '${JSON.stringify(value)}'`);
  if (apiVersion === '') throw new AuthorizationConfigDecodeError(`Object 'apiVersion' is missing in '${JSON.stringify(value)}'`);
  const kinds = Object.hasOwn(REGISTERED, apiVersion) ? REGISTERED[apiVersion]! : [];
  if (!kinds.includes(kind)) throw new AuthorizationConfigDecodeError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(SCHEME)}`);
  if (kind !== 'AuthorizationConfiguration') throw new AuthorizationConfigDecodeError(`expected AuthorizationConfiguration, got *apiserver.${kind}`);
  const state: WalkState = { typeError: undefined, strict: [], parseDuration: parseGoDuration };
  let decoded: Decoded;
  try {
    decoded = walk(value, rootShape(apiVersion.slice(apiVersion.indexOf('/') + 1)), { goPath: '', path: '', struct: 'AuthorizationConfiguration' }, state) as Decoded;
  } catch (err) {
    if (err instanceof ShapeDecodeError) throw new AuthorizationConfigDecodeError(err.message);
    throw err;
  }
  if (state.typeError !== undefined) throw new AuthorizationConfigDecodeError(state.typeError);
  const strict = [...strictErrors, ...state.strict];
  // A YAML duplicate comes as goyaml's multi-line text; the error is one line.
  if (strict.length > 0) throw new AuthorizationConfigDecodeError(`strict decoding error: ${strict.join(', ').replace(/\s*\n\s*/g, ' ')}`);
  const authorizers = (decoded.authorizers as Decoded[]).map((a): AuthorizerConfiguration => {
    const base = { type: a.type as string, name: a.name as string };
    return a.webhook === undefined ? base : { ...base, webhook: webhookWithDefaults(a.webhook as Decoded) };
  });
  return { authorizers };
}
