// What every NodeRestriction check shares: the options the server wires in (the
// lookups kube's plugin gets from informers, the authorizer, feature gates), the
// requesting node, and kube's two error shapes: admission.NewForbidden (named by
// the request's name, else the object's name or generateName, else "Unknown")
// and a lister's NotFound, which names the resource in the singular ("pod").
import { goQuote } from '../../../schema/go-quote.js';
import { forbidden, isStatusError, notFound, type StatusError } from '../../../errors/status-error.js';
import type { KubeObject } from '../../../schema/object.js';
import type { UserInfo } from '../../../schema/user.js';
import type { AdmissionAttributes } from '../../plugin.js';

/**
 * Reads of current state, as kube's plugin has them from informers: the watch
 * cache's "Any" reads fit. Undefined when absent; a throw refuses the request
 * with the error's text.
 */
export interface NodeRestrictionLookup {
  getPod(namespace: string, name: string): Promise<KubeObject | undefined>;
  getNode(name: string): Promise<KubeObject | undefined>;
  getPersistentVolumeClaim(namespace: string, name: string): Promise<KubeObject | undefined>;
  getPersistentVolume(name: string): Promise<KubeObject | undefined>;
  getCSIDriver(name: string): Promise<KubeObject | undefined>;
}

/** The question kube's plugin asks its authorizer (verb request-serviceaccounts-token-audience). */
export interface AudienceRequest {
  readonly user: UserInfo;
  readonly namespace: string;
  /** The service account the token is for; the authorizer's resource name. */
  readonly serviceAccount: string;
  /** The audience asked for; the authorizer's resource ("" for the API server's). */
  readonly audience: string;
}

export interface NodeRestrictionOptions {
  readonly lookup: NodeRestrictionLookup;
  /** The server's authorizer on an AudienceRequest: allowed only on Allow; `error` is an evaluation error's text. */
  readonly authorizeAudience: (req: AudienceRequest) => Promise<{ readonly allowed: boolean; readonly error?: string }>;
  /** kube's certificates ParseCSR: the subject CommonName of a PEM request; throws with the parse error's text. */
  readonly csrCommonName: (pem: Buffer) => string;
  /** Feature gates the plugin reads, with their 1.36 defaults. */
  readonly features?: {
    /** Beta, on since 1.33: nodes get tokens only for audiences their pods use. */
    readonly serviceAccountNodeAudienceRestriction?: boolean;
    /** GA in 1.34: nodes may also write the allocated-resources fields of PVC status. */
    readonly recoverVolumeExpansionFailure?: boolean;
    /** Off by default: lets nodes ask for kubelet certificates under any name. */
    readonly allowInsecureKubeletCertificateSigningRequests?: boolean;
  };
}

export interface NodeRequest {
  readonly attrs: AdmissionAttributes;
  readonly nodeName: string;
  readonly options: NodeRestrictionOptions;
}

/** %q, for the node names and values kube formats with it. */
export const q = goQuote;

function requestName(attrs: AdmissionAttributes): string {
  if (attrs.name !== '') return attrs.name;
  const meta = attrs.object?.metadata;
  if (typeof meta?.name === 'string' && meta.name !== '') return meta.name;
  if (typeof meta?.generateName === 'string' && meta.generateName !== '') return meta.generateName;
  return 'Unknown';
}

/** kube's admission.NewForbidden(a, err). */
export function forbid(attrs: AdmissionAttributes, why: string): StatusError {
  return forbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, requestName(attrs), why);
}

/** A read for a check: a lister's NotFound when absent, Forbidden with the error when it fails. */
export async function mustGet(
  req: NodeRequest,
  what: { readonly resource: 'pod' | 'node'; readonly name: string; readonly wrap?: (err: string) => string },
  read: () => Promise<KubeObject | undefined>,
): Promise<KubeObject> {
  let found: KubeObject | undefined;
  try {
    found = await read();
  } catch (err) {
    // kube's NewForbidden does not wrap a Forbidden twice.
    if (isStatusError(err) && err.reason === 'Forbidden') throw err;
    const text = err instanceof Error ? err.message : String(err);
    throw forbid(req.attrs, what.wrap === undefined ? text : what.wrap(text));
  }
  if (found === undefined) throw notFound({ group: '', resource: what.resource }, what.name);
  return found;
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/**
 * apimachinery's Semantic.DeepEqual on JSON values: absent, null, [] and {} are
 * all Go's nil (an empty slice or map equals a nil one); everything else
 * compares by value, object members in any order.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => semanticEqual(v, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    return [...keys].every((k) => semanticEqual(Object.hasOwn(ra, k) ? ra[k] : undefined, Object.hasOwn(rb, k) ? rb[k] : undefined));
  }
  return a === b;
}
