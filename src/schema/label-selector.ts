// Label selectors, in one place: the string form (`?labelSelector=`,
// Scale.status.selector) parsed with apimachinery's pkg/labels grammar and error
// texts, since clients compare the 400 messages and kubectl passes selectors
// through verbatim; metav1.LabelSelector (matchLabels / matchExpressions) and
// plain label sets turned into the same requirements; matching an object's
// labels; and the canonical text (labels.Selector's String).
//
// The syntax of label keys and values (and of the DNS subdomain a key's prefix
// is) lives here too: the parser and the conversion check keys and values with
// kube's messages, and schema/ may import nothing above it.
// registry/validation/names.ts re-exports these checks, and
// registry/validation/label-selector.ts turns them into field errors. That syntax
// is what takes this file past 400 lines; it belongs in a schema/names.ts of its
// own once name syntax moves below the registry (TODO(#9)).
import { parseGoInt64 } from './go-strconv.js';

// --- label keys and values (apimachinery pkg/util/validation) ---------------------

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const QNAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QNAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QNAME_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

// For names.ts, whose DNS-1123 label check is built on the same pieces.
export { DNS1123_LABEL_FMT };
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const QUALIFIED_NAME_MAX_LENGTH = 63;
const LABEL_VALUE_MAX_LENGTH = 63;
const EMPTY_ERROR = 'must be non-empty';

const anchored = (fmt: string): RegExp => new RegExp(`^${fmt}$`);
/** names.ts's DNS-1123 label check uses it to tell a subdomain's dots apart. */
export const DNS1123_SUBDOMAIN = anchored(DNS1123_SUBDOMAIN_FMT);
const QUALIFIED_NAME = anchored(QNAME_FMT);
const LABEL_VALUE = anchored(LABEL_VALUE_FMT);
/** `[prefix/]name` in one test: neither part can hold a '/', so the prefix is whatever precedes the one slash. */
const QUALIFIED_KEY = anchored(`(${DNS1123_SUBDOMAIN_FMT}/)?${QNAME_FMT}`);

/** apimachinery's RegexError: examples are joined with "', " + " or " (the double space is kube's). */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** The prefix of a label key, and object names of most kinds. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** Label keys, annotation keys (lower-cased first), finalizers: `[prefix/]name`. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
  else if (name.length > QUALIFIED_NAME_MAX_LENGTH) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  // Not an else: kube reports an empty name both as empty and as not matching.
  if (!QUALIFIED_NAME.test(name)) errs.push(`name part ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

// The questions below are the checks above answering only "valid?": asked first
// where most input is valid, so a valid key or value costs a regex test and no
// list of messages; the messages are gathered only for what fails.

/** isDNS1123Subdomain found nothing. */
export function matchesDNS1123Subdomain(value: string): boolean {
  return value.length <= DNS1123_SUBDOMAIN_MAX_LENGTH && DNS1123_SUBDOMAIN.test(value);
}

const validKeys = new Set<string>();
/** Valid keys remembered; past this the memo starts over (it only saves work). */
const VALID_KEY_MEMO_LIMIT = 1024;

/**
 * isQualifiedName found nothing: the prefix (if any) and the name are checked
 * for their length here, for their syntax by the pattern. Valid keys are
 * remembered: every write of a workload checks the same few label and
 * annotation keys several times (labels, selector, template).
 */
export function matchesQualifiedName(value: string): boolean {
  if (validKeys.has(value)) return true;
  const slash = value.indexOf('/');
  const valid = slash <= DNS1123_SUBDOMAIN_MAX_LENGTH && value.length - slash - 1 <= QUALIFIED_NAME_MAX_LENGTH && QUALIFIED_KEY.test(value);
  if (valid) {
    if (validKeys.size >= VALID_KEY_MEMO_LIMIT) validKeys.clear();
    validKeys.add(value);
  }
  return valid;
}

/** isValidLabelValue found nothing. */
export function matchesLabelValue(value: string): boolean {
  return value.length <= LABEL_VALUE_MAX_LENGTH && LABEL_VALUE.test(value);
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

// --- requirements -------------------------------------------------------------------

/** selection.Operator: `exists` and `!` are the unary ones, `gt`/`lt` compare integers. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** The parser keeps them sorted and unique, as apimachinery does; conversions keep them as given. */
  readonly values: readonly string[];
}

/** A selector that does not parse or convert; the message is apimachinery's, word for word. */
export class LabelSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorError';
  }
}

/** metav1.LabelSelector as it arrives in an object (types are checked by the typed walk first). */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: readonly LabelSelectorRequirement[] | null;
}

export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[] | null;
}

/** strconv.ParseInt(s, 10, 64), undefined where Go refuses it. */
function parseInt64(s: string): bigint | undefined {
  return parseGoInt64(s).value;
}

/** Go's %#v of a []string, as field.Invalid prints a values list. */
function goStrings(values: readonly string[]): string {
  return `[]string{${values.map((s) => JSON.stringify(s)).join(', ')}}`;
}

/** utilerrors.NewAggregate's text: one message bare, several deduplicated in brackets. */
function aggregate(errs: readonly string[]): string {
  const unique = [...new Set(errs)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/**
 * labels.NewRequirement: the key, the operator's rules on the number of values,
 * integers for gt/lt and each value's label syntax, all reported at once.
 */
export function newRequirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  if (isWellFormed(key, operator, values)) return { key, operator, values };
  // Something is wrong (or isWellFormed was too strict): gather every message kube gives.
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length > 0) errs.push(`key: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`);
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(`values: Invalid value: ${goStrings(values)}: for 'in', 'notin' operators, values set can't be empty`);
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(`values: Invalid value: ${goStrings(values)}: exact-match compatibility requires one single value`);
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(`values: Invalid value: ${goStrings(values)}: values set must be empty for exists and does not exist`);
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(`values: Invalid value: ${goStrings(values)}: for 'Gt', 'Lt' operators, exactly one value is required`);
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(`values[${i}]: Invalid value: ${JSON.stringify(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
      });
      break;
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(`values[${i}][${key}]: Invalid value: ${JSON.stringify(v)}: ${msgs.join('; ')}`);
  });
  if (errs.length > 0) throw new LabelSelectorError(aggregate(errs));
  return { key, operator, values };
}

/**
 * What newRequirement would find nothing wrong with, asked without building a
 * message: every selector of every workload write converts, nearly always validly.
 */
function isWellFormed(key: string, operator: LabelOperator, values: readonly string[]): boolean {
  if (!matchesQualifiedName(key)) return false;
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) return false;
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) return false;
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) return false;
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1 || parseInt64(values[0]!) === undefined) return false;
      break;
  }
  for (const v of values) if (!matchesLabelValue(v)) return false;
  return true;
}

const compareKeys = (a: LabelRequirement, b: LabelRequirement): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Below this many requirements byKey sorts by insertion: Array.prototype.sort costs about a kilobyte of scratch even for two. */
const SMALL_SORT = 16;

/** labels.ByKey; a stable sort, so requirements on one key keep their order. */
function byKey(reqs: LabelRequirement[]): LabelRequirement[] {
  if (reqs.length > SMALL_SORT) return reqs.sort(compareKeys);
  // Insertion sort, stable: an item moves only past keys strictly greater than its own.
  for (let i = 1; i < reqs.length; i++) {
    const r = reqs[i]!;
    let j = i;
    for (; j > 0 && compareKeys(reqs[j - 1]!, r) > 0; j--) reqs[j] = reqs[j - 1]!;
    reqs[j] = r;
  }
  return reqs;
}

// --- the string form ----------------------------------------------------------------

type TokenKind = 'error' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'identifier' | 'in' | '<' | '!=' | 'notin' | '(';

interface Token {
  readonly kind: TokenKind;
  readonly literal: string;
}

const SYMBOLS = new Set([')', ',', '!', '==', '=', '>', '<', '!=', '(']);
const KEYWORDS = new Set(['in', 'notin']);
const isSpecial = (ch: string): boolean => '=!(),><'.includes(ch);
const isSpace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';
const OPERATOR_TOKENS: Partial<Record<TokenKind, LabelOperator>> = { in: 'in', notin: 'notin', '=': '=', '==': '==', '!=': '!=', '>': 'gt', '<': 'lt' };

function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  for (;;) {
    while (pos < input.length && isSpace(input[pos]!)) pos++;
    if (pos >= input.length) {
      tokens.push({ kind: 'end', literal: '' });
      return tokens;
    }
    if (isSpecial(input[pos]!)) {
      // Longest run of symbol characters that still forms a known operator.
      let buffer = '';
      let last: Token | undefined;
      while (pos < input.length && isSpecial(input[pos]!)) {
        buffer += input[pos];
        if (SYMBOLS.has(buffer)) last = { kind: buffer as TokenKind, literal: buffer };
        else if (last !== undefined) break;
        pos++;
      }
      tokens.push(last ?? { kind: 'error', literal: `error expected: keyword found '${buffer}'` });
      continue;
    }
    const start = pos;
    while (pos < input.length && !isSpecial(input[pos]!) && !isSpace(input[pos]!)) pos++;
    const word = input.slice(start, pos);
    tokens.push({ kind: KEYWORDS.has(word) ? (word as TokenKind) : 'identifier', literal: word });
  }
}

/** apimachinery's Parser: `in`/`notin` read as identifiers wherever a value is expected. */
class LabelParser {
  private position = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(values: boolean): Token {
    const t = this.tokens[this.position]!;
    return values && (t.kind === 'in' || t.kind === 'notin') ? { kind: 'identifier', literal: t.literal } : t;
  }

  private next(values: boolean): Token {
    const t = this.peek(values);
    if (this.position < this.tokens.length - 1) this.position++;
    return t;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const t = this.peek(true);
      if (t.kind === 'end') return reqs;
      if (t.kind !== 'identifier' && t.kind !== '!') throw new LabelSelectorError(`found '${t.literal}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(this.requirement());
      } catch (err) {
        if (!(err instanceof LabelSelectorError)) throw err;
        throw new LabelSelectorError(`unable to parse requirement: ${err.message}`);
      }
      const after = this.next(true);
      if (after.kind === 'end') return reqs;
      if (after.kind !== ',') throw new LabelSelectorError(`found '${after.literal}', expected: ',' or 'end of string'`);
      const following = this.peek(true);
      if (following.kind !== 'identifier' && following.kind !== '!') {
        throw new LabelSelectorError(`found '${following.literal}', expected: identifier after ','`);
      }
    }
  }

  private requirement(): LabelRequirement {
    let t = this.next(true);
    const negated = t.kind === '!';
    if (negated) t = this.next(true);
    if (t.kind !== 'identifier') throw new LabelSelectorError(`found '${t.literal}', expected: identifier`);
    const key = t.literal;
    // The parser checks the key with no field path, which Go prints as "<nil>".
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length > 0) throw new LabelSelectorError(`<nil>: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`);
    const la = this.peek(true).kind;
    if (la === 'end' || la === ',') return newRequirement(key, negated ? '!' : 'exists', []);
    if (negated) return newRequirement(key, '!', []);
    const op = this.operator();
    const values = op === 'in' || op === 'notin' ? this.valueSet() : this.exactValue();
    return newRequirement(key, op, [...new Set(values)].sort());
  }

  private operator(): LabelOperator {
    const t = this.next(false);
    const op = OPERATOR_TOKENS[t.kind];
    if (op === undefined) throw new LabelSelectorError(`found '${t.literal}', expected: ${BINARY_OPERATORS}`);
    return op;
  }

  private valueSet(): string[] {
    const open = this.next(true);
    if (open.kind !== '(') throw new LabelSelectorError(`found '${open.literal}' expected: '('`);
    const first = this.peek(true);
    if (first.kind === ')') {
      this.next(true);
      return [''];
    }
    if (first.kind !== 'identifier' && first.kind !== ',') throw new LabelSelectorError(`found '${first.literal}', expected: ',', ')' or identifier`);
    const values = this.identifierList();
    if (this.next(true).kind !== ')') throw new LabelSelectorError(`found '${first.literal}', expected: ')'`);
    return values;
  }

  /** Empty entries ("(,a)", "(a,,b)", "(a,)") stand for the empty value, as in kube. */
  private identifierList(): string[] {
    const values: string[] = [];
    for (;;) {
      const t = this.next(true);
      if (t.kind === 'identifier') {
        values.push(t.literal);
        const la = this.peek(true);
        if (la.kind === ',') continue;
        if (la.kind === ')') return values;
        throw new LabelSelectorError(`found '${la.literal}', expected: ',' or ')'`);
      }
      if (t.kind !== ',') throw new LabelSelectorError(`found '${t.literal}', expected: ',', or identifier`);
      if (values.length === 0) values.push('');
      const la = this.peek(true).kind;
      if (la === ')') {
        values.push('');
        return values;
      }
      if (la === ',') {
        this.next(true);
        values.push('');
      }
    }
  }

  private exactValue(): string[] {
    const la = this.peek(true).kind;
    if (la === 'end' || la === ',') return [''];
    const t = this.next(true);
    if (t.kind === 'identifier') return [t.literal];
    throw new LabelSelectorError(`found '${t.literal}', expected: identifier`);
  }
}

/** labels.Parse: requirements sorted by key; throws LabelSelectorError with kube's text. */
export function parseLabelSelector(text: string): LabelRequirement[] {
  return byKey(new LabelParser(lex(text)).parse());
}

// --- the object forms ---------------------------------------------------------------

/** labels.SelectorFromSet: one `=` requirement per label, unchecked (the set was validated where it was written). */
export function labelSetRequirements(set: Readonly<Record<string, unknown>>): LabelRequirement[] {
  return byKey(Object.keys(set).map((key) => ({ key, operator: '=', values: [String(set[key])] })));
}

const NO_EXPRESSIONS: readonly LabelSelectorRequirement[] = Object.freeze([]);

const EXPRESSION_OPERATORS: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector for a selector that is present: matchLabels as
 * `=`, then matchExpressions, sorted by key; `{}` selects everything (no
 * requirements). An absent selector selects nothing, which is the caller's case
 * (see matchesLabelSelector). Throws LabelSelectorError with kube's text.
 */
export function labelSelectorRequirements(selector: LabelSelector): LabelRequirement[] {
  const reqs: LabelRequirement[] = [];
  const labels = selector.matchLabels;
  if (labels !== null && labels !== undefined) {
    // A for-in rather than Object.keys: the same keys in the same order, without the array.
    for (const key in labels) if (Object.hasOwn(labels, key)) reqs.push(newRequirement(key, '=', [String(labels[key])]));
  }
  for (const e of selector.matchExpressions ?? NO_EXPRESSIONS) {
    const operator = Object.hasOwn(EXPRESSION_OPERATORS, e.operator) ? EXPRESSION_OPERATORS[e.operator] : undefined;
    if (operator === undefined) throw new LabelSelectorError(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    reqs.push(newRequirement(e.key, operator, [...(e.values ?? [])]));
  }
  return byKey(reqs);
}

// --- matching and text ----------------------------------------------------------------

function matchesOne(r: LabelRequirement, labels: Readonly<Record<string, unknown>>): boolean {
  // Own members only: a selector on `constructor` must not see Object.prototype's.
  const has = Object.hasOwn(labels, r.key);
  const value = has ? String(labels[r.key]) : '';
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      const actual = has ? parseInt64(value) : undefined;
      const bound = r.values.length === 1 ? parseInt64(r.values[0]!) : undefined;
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

/** Selector.Matches: every requirement holds (no requirements match everything). */
export function matchesLabels(reqs: readonly LabelRequirement[], labels: Readonly<Record<string, unknown>> | null | undefined): boolean {
  const ls = labels ?? {};
  for (const r of reqs) if (!matchesOne(r, ls)) return false;
  return true;
}

/** A metav1.LabelSelector against labels: absent (null) selects nothing, `{}` everything. */
export function matchesLabelSelector(selector: LabelSelector | null | undefined, labels: Readonly<Record<string, unknown>> | null | undefined): boolean {
  if (selector === null || selector === undefined) return false;
  return matchesLabels(labelSelectorRequirements(selector), labels);
}

const OPERATOR_TEXT: Readonly<Record<LabelOperator, string>> = { '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<', exists: '', '!': '' };

/** Requirement.String: `!k`, `k`, `k=v`, `k in (a,b)` (values sorted on output), `k>1`. */
export function renderLabelRequirement(r: LabelRequirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${OPERATOR_TEXT[r.operator]}${set ? `(${values})` : values}`;
}

/** Selector.String: requirements in order, joined by commas, the form Scale.status.selector carries. */
export function renderLabelSelector(reqs: readonly LabelRequirement[]): string {
  return reqs.map(renderLabelRequirement).join(',');
}
