// A request's raw ?labelSelector= and ?fieldSelector= as the requirement lists a
// SubjectAccessReview carries (AuthorizeWithSelectors), converted as kube's webhook
// authorizer converts them (webhook.go labelSelectorToAuthorizationAPI and
// fieldSelectorToAuthorizationAPI): =, == and in are In; != and notin NotIn;
// exists and ! Exists and DoesNotExist; gt and lt dropped (fewer requirements ask
// about more, never less). A selector that does not parse adds none.
import { LabelSelectorError, parseLabelSelector, type LabelOperator } from '../../../schema/label-selector.js';
import { parseFieldSelector } from '../field-selector.js';

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

/** fields.ParseSelector's requirements, terms sorted as it sorts them; none when it does not parse. */
export function fieldSelectorRequirements(raw: string | undefined): SelectorRequirement[] {
  if (raw === undefined || raw === '') return [];
  return (parseFieldSelector(raw, { sorted: true }) ?? []).map((r) => ({ key: r.field, operator: r.equals ? 'In' : 'NotIn', values: [r.value] }));
}
