// Label sets and metav1.LabelSelector as field errors (apimachinery's
// meta/v1/validation ValidateLabels and ValidateLabelSelector). The rules for keys
// and values are schema/label-selector.ts's, the same the selector parser uses;
// this file only says where an error points and how it reads.
import { type FieldError, type FieldPath, forbiddenField, invalidValue, required } from '../../errors/field-errors.js';
import { isQualifiedName, isValidLabelValue } from '../../schema/label-selector.js';
import { ownField } from '../../schema/field-path.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const validNames = new Set<string>();
/** Valid names remembered; past this the memo starts over (it only saves work). */
const VALID_NAME_MEMO_LIMIT = 1024;

/**
 * isQualifiedName, with the valid names remembered: every write of a workload
 * checks the same few label and annotation keys several times.
 */
export function qualifiedNameErrors(key: string): string[] {
  if (validNames.has(key)) return [];
  const errs = isQualifiedName(key);
  if (errs.length === 0) {
    if (validNames.size >= VALID_NAME_MEMO_LIMIT) validNames.clear();
    validNames.add(key);
  }
  return errs;
}

/** ValidateLabelName: a label key is a qualified name. */
export function validateLabelName(key: string, p: FieldPath): FieldError[] {
  return qualifiedNameErrors(key).map((msg) => invalidValue(p, key, msg));
}

/** A label map (metadata.labels, a Service's or RC's selector, nodeSelector): errors point at the map, as kube's do. */
export function validateLabels(labels: unknown, p: FieldPath): FieldError[] {
  if (!isRecord(labels)) return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    errs.push(...validateLabelName(k, p));
    for (const msg of isValidLabelValue(String(v))) errs.push(invalidValue(p, v, msg));
  }
  return errs;
}

export interface LabelSelectorValidationOptions {
  /**
   * Skip the label syntax of matchExpressions values (kube's
   * AllowInvalidLabelValueInSelector, which updates of objects stored with such
   * values are granted so they stay writable).
   */
  readonly allowInvalidLabelValueInSelector?: boolean;
}

/** ValidateLabelSelectorRequirement: the operator decides whether values are required or forbidden. */
export function validateLabelSelectorRequirement(req: unknown, p: FieldPath, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  const operator = ownField(req, 'operator');
  const rawValues = ownField(req, 'values');
  const values = Array.isArray(rawValues) ? rawValues.map(String) : [];
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbiddenField(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(invalidValue(p.child('operator'), operator ?? '', 'not a valid selector operator'));
  }
  const key = ownField(req, 'key');
  errs.push(...validateLabelName(typeof key === 'string' ? key : '', p.child('key')));
  if (opts.allowInvalidLabelValueInSelector !== true) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(invalidValue(p.child('values').index(i), v, msg));
    });
  }
  return errs;
}

/** ValidateLabelSelector: an absent selector is valid (whether one is required is the kind's rule). */
export function validateLabelSelector(selector: unknown, p: FieldPath, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  if (!isRecord(selector)) return [];
  const errs = validateLabels(ownField(selector, 'matchLabels'), p.child('matchLabels'));
  const expressions = ownField(selector, 'matchExpressions');
  if (Array.isArray(expressions)) {
    expressions.forEach((e, i) => errs.push(...validateLabelSelectorRequirement(e, p.child('matchExpressions').index(i), opts)));
  }
  return errs;
}
