// Label and field selectors of list and watch (`?labelSelector=`, `?fieldSelector=`).
// The list/watch handlers call buildPredicate once per request and hand the
// predicate to storage. Grammar, matching and error texts follow apimachinery's
// pkg/labels and pkg/fields parsers, because clients compare the 400 messages
// and kubectl passes user selectors through verbatim.
import { badRequest } from '../errors/status-error.js';
import type { KubeObject } from '../schema/object.js';
import type { ObjectPredicate } from '../storage/storage.js';
import type { ResourceDefinition } from './define-resource.js';
import { isQualifiedName, isValidLabelValue } from './validation/names.js';

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted and unique, as apimachinery keeps them. */
  readonly values: readonly string[];
}

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
      if (t.kind !== 'identifier' && t.kind !== '!') throw new Error(`found '${t.literal}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(this.requirement());
      } catch (err) {
        throw new Error(`unable to parse requirement: ${(err as Error).message}`);
      }
      const after = this.next(true);
      if (after.kind === 'end') return reqs;
      if (after.kind !== ',') throw new Error(`found '${after.literal}', expected: ',' or 'end of string'`);
      const following = this.peek(true);
      if (following.kind !== 'identifier' && following.kind !== '!') {
        throw new Error(`found '${following.literal}', expected: identifier after ','`);
      }
    }
  }

  private requirement(): LabelRequirement {
    let t = this.next(true);
    const negated = t.kind === '!';
    if (negated) t = this.next(true);
    if (t.kind !== 'identifier') throw new Error(`found '${t.literal}', expected: identifier`);
    const key = t.literal;
    // The parser validates the key with no field path, which Go prints as "<nil>".
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length > 0) throw new Error(`<nil>: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`);
    const la = this.peek(true).kind;
    if (la === 'end' || la === ',') return newRequirement(key, negated ? '!' : 'exists', []);
    if (negated) return newRequirement(key, '!', []);
    const op = this.operator();
    const values = op === 'in' || op === 'notin' ? this.valueSet() : this.exactValue();
    return newRequirement(key, op, [...new Set(values)].sort());
  }

  private operator(): LabelOperator {
    const t = this.next(false);
    const ops: Partial<Record<TokenKind, LabelOperator>> = { in: 'in', notin: 'notin', '=': '=', '==': '==', '!=': '!=', '>': 'gt', '<': 'lt' };
    const op = ops[t.kind];
    if (op === undefined) throw new Error(`found '${t.literal}', expected: ${BINARY_OPERATORS}`);
    return op;
  }

  private valueSet(): string[] {
    const open = this.next(true);
    if (open.kind !== '(') throw new Error(`found '${open.literal}' expected: '('`);
    const first = this.peek(true);
    if (first.kind === ')') {
      this.next(true);
      return [''];
    }
    if (first.kind !== 'identifier' && first.kind !== ',') throw new Error(`found '${first.literal}', expected: ',', ')' or identifier`);
    const values = this.identifierList();
    if (this.next(true).kind !== ')') throw new Error(`found '${first.literal}', expected: ')'`);
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
        throw new Error(`found '${la.literal}', expected: ',' or ')'`);
      }
      if (t.kind !== ',') throw new Error(`found '${t.literal}', expected: ',', or identifier`);
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
    throw new Error(`found '${t.literal}', expected: identifier`);
  }
}

/** apimachinery's NewRequirement checks; several problems come out as "[a, b]". */
function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const errs: string[] = [];
  const render = (v: readonly string[]): string => `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`;
  if ((operator === 'in' || operator === 'notin') && values.length === 0) {
    errs.push(`values: Invalid value: ${render(values)}: for 'in', 'notin' operators, values set can't be empty`);
  }
  if ((operator === '=' || operator === '==' || operator === '!=') && values.length !== 1) {
    errs.push(`values: Invalid value: ${render(values)}: exact-match compatibility requires one single value`);
  }
  if (operator === 'gt' || operator === 'lt') {
    values.forEach((v, i) => {
      if (!/^[+-]?\d+$/.test(v)) errs.push(`values[${i}]: Invalid value: ${JSON.stringify(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
    });
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(`values[${i}][${key}]: Invalid value: ${JSON.stringify(v)}: ${msgs.join('; ')}`);
  });
  const unique = [...new Set(errs)];
  if (unique.length === 1) throw new Error(unique[0]);
  if (unique.length > 1) throw new Error(`[${unique.join(', ')}]`);
  return { key, operator, values };
}

/** Parses `?labelSelector=`; throws BadRequest with kube's parser message. */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  try {
    return new LabelParser(lex(selector)).parse().sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  } catch (err) {
    throw badRequest((err as Error).message);
  }
}

export function matchesLabels(reqs: readonly LabelRequirement[], labels: Readonly<Record<string, string>> | undefined): boolean {
  const ls = labels ?? {};
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(ls, r.key);
    const value = has ? String(ls[r.key]) : '';
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
        if (!has || !/^[+-]?\d+$/.test(value) || r.values.length !== 1) return false;
        const [a, b] = [BigInt(value), BigInt(r.values[0]!)];
        return r.operator === 'gt' ? a > b : a < b;
      }
    }
  });
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
  const labelReqs = parseLabelSelector(opts.labelSelector ?? '');
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
