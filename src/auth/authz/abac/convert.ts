// The versions of abac.authorization.kubernetes.io's Policy a policy file may
// hold, and how each becomes the one shape the authorizer matches (kube's internal
// abac.Policy): the field names each spells in JSON, where its spec sits, and its
// conversion (pkg/apis/abac/v0/conversion.go, pkg/apis/abac/v1beta1/conversion.go).
// v0's conversion is what makes an unversioned line broad: empty fields mean "all".

export const ABAC_GROUP = 'abac.authorization.kubernetes.io';

/** user.AllAuthenticated: what `*` and v0's empty subject become, so system:anonymous never matches them. */
export const ALL_AUTHENTICATED = 'system:authenticated';

/**
 * kube's internal abac.PolicySpec, after conversion. '' is an ordinary value that
 * matches only '' (see abac.ts); `*` matches anything for every field but user and
 * group, whose `*` conversion has already replaced.
 */
export interface AbacPolicy {
  readonly user: string;
  readonly group: string;
  /** Allows only get, list and watch. */
  readonly readonly: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly namespace: string;
  readonly nonResourcePath: string;
}

/** What a line decoded into, before its version's conversion. */
export type PolicySpec = AbacPolicy;

export type SpecField = keyof AbacPolicy;

/** `__internal` is registered in kube's abac scheme too, so a line may name it (with Go's field names). */
export type PolicyVersion = 'v0' | 'v1beta1' | '__internal';

export interface VersionShape {
  /** The Go type, as conversion errors print it. */
  readonly goType: string;
  /** JSON key -> spec field; matched case-sensitively, as kube's decoder does. */
  readonly fields: ReadonlyMap<string, SpecField>;
  /** v0 has its fields at the top; the others under one key. */
  readonly specKey?: { readonly key: string; readonly goType: string };
  readonly convert: (spec: PolicySpec) => AbacPolicy;
}

const JSON_NAMES: readonly SpecField[] = ['user', 'group', 'readonly', 'apiGroup', 'resource', 'namespace', 'nonResourcePath'];
const GO_NAMES: Readonly<Record<SpecField, string>> = {
  user: 'User',
  group: 'Group',
  readonly: 'Readonly',
  apiGroup: 'APIGroup',
  resource: 'Resource',
  namespace: 'Namespace',
  nonResourcePath: 'NonResourcePath',
};

/** Convert_v0_Policy_To_abac_Policy. v0 has no apiGroup or nonResourcePath field: a line's are dropped. */
function convertV0(spec: PolicySpec): AbacPolicy {
  let { user, group } = spec;
  // Unspecified user and group match all authenticated subjects.
  if (user === '' && group === '') group = ALL_AUTHENTICATED;
  // So does `*` in either, and then the other is forgotten: {"user":"bob","group":"*"} is everyone.
  if (spec.user === '*' || spec.group === '*') {
    group = ALL_AUTHENTICATED;
    user = '';
  }
  return Object.freeze({
    user,
    group,
    readonly: spec.readonly,
    // Any v0 rule matches every API group; empty namespace and resource mean all of them.
    apiGroup: '*',
    resource: spec.resource === '' ? '*' : spec.resource,
    namespace: spec.namespace === '' ? '*' : spec.namespace,
    // Leaving both empty also allows every non-resource path.
    nonResourcePath: spec.namespace === '' && spec.resource === '' ? '*' : '',
  });
}

/** Convert_v1beta1_Policy_To_abac_Policy: fields copied; `*` user or group becomes all authenticated. An empty subject matches nobody. */
function convertV1beta1(spec: PolicySpec): AbacPolicy {
  const wildcard = spec.user === '*' || spec.group === '*';
  return Object.freeze({ ...spec, user: wildcard ? '' : spec.user, group: wildcard ? ALL_AUTHENTICATED : spec.group });
}

export const VERSIONS: Readonly<Record<PolicyVersion, VersionShape>> = {
  v0: {
    goType: 'v0.Policy',
    fields: new Map((['user', 'group', 'readonly', 'resource', 'namespace'] as const).map((f) => [f, f])),
    convert: convertV0,
  },
  v1beta1: {
    goType: 'v1beta1.Policy',
    fields: new Map(JSON_NAMES.map((f) => [f, f])),
    specKey: { key: 'spec', goType: 'v1beta1.PolicySpec' },
    convert: convertV1beta1,
  },
  // The internal type has no JSON tags and no conversion: a `*` user stays `*` and,
  // unlike the versioned forms, matches every user, system:anonymous included.
  __internal: {
    goType: 'abac.Policy',
    fields: new Map(JSON_NAMES.map((f) => [GO_NAMES[f], f])),
    specKey: { key: 'Spec', goType: 'abac.PolicySpec' },
    convert: (spec) => Object.freeze({ ...spec }),
  },
};
