// Query parameters of writes (CreateOptions, UpdateOptions, DeleteOptions) and reads,
// validated as apimachinery's ValidateCreateOptions & co do: a bad value is 422
// Invalid with kind <Verb>Options in meta.k8s.io; a value that does not parse
// (limit=abc) is 400, as kube's parameter codec answers.
import { parseGoInt64 } from '../../schema/go-strconv.js';
import { badRequest, invalid } from '../../errors/status-error.js';
import { invalidValue, notSupported, path, tooLong, type FieldError } from '../../schema/field-errors.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

export interface WriteOptions {
  readonly dryRun: boolean;
  readonly fieldManager: string | undefined;
  readonly fieldValidation: FieldValidation;
}

const FIELD_VALIDATIONS: readonly string[] = ['Ignore', 'Warn', 'Strict'];
const FIELD_MANAGER_MAX_LENGTH = 128;

/** dryRun may only be ["All"] (repeated is fine); anything else is NotSupported. */
export function validateDryRun(values: readonly string[]): FieldError[] {
  return values.every((v) => v === 'All') ? [] : [notSupported(path('dryRun'), values, ['All'])];
}

function validateFieldManager(value: string): FieldError[] {
  const errs: FieldError[] = [];
  if (value.length > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(path('fieldManager'), FIELD_MANAGER_MAX_LENGTH));
  [...value].forEach((ch, i) => {
    // unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalidValue(path('fieldManager'), value, `invalid character U+${code} (at position ${i})`));
    }
  });
  return errs;
}

export function invalidOptions(kind: OptionsKind | 'ListOptions', errs: readonly FieldError[]): void {
  if (errs.length > 0) throw invalid({ group: 'meta.k8s.io', kind }, '', errs);
}

export function parseWriteOptions(query: URLSearchParams, kind: OptionsKind): WriteOptions {
  const dryRun = query.getAll('dryRun');
  const fieldManager = query.get('fieldManager') ?? undefined;
  const fieldValidation = query.get('fieldValidation') ?? '';
  const errs = [
    ...validateDryRun(dryRun),
    ...(fieldManager === undefined ? [] : validateFieldManager(fieldManager)),
    ...(fieldValidation === '' || FIELD_VALIDATIONS.includes(fieldValidation)
      ? []
      : [notSupported(path('fieldValidation'), fieldValidation, FIELD_VALIDATIONS)]),
  ];
  invalidOptions(kind, errs);
  return {
    dryRun: dryRun.length > 0,
    fieldManager: fieldManager === '' ? undefined : fieldManager,
    // kube's default since server-side field validation went GA (1.27).
    fieldValidation: fieldValidation === '' ? 'Warn' : (fieldValidation as FieldValidation),
  };
}

/** An integer query parameter; a malformed one is 400 like Go's strconv error. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const parsed = parseGoInt64(raw);
  if (parsed.error !== undefined) throw badRequest(parsed.error);
  return Number(parsed.value);
}

export function boolParam(query: URLSearchParams, name: string): boolean {
  const raw = query.get(name);
  return raw !== null && raw !== '' && raw !== '0' && raw.toLowerCase() !== 'false';
}
