// A request's raw ?labelSelector= and ?fieldSelector= as the requirement lists a
// SubjectAccessReview carries (AuthorizeWithSelectors), converted as kube's webhook
// authorizer converts them (webhook.go labelSelectorToAuthorizationAPI and
// fieldSelectorToAuthorizationAPI): =, == and in are In; != and notin NotIn;
// exists and ! Exists and DoesNotExist; gt and lt dropped (fewer requirements ask
// about more, never less). A selector that does not parse adds none.
import { LabelSelectorError, parseLabelSelector, type LabelOperator } from '../../../schema/label-selector.js';

export type SelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** metav1.LabelSelectorRequirement / FieldSelectorRequirement (same JSON shape). */
export interface SelectorRequirement {
  readonly key: string;
  readonly operator: SelectorOperator;
  /** Absent when empty (omitempty). */
  readonly values?: readonly string[];
}

const LABEL_OPERATORS: Readonly<Record<LabelOperator, SelectorOperator | undefined>> = {
  in: 'In',
  '=': 'In',
  '==': 'In',
  notin: 'NotIn',
  '!=': 'NotIn',
  exists: 'Exists',
  '!': 'DoesNotExist',
  gt: undefined,
  lt: undefined,
};

export function labelSelectorRequirements(raw: string | undefined): SelectorRequirement[] {
  if (raw === undefined || raw === '') return [];
  let parsed;
  try {
    parsed = parseLabelSelector(raw);
  } catch (err) {
    if (err instanceof LabelSelectorError) return [];
    throw err;
  }
  const out: SelectorRequirement[] = [];
  for (const r of parsed) {
    const operator = LABEL_OPERATORS[r.operator];
    if (operator === undefined) continue;
    out.push(r.values.length > 0 ? { key: r.key, operator, values: [...r.values] } : { key: r.key, operator });
  }
  return out;
}

/** fields.ParseSelector's terms: split on commas a backslash does not escape. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** fields.UnescapeValue; undefined where kube's parser fails. */
function unescapeValue(s: string): string | undefined {
  let out = '';
  let escaped = false;
  for (const c of s) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') return undefined;
      out += c;
      escaped = false;
    } else if (c === '\\') escaped = true;
    else if (c === ',' || c === '=') return undefined;
    else out += c;
  }
  return escaped ? undefined : out;
}

/**
 * fields.ParseSelector's requirements, terms sorted as it sorts them. A second
 * parser beside registry/selection.ts's, because auth/ may not import registry/:
 * when that one moves to schema/, this one should go.
 */
export function fieldSelectorRequirements(raw: string | undefined): SelectorRequirement[] {
  if (raw === undefined || raw === '') return [];
  const out: SelectorRequirement[] = [];
  for (const term of splitTerms(raw).sort()) {
    if (term === '') continue;
    const m = /^(.*?)(!=|==|=)(.*)$/s.exec(term);
    const value = m === null ? undefined : unescapeValue(m[3]!);
    if (m === null || value === undefined) return [];
    out.push({ key: m[1]!, operator: m[2] === '!=' ? 'NotIn' : 'In', values: [value] });
  }
  return out;
}
