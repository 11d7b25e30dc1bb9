// Label sets and metav1.LabelSelector as field errors (apimachinery's
// meta/v1/validation ValidateLabels and ValidateLabelSelector). The rules for keys
// and values are schema/label-selector.ts's, the same the selector parser uses;
// this file only says where an error points and how it reads.
import { type FieldError, type FieldPath, forbiddenField, invalidValue, required } from '../../schema/field-errors.js';
import { isQualifiedName, isValidLabelValue, matchesLabelValue, matchesQualifiedName } from '../../schema/label-selector.js';
import { ownField } from '../../schema/field-path.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * isQualifiedName's messages, none for a valid name. Every write of a workload
 * checks the same few label and annotation keys several times, so a valid one
 * is answered by one pattern test (the shared empty answer is frozen: callers
 * only read it).
 */
export function qualifiedNameErrors(key: string): readonly string[] {
  return matchesQualifiedName(key) ? NO_MESSAGES : isQualifiedName(key);
}

const NO_MESSAGES: readonly string[] = Object.freeze([]);

/** ValidateLabelName: a label key is a qualified name. */
function addLabelNameErrors(errs: FieldError[], key: string, p: FieldPath): void {
  for (const msg of qualifiedNameErrors(key)) errs.push(invalidValue(p, key, msg));
}

/** A label map (metadata.labels, a Service's or RC's selector, nodeSelector): errors point at the map, as kube's do. */
export function validateLabels(labels: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  addLabelErrors(errs, labels, p);
  return errs;
}

/** validateLabels into a list the caller holds: the write path checks several label maps per object. */
export function addLabelErrors(errs: FieldError[], labels: unknown, p: FieldPath): void {
  if (!isRecord(labels)) return;
  // A for-in over own keys: Object.entries' order, without its arrays.
  for (const k in labels) {
    if (!Object.hasOwn(labels, k)) continue;
    const v = labels[k];
    addLabelNameErrors(errs, k, p);
    const value = String(v);
    if (!matchesLabelValue(value)) for (const msg of isValidLabelValue(value)) errs.push(invalidValue(p, v, msg));
  }
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
function addRequirementErrors(errs: FieldError[], req: unknown, p: FieldPath, opts: LabelSelectorValidationOptions): void {
  const operator = ownField(req, 'operator');
  const rawValues = ownField(req, 'values');
  const values: readonly unknown[] = Array.isArray(rawValues) ? rawValues : NO_VALUES;
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
  const k = typeof key === 'string' ? key : '';
  addLabelNameErrors(errs, k, p.child('key'));
  if (opts.allowInvalidLabelValueInSelector !== true) {
    for (let i = 0; i < values.length; i++) {
      const v = String(values[i]);
      if (!matchesLabelValue(v)) for (const msg of isValidLabelValue(v)) errs.push(invalidValue(p.child('values').index(i), v, msg));
    }
  }
}

const NO_VALUES: readonly unknown[] = Object.freeze([]);

/** ValidateLabelSelector: an absent selector is valid (whether one is required is the kind's rule). */
export function validateLabelSelector(selector: unknown, p: FieldPath, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  addLabelSelectorErrors(errs, selector, p, opts);
  return errs;
}

/** validateLabelSelector into a list the caller holds. */
export function addLabelSelectorErrors(errs: FieldError[], selector: unknown, p: FieldPath, opts: LabelSelectorValidationOptions = NO_OPTIONS): void {
  if (!isRecord(selector)) return;
  const labels = ownField(selector, 'matchLabels');
  if (labels !== undefined) addLabelErrors(errs, labels, p.child('matchLabels'));
  const expressions = ownField(selector, 'matchExpressions');
  if (Array.isArray(expressions)) {
    for (let i = 0; i < expressions.length; i++) addRequirementErrors(errs, expressions[i], p.child('matchExpressions').index(i), opts);
  }
}

const NO_OPTIONS: LabelSelectorValidationOptions = Object.freeze({});
