// The texts kube-apiserver writes when it refuses a CRD's x-kubernetes-validations
// or a custom resource that breaks one: cel-go's issue display (`ERROR:
// <input>:1:9: … ` with the source line and a caret), the cost budget message,
// and a rule printed as field.Invalid prints apiextensions' internal
// ValidationRule (apimachinery's ErrorBody: encoding/json of a struct without
// json tags).
import { goJsonString } from '../../schema/go-json.js';
import { goLiteral, type FieldError, type FieldPath, type GoLiteral } from '../../schema/field-errors.js';
import type { ValidationRule } from '../../schema/structural/index.js';
import type { CelCompileError } from '../compile-error.js';

// cel-go common/error.go: a snippet longer than this is not shown.
const MAX_SNIPPET_LENGTH = 16384;

/**
 * cel-go's Errors.ToDisplayString for one error: `ERROR: <input>:line:col: msg`,
 * then the source line and a caret under the column (wide dots and caret for
 * non-ASCII characters, counted in code points). The message itself is the base
 * library's, not cel-go's (docs/cel.md): only the frame is kube's.
 */
export function celIssues(err: CelCompileError): string {
  const pos = err.position;
  // cel-go's NoLocation (line -1, column -1) prints as -1:0 with no snippet.
  if (pos === undefined) return `ERROR: <input>:-1:0: ${err.summary}`;
  const source = err.expression;
  const lineStart = source.lastIndexOf('\n', pos.offset - 1) + 1;
  const lineEnd = source.indexOf('\n', pos.offset);
  const line = source.slice(lineStart, lineEnd === -1 ? source.length : lineEnd);
  const before = Array.from(source.slice(lineStart, pos.offset));
  let out = `ERROR: <input>:${pos.line}:${before.length + 1}: ${err.summary}`;
  if (Buffer.byteLength(line) > MAX_SNIPPET_LENGTH) return out;
  const at = Array.from(source.slice(pos.offset, pos.offset + 2))[0];
  const wide = (ch: string | undefined): boolean => ch !== undefined && ch.codePointAt(0)! > 0x7f;
  out += `\n | ${line.replaceAll('\t', ' ')}`;
  out += `\n | ${before.map((ch) => (wide(ch) ? '\uff0e' : '.')).join('')}${wide(at) ? '\uff3e' : '^'}`;
  return out;
}

/**
 * getCostErrorMessage (apiextensions validation.go): how far over budget, as Go
 * prints it: `%f` below 1.5x (never "1.0x"), `%.1f` up to 100x, then a flat
 * "more than 100x" (a rule that far over is quadratic or worse).
 */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const exceed = cost / limit;
  const factor = exceed > 100 ? 'more than 100x' : exceed < 1.5 ? `${exceed.toFixed(6)}x` : `${exceed.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/**
 * A rule as field.Invalid prints it:
 * `{"Rule":"…","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}`.
 * The compiled schema keeps an unset optionalOldSelf and an explicit false alike, so false prints as null.
 */
export function ruleValue(rule: ValidationRule): GoLiteral {
  const fields = [
    `"Rule":${goJsonString(rule.rule)}`,
    `"Message":${goJsonString(rule.message ?? '')}`,
    `"MessageExpression":${goJsonString(rule.messageExpression ?? '')}`,
    `"Reason":${rule.reason === undefined ? 'null' : goJsonString(rule.reason)}`,
    `"FieldPath":${goJsonString(rule.fieldPath ?? '')}`,
    `"OptionalOldSelf":${rule.optionalOldSelf ? 'true' : 'null'}`,
  ];
  return goLiteral(`{${fields.join(',')}}`);
}


/** field.InternalError: no value shown, only the error. */
export function internalError(p: FieldPath, detail: string): FieldError {
  return { type: 'InternalError', field: p.toString(), message: `${p}: Internal error: ${detail}` };
}

/**
 * field.Invalid with the value left out (field.OmitValueType): kube does so for a
 * failed rule on an object or a list, whose value would be the whole subtree.
 */
export function invalidOmitted(p: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: p.toString(), message: `${p}: Invalid value${detail === '' ? '' : `: ${detail}`}` };
}

/** field.Duplicate with the value left out (see invalidOmitted). */
export function duplicateOmitted(p: FieldPath): FieldError {
  return { type: 'FieldValueDuplicate', field: p.toString(), message: `${p}: Duplicate value` };
}
