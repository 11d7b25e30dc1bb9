// kube-controller-manager's serviceaccount-token-controller (pkg/controller/
// serviceaccount/tokens_controller.go): a Secret of type
// kubernetes.io/service-account-token naming an account in its
// `kubernetes.io/service-account.name` annotation gets `data.token` (a legacy
// token signed for that account and Secret), `data.ca.crt` (the CA that verifies
// the API server) and `data.namespace`, and the account's uid in
// `kubernetes.io/service-account.uid`. A token Secret whose account is gone (or
// whose uid annotation names another account of that name) is deleted, and when
// an account is deleted so are its token Secrets. A token Secret that goes is
// dropped from its account's `secrets` list. server/controllers.ts runs `sync`
// for the keys its watches make with secretKey and serviceAccountKey.
// Reads come from the watch cache (lister.ts), as kube's controller reads its
// informers: the account cache may not have an account created a moment before
// its Secret, so a miss that would delete a token Secret is checked live first
// (kube's fetchOnCacheMiss).
import { SERVICE_ACCOUNT_NAME_ANNOTATION, SERVICE_ACCOUNT_TOKEN_TYPE, SERVICE_ACCOUNT_UID_ANNOTATION } from '../apis/core/v1/secrets.js';
import { isStatusError } from '../errors/status-error.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { Registry } from '../registry/registry.js';
import type { KubeObject } from '../schema/object.js';
import { cachedGet, cachedList } from './lister.js';

/** Signs a legacy token (the service-account signing key's issueLegacy). */
export type LegacyTokenSigner = (claims: { namespace: string; serviceAccountName: string; serviceAccountUid: string; secretName: string }) => Promise<string>;

/** What the controller needs from the API; each method is one call. */
export interface TokensControllerClient {
  /** From the watch cache (a lister read), as getSecret and listSecrets. */
  getServiceAccount(namespace: string, name: string): Promise<KubeObject | undefined>;
  /** A consistent read, for a miss that would otherwise delete. */
  getServiceAccountLive(namespace: string, name: string): Promise<KubeObject | undefined>;
  getSecret(namespace: string, name: string): Promise<KubeObject | undefined>;
  listSecrets(namespace: string): Promise<readonly KubeObject[]>;
  /** PUT with the resourceVersion read; a lost race or a Secret gone is no error (its event syncs again). */
  updateSecret(secret: KubeObject): Promise<void>;
  /** DELETE with the uid as precondition; gone already, or another Secret by now, is no error. */
  deleteSecret(namespace: string, name: string, uid: string): Promise<void>;
  /** PUT with the resourceVersion read; a lost race is retried by the caller's next sync. */
  updateServiceAccount(sa: KubeObject): Promise<void>;
}

export interface TokensController {
  sync(key: string): Promise<void>;
}

const ROOT_CA_KEY = 'ca.crt';
const NAMESPACE_KEY = 'namespace';
const TOKEN_KEY = 'token';
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

type Key =
  | { readonly kind: 'secret'; readonly namespace: string; readonly name: string; readonly uid: string; readonly saName: string; readonly saUid: string }
  | { readonly kind: 'serviceaccount'; readonly namespace: string; readonly name: string; readonly uid: string };

function annotation(obj: KubeObject, key: string): string {
  const annotations = obj.metadata.annotations;
  if (annotations === undefined || annotations === null || !Object.hasOwn(annotations, key)) return '';
  const value = annotations[key];
  return typeof value === 'string' ? value : '';
}

function dataOf(secret: KubeObject): Record<string, unknown> {
  const data = secret.data;
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
}

function dataText(secret: KubeObject, key: string): string {
  const data = dataOf(secret);
  const value = Object.hasOwn(data, key) ? data[key] : undefined;
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : '';
}

function isTokenSecret(obj: KubeObject): boolean {
  return obj.type === SERVICE_ACCOUNT_TOKEN_TYPE;
}

/** An annotation is client text: only a possible account name is looked up. */
function validAccountName(name: string): boolean {
  return name.length > 0 && name.length <= 253 && DNS1123_SUBDOMAIN.test(name);
}

/** The queue key of a token Secret's event (kube's secretQueueKey); undefined for other Secrets. */
export function secretKey(secret: KubeObject): string | undefined {
  if (!isTokenSecret(secret)) return undefined;
  const m = secret.metadata;
  return JSON.stringify(['secret', m.namespace ?? '', m.name ?? '', m.uid ?? '', annotation(secret, SERVICE_ACCOUNT_NAME_ANNOTATION), annotation(secret, SERVICE_ACCOUNT_UID_ANNOTATION)]);
}

/** The queue key of an account's event (kube's serviceAccountQueueKey: namespace, name, uid). */
export function serviceAccountKey(sa: KubeObject): string {
  const m = sa.metadata;
  return JSON.stringify(['serviceaccount', m.namespace ?? '', m.name ?? '', m.uid ?? '']);
}

function parseKey(key: string): Key | undefined {
  const parts: unknown = JSON.parse(key);
  if (!Array.isArray(parts) || !parts.every((p) => typeof p === 'string')) return undefined;
  const [kind, namespace = '', name = '', uid = '', saName = '', saUid = ''] = parts as string[];
  if (namespace === '' || name === '') return undefined;
  if (kind === 'secret') return { kind, namespace, name, uid, saName, saUid };
  if (kind === 'serviceaccount') return { kind, namespace, name, uid };
  return undefined;
}

export function createTokensController(opts: { client: TokensControllerClient; sign: LegacyTokenSigner; rootCaPem?: string }): TokensController {
  const { client } = opts;
  const rootCa = opts.rootCaPem ?? '';

  /** The account of that name (and uid, when given); `live`: a cache miss is read again live. */
  const account = async (namespace: string, name: string, uid: string, live = false): Promise<KubeObject | undefined> => {
    if (!validAccountName(name)) return undefined;
    const matches = (sa: KubeObject | undefined): sa is KubeObject => sa !== undefined && (uid === '' || sa.metadata.uid === uid);
    const cached = await client.getServiceAccount(namespace, name);
    if (matches(cached) || !live) return matches(cached) ? cached : undefined;
    const fresh = await client.getServiceAccountLive(namespace, name);
    return matches(fresh) ? fresh : undefined;
  };

  /** A token Secret that went: its account no longer lists it. */
  const removeReference = async (key: Extract<Key, { kind: 'secret' }>): Promise<void> => {
    const sa = await account(key.namespace, key.saName, key.saUid);
    const refs = (sa as { secrets?: unknown } | undefined)?.secrets;
    if (sa === undefined || !Array.isArray(refs)) return;
    const kept = refs.filter((r: unknown) => !(r !== null && typeof r === 'object' && (r as { name?: unknown }).name === key.name));
    if (kept.length === refs.length) return;
    await client.updateServiceAccount({ ...sa, secrets: kept } as KubeObject);
  };

  const syncSecret = async (key: Extract<Key, { kind: 'secret' }>): Promise<void> => {
    const secret = await client.getSecret(key.namespace, key.name);
    if (secret === undefined || (key.uid !== '' && secret.metadata.uid !== key.uid)) {
      await removeReference(key);
      return;
    }
    if (!isTokenSecret(secret)) return;
    const saName = annotation(secret, SERVICE_ACCOUNT_NAME_ANNOTATION);
    const sa = await account(key.namespace, saName, annotation(secret, SERVICE_ACCOUNT_UID_ANNOTATION), true);
    if (sa === undefined) {
      await client.deleteSecret(key.namespace, key.name, secret.metadata.uid ?? '');
      return;
    }
    const needsCa = rootCa !== '' && dataText(secret, ROOT_CA_KEY) !== rootCa;
    const needsNamespace = dataText(secret, NAMESPACE_KEY) === '';
    const needsToken = dataText(secret, TOKEN_KEY) === '';
    if (!needsCa && !needsNamespace && !needsToken) return;
    const data: Record<string, unknown> = { ...dataOf(secret) };
    const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
    if (needsCa) data[ROOT_CA_KEY] = b64(rootCa);
    if (needsNamespace) data[NAMESPACE_KEY] = b64(key.namespace);
    if (needsToken) {
      const token = await opts.sign({ namespace: key.namespace, serviceAccountName: saName, serviceAccountUid: sa.metadata.uid ?? '', secretName: key.name });
      data[TOKEN_KEY] = b64(token);
    }
    const annotations = { ...(secret.metadata.annotations ?? {}), [SERVICE_ACCOUNT_NAME_ANNOTATION]: saName, [SERVICE_ACCOUNT_UID_ANNOTATION]: sa.metadata.uid ?? '' };
    await client.updateSecret({ ...secret, metadata: { ...secret.metadata, annotations }, data } as KubeObject);
  };

  /** An account that went (or was recreated under its name): its token Secrets go. */
  const syncServiceAccount = async (key: Extract<Key, { kind: 'serviceaccount' }>): Promise<void> => {
    const sa = await client.getServiceAccount(key.namespace, key.name);
    if (sa !== undefined && sa.metadata.uid === key.uid) return;
    for (const secret of await client.listSecrets(key.namespace)) {
      if (!isTokenSecret(secret) || annotation(secret, SERVICE_ACCOUNT_NAME_ANNOTATION) !== key.name) continue;
      const uid = annotation(secret, SERVICE_ACCOUNT_UID_ANNOTATION);
      if (uid !== '' && uid !== key.uid) continue;
      await client.deleteSecret(key.namespace, secret.metadata.name ?? '', secret.metadata.uid ?? '');
    }
  };

  return {
    async sync(raw) {
      const key = parseKey(raw);
      if (key === undefined) return;
      if (key.kind === 'secret') await syncSecret(key);
      else await syncServiceAccount(key);
    },
  };
}

function isAny(err: unknown, ...reasons: string[]): boolean {
  return isStatusError(err) && reasons.includes(err.reason);
}

/** The controller's client over the registry (the same calls any API client makes). */
export function registryTokensClient(registry: Registry, kinds: { serviceAccounts: ResourceDefinition; secrets: ResourceDefinition }): TokensControllerClient {
  const sas = registry.store(kinds.serviceAccounts);
  const secrets = registry.store(kinds.secrets);
  const unlessNotFound = async (p: Promise<KubeObject>): Promise<KubeObject | undefined> => {
    try {
      return await p;
    } catch (err) {
      if (isAny(err, 'NotFound')) return undefined;
      throw err;
    }
  };
  return {
    getServiceAccount: (namespace, name) => cachedGet(sas, { namespace, name }),
    getServiceAccountLive: (namespace, name) => unlessNotFound(sas.get({ namespace, name })),
    getSecret: (namespace, name) => cachedGet(secrets, { namespace, name }),
    listSecrets: (namespace) => cachedList(secrets, { namespace }),
    updateSecret: async (secret) => {
      try {
        await secrets.update(secret, { namespace: secret.metadata.namespace ?? '', name: secret.metadata.name ?? '' });
      } catch (err) {
        // Conflict / NotFound: a newer Secret (or none) is an event that syncs again.
        // Invalid (an immutable Secret): no retry can fix it until the user changes it.
        if (!isAny(err, 'Conflict', 'NotFound', 'Invalid')) throw err;
      }
    },
    deleteSecret: async (namespace, name, uid) => {
      try {
        await secrets.delete({ namespace, name, ...(uid === '' ? {} : { preconditions: { uid } }) });
      } catch (err) {
        if (!isAny(err, 'Conflict', 'NotFound')) throw err;
      }
    },
    updateServiceAccount: async (sa) => {
      try {
        await sas.update(sa, { namespace: sa.metadata.namespace ?? '', name: sa.metadata.name ?? '' });
      } catch (err) {
        // Conflict (a stale read, or a concurrent writer) is thrown: the runner retries from a fresh read.
        if (!isAny(err, 'NotFound')) throw err;
      }
    },
  };
}
