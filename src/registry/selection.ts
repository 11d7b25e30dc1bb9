// Label and field selectors of list and watch (`?labelSelector=`, `?fieldSelector=`).
// The list/watch handlers call buildPredicate once per request and hand the
// predicate to storage. Label selectors are schema/label-selector.ts's; field
// selectors follow apimachinery's pkg/fields parser here. Grammar, matching and
// error texts are kube's, because clients compare the 400 messages and kubectl
// passes user selectors through verbatim.
import { badRequest } from '../errors/status-error.js';
import { LabelSelectorError, matchesLabels, parseLabelSelector, type LabelRequirement } from '../schema/label-selector.js';
import type { KubeObject } from '../schema/object.js';
import type { ObjectPredicate } from '../storage/storage.js';
import type { ResourceDefinition } from './define-resource.js';

/** `?labelSelector=` as requirements; a selector that does not parse is a 400 with the parser's text. */
function labelRequirementsOf(selector: string): LabelRequirement[] {
  try {
    return parseLabelSelector(selector);
  } catch (err) {
    if (err instanceof LabelSelectorError) throw badRequest(err.message);
    throw err;
  }
}

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** Splits on commas not escaped by a backslash. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

function unescapeValue(s: string): string {
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw new Error(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    // Go prints the rune with %v, i.e. as its number.
    else if (c === ',' || c === '=') throw new Error(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new Error('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Parses `?fieldSelector=` (`a=b,c!=d,e==f`); throws BadRequest. */
export function parseFieldSelector(selector: string): FieldRequirement[] {
  if (selector === '') return [];
  const reqs: FieldRequirement[] = [];
  try {
    for (const part of splitTerms(selector).sort()) {
      if (part === '') continue;
      const m = /^(.*?)(!=|==|=)(.*)$/s.exec(part);
      if (m === null) throw new Error(`invalid selector: '${selector}'; can't understand '${part}'`);
      reqs.push({ field: m[1]!, operator: m[2] === '!=' ? '!=' : '=', value: unescapeValue(m[3]!) });
    }
  } catch (err) {
    throw badRequest((err as Error).message);
  }
  return reqs;
}

/** The field values an object offers: metadata.name/namespace on every kind, plus the kind's own. */
export function selectableFieldsOf(resource: ResourceDefinition, obj: KubeObject): Record<string, string> {
  return {
    'metadata.name': obj.metadata?.name ?? '',
    'metadata.namespace': obj.metadata?.namespace ?? '',
    ...(resource.strategy.selectableFields?.(obj) ?? {}),
  };
}

/**
 * One predicate for both selectors, or undefined when neither restricts anything
 * (so storage can skip filtering). Unsupported field labels are a BadRequest as in
 * kube (the set comes from the kind's selectableFields of an empty object).
 */
export function buildPredicate(opts: { labelSelector?: string; fieldSelector?: string; resource: ResourceDefinition }): ObjectPredicate | undefined {
  const labelReqs = labelRequirementsOf(opts.labelSelector ?? '');
  const fieldReqs = parseFieldSelector(opts.fieldSelector ?? '');
  const supported = selectableFieldsOf(opts.resource, { metadata: {} });
  for (const r of fieldReqs) {
    // Own members only: `constructor` or `toString` is not a field label.
    if (!Object.hasOwn(supported, r.field)) throw badRequest(`field label not supported: ${r.field}`);
  }
  if (labelReqs.length === 0 && fieldReqs.length === 0) return undefined;
  return (obj) => {
    if (!matchesLabels(labelReqs, obj.metadata?.labels)) return false;
    if (fieldReqs.length === 0) return true;
    const fields = selectableFieldsOf(opts.resource, obj);
    return fieldReqs.every((r) => ((Object.hasOwn(fields, r.field) ? fields[r.field] : '') === r.value) === (r.operator === '='));
  };
}
