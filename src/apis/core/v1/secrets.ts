// Secrets: base64 data, a type that decides which keys must be present, and the
// write-only stringData convenience that kube folds into data when decoding.
import { defineResource } from '../../../registry/define-resource.js';
import { secretTable } from './secrets-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, path, required, tooLong } from '../../../schema/field-errors.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import { validateImmutablePayload } from './config-maps.js';
import { MAX_SECRET_SIZE, dataSize, validateDataKeys, type Json } from './helpers.js';

export type SecretType =
  | 'Opaque'
  | 'kubernetes.io/service-account-token'
  | 'kubernetes.io/dockercfg'
  | 'kubernetes.io/dockerconfigjson'
  | 'kubernetes.io/basic-auth'
  | 'kubernetes.io/ssh-auth'
  | 'kubernetes.io/tls'
  | 'bootstrap.kubernetes.io/token';

export const SERVICE_ACCOUNT_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
/** Set by the serviceaccount-token-controller: the uid of the account a token Secret belongs to. */
export const SERVICE_ACCOUNT_UID_ANNOTATION = 'kubernetes.io/service-account.uid';
export const SERVICE_ACCOUNT_TOKEN_TYPE: SecretType = 'kubernetes.io/service-account-token';

/** Keys each well-known type requires; `any` means one of them is enough (basic-auth). */
const REQUIRED_KEYS: Partial<Record<SecretType, { keys: readonly string[]; any?: boolean; json?: boolean }>> = {
  'kubernetes.io/dockercfg': { keys: ['.dockercfg'], json: true },
  'kubernetes.io/dockerconfigjson': { keys: ['.dockerconfigjson'], json: true },
  'kubernetes.io/basic-auth': { keys: ['username', 'password'], any: true },
  'kubernetes.io/ssh-auth': { keys: ['ssh-privatekey'] },
  'kubernetes.io/tls': { keys: ['tls.crt', 'tls.key'] },
};

/** Kube's v1 conversion: stringData entries overwrite data entries and never get stored. */
function normalize(secret: KubeObject): void {
  if (secret.type === undefined || secret.type === '') secret.type = 'Opaque';
  const stringData = secret.stringData as Json | undefined;
  if (stringData !== undefined && stringData !== null) {
    const data = { ...((secret.data as Json | undefined) ?? {}) };
    for (const [k, v] of Object.entries(stringData)) {
      // defineProperty: a key named __proto__ is data, not the object's prototype.
      Object.defineProperty(data, k, { value: Buffer.from(String(v), 'utf8').toString('base64'), enumerable: true, writable: true, configurable: true });
    }
    secret.data = data;
  }
  delete secret.stringData;
}

function validateTypeKeys(secret: KubeObject): FieldError[] {
  const data = (secret.data as Json | undefined) ?? {};
  const dataPath = path('data');
  const type = String(secret.type ?? '');
  if (type === 'kubernetes.io/service-account-token') {
    const name = secret.metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION] ?? '';
    return name === '' ? [required(path('metadata', 'annotations').key(SERVICE_ACCOUNT_NAME_ANNOTATION))] : [];
  }
  // The type is client data: a table lookup by own keys only (`constructor` is no rule).
  const rule = Object.hasOwn(REQUIRED_KEYS, type) ? REQUIRED_KEYS[type as SecretType] : undefined;
  if (rule === undefined) return [];
  const present = rule.keys.filter((k) => Object.hasOwn(data, k));
  if (rule.any === true) return present.length > 0 ? [] : rule.keys.map((k) => required(dataPath.key(k)));
  const missing = rule.keys.filter((k) => !Object.hasOwn(data, k) || (k === 'ssh-privatekey' && data[k] === ''));
  if (missing.length > 0) return missing.map((k) => required(dataPath.key(k)));
  if (rule.json === true) {
    const key = rule.keys[0]!;
    try {
      JSON.parse(Buffer.from(String(data[key]), 'base64').toString('utf8'));
    } catch (err) {
      return [invalidValue(dataPath.key(key), '<secret contents redacted>', (err as Error).message)];
    }
  }
  return [];
}

export function validateSecret(secret: KubeObject): FieldError[] {
  const errs = validateDataKeys(secret.data, path('data'));
  if (dataSize(secret.data, true) > MAX_SECRET_SIZE) errs.push(tooLong(path('data'), MAX_SECRET_SIZE));
  return [...errs, ...validateTypeKeys(secret)];
}

export const secrets = defineResource({
  group: '',
  version: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  scope: 'Namespaced',
  table: secretTable,
  strategy: {
    defaults: normalize,
    validate: validateSecret,
    validateUpdate: (next, prev) => [
      ...validateImmutableField(next.type, prev.type, path('type')),
      ...validateImmutablePayload(next, prev, ['data']),
      ...validateSecret(next),
    ],
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    selectableFields: (s) => ({ type: typeof s.type === 'string' ? s.type : '' }),
  },
});
