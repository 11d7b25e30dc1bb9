// The shape every API object shares. Objects travel through the server as plain
// JSON-shaped values (what the JSON codec yields); typed views are narrowed where a
// strategy needs them. Field names are Kubernetes' own (ObjectMeta, TypeMeta).

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  selfLink?: string;
  [field: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  selfLink?: string;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** "v1" for the core group, "apps/v1" otherwise. */
export function apiVersionOf(gv: { readonly group: string; readonly version: string }): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** Splits an apiVersion into group and version ("v1" -> core). */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/**
 * Deep copy of a JSON-shaped value (what the codecs decode, what storage returns).
 * About ten times faster than structuredClone for these, which matters per
 * request; values of other classes (rare here) still go through structuredClone.
 * The copy is never frozen, so it is safe to change. Keys are copied as own data
 * members (a client's `__proto__` key stays a key). It recurses once per level:
 * the codecs bound client input to MAX_DEPTH (codecs/depth.ts) before it gets here.
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    // A loop, not map(): one stack frame per level instead of two.
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i] as unknown);
    return out as T;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copied = cloneJson((value as Record<string, unknown>)[key]);
    // A "__proto__" member is data in JSON; plain assignment would set the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
    else out[key] = copied;
  }
  return out as T;
}

/** encoding/json's name for a JSON value in "cannot unmarshal <x> into ..." messages. */
export function goJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}
