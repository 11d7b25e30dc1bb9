// System metadata the store owns: type fields, namespace agreement with the URL,
// uid/creationTimestamp on create, what an update carries over from the stored
// object, resetFields, and generateName. Kept apart from the verbs so create and
// create-on-update (PUT of a missing object) prepare objects identically.
import { randomInt } from 'node:crypto';
import { badRequest } from '../../errors/status-error.js';
import { apiVersionOf, cloneJson, type KubeObject } from '../../schema/object.js';
import type { ResourceDefinition } from '../define-resource.js';

/** RFC 3339 with second precision, as metav1.Time marshals. */
export function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** Objects leave the store with the served kind and apiVersion, first, in Go's TypeMeta order. */
export function setTypeMeta(obj: KubeObject, def: ResourceDefinition): void {
  if (Object.keys(obj)[0] === 'kind' && obj.kind === def.kind && obj.apiVersion === apiVersionOf(def)) return;
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  for (const key of Object.keys(obj)) delete obj[key];
  obj.kind = def.kind;
  obj.apiVersion = apiVersionOf(def);
  // Not Object.assign: it assigns, and a client's `__proto__` key would set the prototype.
  for (const [key, value] of Object.entries(rest)) Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Makes metadata.namespace agree with the request: filled from the URL when empty,
 * cleared for cluster-scoped kinds, a mismatch is 400 (rest.EnsureObjectNamespaceMatchesRequestNamespace).
 */
export function ensureNamespace(obj: KubeObject, def: ResourceDefinition, requestNamespace: string | undefined): void {
  const want = def.scope === 'Namespaced' ? (requestNamespace ?? '') : '';
  const have = obj.metadata.namespace ?? '';
  if (have === want) return;
  if (have === '' && want !== '') {
    obj.metadata.namespace = want;
    return;
  }
  if (want === '') {
    delete obj.metadata.namespace;
    return;
  }
  throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/** Fields a client may not choose on create (rest.BeforeCreate, FillObjectMetaSystemFields). */
export function fillCreateMetadata(obj: KubeObject, opts: { now: Date; uid: string }): void {
  const meta = obj.metadata;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  delete meta.generation;
  meta.uid = opts.uid;
  meta.creationTimestamp = rfc3339(opts.now);
}

/** What an update can never change (rest.BeforeUpdate): carried over from the stored object. */
export function carryUpdateMetadata(next: KubeObject, prev: KubeObject): void {
  const meta = next.metadata;
  const old = prev.metadata;
  delete meta.selfLink;
  if (old.generation === undefined) delete meta.generation;
  else meta.generation = old.generation;
  if (meta.uid === undefined || meta.uid === '') meta.uid = old.uid;
  if (old.creationTimestamp !== undefined && old.creationTimestamp !== null) meta.creationTimestamp = old.creationTimestamp;
  if (old.deletionTimestamp !== undefined) meta.deletionTimestamp = old.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  }
  // Until apply/ computes field sets, managedFields are whatever was stored.
  // TODO(#3): record the fieldManager's Update entry once apply/ can compute fieldsV1.
  if (meta.managedFields === undefined && old.managedFields !== undefined) meta.managedFields = cloneJson(old.managedFields);
}

/** kube's SimpleNameGenerator alphabet: no vowels (no words), no look-alike characters. */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_NAME_LENGTH = 63;
const RANDOM_LENGTH = 5;

export function generateName(base: string, random: (max: number) => number = randomInt): string {
  const prefix = base.length > MAX_NAME_LENGTH - RANDOM_LENGTH ? base.slice(0, MAX_NAME_LENGTH - RANDOM_LENGTH) : base;
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += NAME_ALPHABET[random(NAME_ALPHABET.length)];
  return prefix + suffix;
}

/** Copies a frozen stored object into one the store may change. */
export function thaw(obj: KubeObject): KubeObject {
  return cloneJson(obj);
}
