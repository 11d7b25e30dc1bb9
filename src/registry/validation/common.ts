// Small validators that many kinds share (immutability, numbers, ports). Messages
// are apimachinery's so a field error reads the same as on a real cluster.
import { type FieldError, type FieldPath, invalidValue } from '../../schema/field-errors.js';

export const FIELD_IMMUTABLE = 'field is immutable';

/** Structural equality of JSON values; an absent field equals an empty map or list (omitempty). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!deepEqual(ao[k], bo[k])) return false;
  return true;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

export function validateImmutableField(next: unknown, prev: unknown, p: FieldPath): FieldError[] {
  return deepEqual(next, prev) ? [] : [invalidValue(p, next, FIELD_IMMUTABLE)];
}

export function validateNonnegative(value: unknown, p: FieldPath): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalidValue(p, value, 'must be greater than or equal to 0')] : [];
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

export function validatePortNumber(value: unknown, p: FieldPath): FieldError[] {
  const ok = typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
  return ok ? [] : [invalidValue(p, value ?? 0, inclusiveRangeError(1, 65535))];
}

const PORT_NAME_CHARS = /^[-a-z0-9]+$/;
const HAS_LETTER = /[a-z]/;

/** IANA_SVC_NAME rules for named ports (apimachinery IsValidPortName). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(`must be no more than 15 characters`);
  if (!PORT_NAME_CHARS.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!HAS_LETTER.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** isValidPortName found nothing: asked first, so a valid name (nearly every one) makes no list. */
export function matchesPortName(port: string): boolean {
  if (port.length > 15 || !PORT_NAME_CHARS.test(port) || !HAS_LETTER.test(port) || port.includes('--')) return false;
  return !(port.length > 0 && (port.startsWith('-') || port.endsWith('-')));
}
