// Get and list. resourceVersion semantics are storage's (storage.ts); here we check
// the parameters the way ValidateListOptions does (422 ListOptions/GetOptions, 400
// for a continue token combined with a resourceVersion) and translate errors. get
// answers the stored object (the store converts it; delete and subresources read
// it as stored); a list answers the served version (version-codec.ts), its items
// without apiVersion/kind, as kube encodes typed lists.
import { badRequest, invalid } from '../../errors/status-error.js';
import { forbiddenField, invalidValue, notSupported, path, type FieldError } from '../../schema/field-errors.js';
import { apiVersionOf, type KubeList, type KubeObject } from '../../schema/object.js';
import type { ResourceVersionMatch } from '../../storage/storage.js';
import { translateStorageError } from '../errors.js';
import { collectionPrefix, objectKey } from '../keys.js';
import type { StoreContext } from './context.js';
import type { GetOptions, ListOptions } from './types.js';

const MATCHES: readonly string[] = ['Exact', 'NotOlderThan'];

function checkResourceVersion(rv: string | undefined): void {
  if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv)) throw badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
}

/** ValidateListOptions' resourceVersion rules; the kind names the options type. */
export function validateReadOptions(
  opts: { resourceVersion?: string; resourceVersionMatch?: string; continue?: string },
  kind: 'ListOptions' | 'GetOptions' | 'DeleteOptions',
): void {
  const errs: FieldError[] = [];
  const rv = opts.resourceVersion ?? '';
  const match = opts.resourceVersionMatch ?? '';
  const p = path('resourceVersionMatch');
  if (match !== '') {
    if (!MATCHES.includes(match)) errs.push(notSupported(p, match, [...MATCHES, '']));
    else if (rv === '') errs.push(forbiddenField(p, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    else if ((opts.continue ?? '') !== '') errs.push(forbiddenField(p, 'resourceVersionMatch is forbidden when continue is provided'));
    else if (match === 'Exact' && rv === '0') errs.push(forbiddenField(p, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (errs.length > 0) throw invalid({ group: 'meta.k8s.io', kind }, '', errs);
  if ((opts.continue ?? '') !== '' && rv !== '' && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
  checkResourceVersion(rv);
}

export async function get(ctx: StoreContext, opts: GetOptions): Promise<KubeObject> {
  validateReadOptions(opts, 'GetOptions');
  const key = objectKey(ctx.definition, { namespace: opts.namespace, name: opts.name });
  try {
    return await ctx.storage.get(key, {
      ...(opts.resourceVersion === undefined ? {} : { resourceVersion: opts.resourceVersion }),
      ...(opts.resourceVersionMatch === undefined ? {} : { resourceVersionMatch: opts.resourceVersionMatch as ResourceVersionMatch }),
    });
  } catch (err) {
    throw translateStorageError(err, { operation: 'get', resource: ctx.resource, name: opts.name, resourceVersion: opts.resourceVersion });
  }
}

function withoutTypeMeta(obj: KubeObject): KubeObject {
  if (obj.apiVersion === undefined && obj.kind === undefined) return obj;
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return rest as KubeObject;
}

export async function list(ctx: StoreContext, opts: ListOptions = {}): Promise<KubeList> {
  validateReadOptions(opts, 'ListOptions');
  if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 0)) {
    throw invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [invalidValue(path('limit'), opts.limit, 'must be greater than or equal to 0')]);
  }
  const def = ctx.definition;
  const served = ctx.codec.served;
  try {
    const result = await ctx.storage.list(collectionPrefix(def, { namespace: opts.namespace }), {
      ...(opts.resourceVersion === undefined ? {} : { resourceVersion: opts.resourceVersion }),
      ...(opts.resourceVersionMatch === undefined ? {} : { resourceVersionMatch: opts.resourceVersionMatch }),
      ...(opts.limit === undefined || opts.limit === 0 ? {} : { limit: opts.limit }),
      ...(opts.continue === undefined || opts.continue === '' ? {} : { continue: opts.continue }),
      ...(opts.predicate === undefined ? {} : { predicate: opts.predicate }),
    });
    const metadata: KubeList['metadata'] = { resourceVersion: result.resourceVersion };
    if (result.continue !== undefined && result.continue !== '') metadata.continue = result.continue;
    if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
    // Converted before their type fields go: the stored items are the frozen objects the codec remembers.
    const items = ctx.codec.converts ? await Promise.all(result.items.map((item) => ctx.codec.fromStorage(item))) : result.items;
    return { kind: served.listKind, apiVersion: apiVersionOf(served), metadata, items: items.map(withoutTypeMeta) };
  } catch (err) {
    throw translateStorageError(err, { operation: 'list', resource: ctx.resource, name: '', resourceVersion: opts.resourceVersion });
  }
}
