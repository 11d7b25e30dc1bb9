// Small pieces the core/v1 strategies share: status carry-over, generation
// bumps and the keyed-data rules of ConfigMaps and Secrets. Strategies stay
// declarative by composing these instead of repeating them per kind.
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, invalidValue } from '../../../schema/field-errors.js';
import { deepEqual } from '../../../registry/validation/common.js';
import { isConfigMapKey, matchesConfigMapKey } from '../../../registry/validation/names.js';
import { ownField, setOwnField } from '../../../schema/field-path.js';

export type Json = Record<string, unknown>;

/** The object's field as a mutable record, created when absent. */
export function ensureObject(parent: Json, field: string): Json {
  const v = ownField(parent, field);
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Json;
  const created: Json = {};
  setOwnField(parent, field, created);
  return created;
}

// One-step reads of own members (schema/field-path.ts): a field named like an
// Object.prototype member is absent, not inherited.
export function objectAt(parent: unknown, field: string): Json | undefined {
  const v = ownField(parent, field);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

export function arrayAt(parent: unknown, field: string): Json[] {
  const v = ownField(parent, field);
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === 'object') as Json[]) : [];
}

/**
 * arrayAt without the copy, for reading: every write of a pod or workload asks
 * this dozens of times and the items are nearly always all objects, so such a
 * list is answered as it is and only a mixed one is filtered.
 */
export function itemsAt(parent: unknown, field: string): readonly Json[] {
  const v = ownField(parent, field);
  if (!Array.isArray(v)) return NO_ITEMS;
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    if (x === null || typeof x !== 'object') return v.filter((y) => y !== null && typeof y === 'object') as Json[];
  }
  return v as Json[];
}

const NO_ITEMS: readonly Json[] = Object.freeze([]);

export function stringAt(parent: unknown, field: string): string {
  const v = ownField(parent, field);
  return typeof v === 'string' ? v : '';
}

/** Sets a default only where the client left the field out (kube's SetDefaults_*). */
export function setDefault(obj: Json, field: string, value: unknown): void {
  const v = ownField(obj, field);
  if (v === undefined || v === null || v === '') setOwnField(obj, field, value);
}

/** Kinds with a spec the controllers observe: generation 1 on create, +1 when spec changes. */
export function bumpGenerationIfChanged(next: KubeObject, prev: KubeObject, field = 'spec'): void {
  const generation = prev.metadata.generation ?? 1;
  next.metadata.generation = deepEqual(next[field], prev[field]) ? generation : generation + 1;
}

/** Bytes in a data map: base64 values (binary fields) count decoded, strings count as UTF-8. */
export function dataSize(data: unknown, base64: boolean): number {
  if (data === null || typeof data !== 'object') return 0;
  let total = 0;
  // A for-in over own keys: Object.values' members, without its array.
  for (const k in data) {
    if (!Object.hasOwn(data, k)) continue;
    const v = (data as Json)[k];
    const s = typeof v === 'string' ? v : '';
    total += base64 ? Buffer.from(s, 'base64').length : Buffer.byteLength(s);
  }
  return total;
}

/** Keys of data maps become file names in volumes; `other` names the sibling map that must not share keys. */
export function validateDataKeys(data: unknown, p: FieldPath, other?: { data: unknown; name: string }): FieldError[] {
  const errs: FieldError[] = [];
  if (data === null || typeof data !== 'object') return errs;
  const otherData = other?.data;
  const otherKeys = otherData !== null && typeof otherData === 'object' ? (otherData as Json) : undefined;
  for (const key in data) {
    if (!Object.hasOwn(data, key)) continue;
    if (!matchesConfigMapKey(key)) for (const msg of isConfigMapKey(key)) errs.push(invalidValue(p.key(key), key, msg));
    if (other !== undefined && otherKeys !== undefined && Object.hasOwn(otherKeys, key)) {
      errs.push(invalidValue(p.key(key), key, `duplicate of key present in ${other.name}`));
    }
  }
  return errs;
}

/** ConfigMaps and Secrets sum their payload against one limit (kube's MaxSecretSize). */
export const MAX_SECRET_SIZE = 1024 * 1024;

/**
 * The members of `next` and `prev` that differ, one line each (`  <prefix><member>:
 * changed`): what kapi says where kube prints a Go diff, which nobody parses.
 */
export function describeChanges(next: Json, prev: Json, prefix: string): string {
  const keys = [...new Set([...Object.keys(next), ...Object.keys(prev)])].filter((k) => !deepEqual(next[k], prev[k])).sort();
  return keys.map((k) => `  ${prefix}${k}: changed`).join('\n');
}
