// What every answer must satisfy, whatever was sent (issue 8): no 5xx; an error
// is a `kind: Status` body with `status: Failure` and `code` equal to the HTTP
// status; a 2xx write answers an object whose metadata has kube's JSON types;
// a path with dot or empty segments is never served; and the input's own
// expectation (kube-apiserver's answer) when it was sent unmutated. A
// violation's signature (its dedup key) leaves out names and numbers so one
// fault is one line.
import type { Outcome } from './client.js';
import type { FuzzInput } from './input.js';
import { isMap } from './kinds.js';

export interface Violation {
  /** Dedup key: the rule, the status, the reason and the first line of the message with variable parts blanked. */
  readonly signature: string;
  readonly detail: string;
}

type Answer = Extract<Outcome, { kind: 'answer' }>;

/** Twice kube-apiserver's 3 MiB --max-request-bytes: what the server refuses before reading. */
const OVERSIZED_UPLOAD_BYTES = 2 * 3 * 1024 * 1024;

export function checkOutcome(input: FuzzInput, outcome: Outcome): Violation | undefined {
  switch (outcome.kind) {
    case 'unsendable':
      return undefined;
    case 'timeout':
      // A watch (?watch=true, or a mutated path that decodes to one) streams until its
      // timeoutSeconds: no answer within the deadline is what it should do.
      if (isWatch(input.path)) return undefined;
      return { signature: 'hang: no answer within the request deadline', detail: `no answer after ${Math.round(outcome.ms)} ms` };
    case 'no-answer':
      if (input.allowNoAnswer === true) return undefined;
      // An HTTP/1.1 upload far over the body limit is refused at once and its
      // connection closed, as Go's server closes one with a large unread body after
      // kube-apiserver's 413: a client still writing may see EPIPE or a reset instead.
      if (input.transport === 'h1' && (input.body?.length ?? 0) > OVERSIZED_UPLOAD_BYTES && /EPIPE|ECONNRESET/.test(outcome.error)) return undefined;
      return { signature: `no answer: ${normalize(outcome.error)}`, detail: outcome.error };
    case 'answer':
      return checkAnswer(input, outcome);
  }
}

function checkAnswer(input: FuzzInput, a: Answer): Violation | undefined {
  const status: StatusCheck = input.method === 'HEAD' ? {} : decodeStatus(a);
  const label = status.reason === undefined ? `${a.status}` : `${a.status} ${status.reason}`;
  const first = firstLine(status.message);
  if (a.status >= 500) return { signature: `5xx: ${label}: ${normalize(first ?? status.problem ?? '')}`, detail: bodyText(a) };
  // A whole answer then a reset of the unread upload is allowed (RFC 9113 §8.1); an answer cut short is not.
  if (a.cutOff !== undefined && input.allowNoAnswer !== true && input.method !== 'HEAD' && parseJson(a.body) === undefined) {
    return { signature: `answer cut off: ${a.status}: ${normalize(a.cutOff)}`, detail: bodyText(a) };
  }
  const warningRunes = headerValues(a.headers.warning).reduce((n, w) => n + warningTextRunes(w), 0);
  if (warningRunes > WARNING_BUDGET) {
    return { signature: `Warning headers over kube-apiserver's ${WARNING_BUDGET}-rune budget`, detail: `${headerValues(a.headers.warning).length} Warning values, ${warningRunes} runes of text` };
  }
  if (a.status >= 400 && status.problem !== undefined) {
    return { signature: `error body is not a Status: ${a.status}: ${status.problem}`, detail: bodyText(a) };
  }
  // A raw input's path field is not what its bytes ask for.
  if (a.status >= 200 && a.status < 300 && input.transport !== 'raw' && isNonCanonical(input.path)) {
    return { signature: `non-canonical path served: ${input.method} ${a.status}`, detail: bodyText(a) };
  }
  const expect = input.expect;
  if (expect?.status !== undefined && !expect.status.includes(a.status)) {
    return { signature: `unexpected answer: ${input.origin}: ${label} (kube-apiserver: ${expect.status.join(' or ')})`, detail: bodyText(a) };
  }
  if (a.status >= 200 && a.status < 300 && input.transport !== 'raw' && !['GET', 'DELETE', 'HEAD', 'OPTIONS'].includes(input.method)) {
    const obj = parseJson(a.body);
    if (isMap(obj) && obj.kind !== 'Status' && obj.kind !== 'Table' && !String(obj.kind ?? '').endsWith('List')) {
      const typeErrors = metadataTypeErrors(obj);
      if (typeErrors.length > 0) return { signature: `wrongly typed object accepted: ${typeErrors[0]!.replace(/\[\d+\]/g, '[i]')}`, detail: bodyText(a) };
      const meta = isMap(obj.metadata) ? obj.metadata : {};
      if (expect?.name !== undefined && meta.name !== expect.name) {
        return { signature: `unexpected answer: ${input.origin}: metadata.name ${JSON.stringify(meta.name)} (kube-apiserver: ${JSON.stringify(expect.name)})`, detail: bodyText(a) };
      }
      for (const path of expect?.hasKeys ?? []) {
        if (!hasPath(obj, path)) return { signature: `unexpected answer: ${input.origin}: ${path.join('.')} did not round-trip`, detail: bodyText(a) };
      }
    }
  }
  return undefined;
}

/**
 * k8s.io/apiserver/pkg/endpoints/filters/warning.go counts the runes of the warning
 * texts (not the `299 - "…"` framing): they fit in 4 Ki, or once over it each is cut
 * to 256 and adding stops when the total reaches 4 Ki, so at most one more item.
 * (Short warnings can thus make ~200 Warning values, as kube-apiserver sends.)
 */
const WARNING_BUDGET = 4 * 1024 + 256;

/** The runes of the texts in a Warning value (`299 - "…"` unquoted); header bytes are UTF-8 carried as latin1. */
function warningTextRunes(value: string): number {
  const text = Buffer.from(value, 'latin1').toString('utf8');
  // HTTP/1.1 clients may join repeated Warning lines with ", ": count every quoted text.
  let runes = 0;
  for (const m of text.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) runes += Array.from(m[1]!.replace(/\\(.)/g, '$1')).length;
  return runes;
}

/** apimachinery's bool query conversion: watch=<anything but "", "0", "false">, or a /watch/ path. */
function isWatch(path: string): boolean {
  const q = path.indexOf('?');
  const watch = q < 0 ? null : new URLSearchParams(path.slice(q + 1)).get('watch');
  const onPath = /\/watch(\/|$)/i.test(decodeURIComponentSafe(q < 0 ? path : path.slice(0, q)));
  return onPath || (watch !== null && watch !== '' && watch !== '0' && watch.toLowerCase() !== 'false');
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function headerValues(v: unknown): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

interface StatusCheck {
  readonly reason?: string;
  readonly message?: string;
  /** Why the body is not a proper Status (only meaningful for error answers). */
  readonly problem?: string;
}

function decodeStatus(a: Answer): StatusCheck {
  if (a.status < 400) return {};
  const body = parseJson(a.body);
  if (body === undefined) return { problem: a.body.length === 0 ? 'empty body' : `not JSON (${String(a.headers['content-type'] ?? 'no content-type')})` };
  if (!isMap(body)) return { problem: 'not an object' };
  const reason = typeof body.reason === 'string' ? body.reason : undefined;
  const message = typeof body.message === 'string' ? body.message : undefined;
  if (body.kind !== 'Status') return { reason, message, problem: `kind ${JSON.stringify(body.kind)}` };
  if (body.status !== 'Failure') return { reason, message, problem: `status ${JSON.stringify(body.status)}` };
  if (body.code !== a.status) return { reason, message, problem: `code ${JSON.stringify(body.code)}` };
  return { reason, message };
}

/** The JSON types kube's ObjectMeta decoder requires (a wrong one is its 400, never a stored object). */
export function metadataTypeErrors(obj: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const meta = obj.metadata;
  if (!isMap(meta)) return ['metadata is not an object'];
  const str = (field: string, optional = true): void => {
    const v = meta[field];
    if (v === undefined && optional) return;
    if (typeof v !== 'string') errors.push(`metadata.${field} is ${typeName(v)}`);
  };
  str('name', false);
  for (const f of ['namespace', 'generateName', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'selfLink']) str(f);
  for (const field of ['labels', 'annotations']) {
    const v = meta[field];
    if (v === undefined) continue;
    if (!isMap(v)) errors.push(`metadata.${field} is ${typeName(v)}`);
    else for (const [k, val] of Object.entries(v)) if (typeof val !== 'string') errors.push(`metadata.${field}[${JSON.stringify(k)}] is ${typeName(val)}`);
  }
  const finalizers = meta.finalizers;
  if (finalizers !== undefined) {
    if (!Array.isArray(finalizers)) errors.push(`metadata.finalizers is ${typeName(finalizers)}`);
    else finalizers.forEach((f, i) => { if (typeof f !== 'string') errors.push(`metadata.finalizers[${i}] is ${typeName(f)}`); });
  }
  const refs = meta.ownerReferences;
  if (refs !== undefined) {
    if (!Array.isArray(refs)) errors.push(`metadata.ownerReferences is ${typeName(refs)}`);
    else refs.forEach((r, i) => {
      if (!isMap(r)) errors.push(`metadata.ownerReferences[${i}] is ${typeName(r)}`);
      else for (const f of ['apiVersion', 'kind', 'name', 'uid']) if (typeof r[f] !== 'string') errors.push(`metadata.ownerReferences[${i}].${f} is ${typeName(r[f])}`);
    });
  }
  for (const f of ['generation', 'deletionGracePeriodSeconds']) {
    const v = meta[f];
    if (v !== undefined && !Number.isInteger(v)) errors.push(`metadata.${f} is ${typeName(v)}`);
  }
  // Keys from clients are data: none may shadow what every object inherits.
  for (const k of ['__proto__', 'constructor', 'toString', 'valueOf', 'prototype']) if (Object.hasOwn(obj, k) || Object.hasOwn(meta, k)) errors.push(`unknown field ${k} stored`);
  return errors;
}

function typeName(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

function hasPath(obj: unknown, path: readonly string[]): boolean {
  let cur: unknown = obj;
  for (const key of path) {
    if (!isMap(cur) || !Object.hasOwn(cur, key)) return false;
    cur = cur[key];
  }
  return true;
}

/**
 * A segment that is `.`, `..` (also percent-encoded) or empty. Trailing slashes
 * aside: go-restful trims every one of them before routing (tokenizePath), so
 * `/api/v1/namespaces//` is the namespace list on kube-apiserver too.
 */
export function isNonCanonical(pathAndQuery: string): boolean {
  // Routing sees the decoded path (Go's URL.Path), so an encoded slash trails like any other.
  const path = decodeURIComponentSafe(pathAndQuery.split('?')[0]!).replace(/\/+$/, '');
  return path.split('/').slice(1).some((s) => s === '' || s === '.' || s === '..');
}

export function parseJson(b: Buffer): unknown {
  try {
    return JSON.parse(b.toString('utf8'));
  } catch {
    return undefined;
  }
}

function firstLine(s: string | undefined): string | undefined {
  return s?.split('\n')[0];
}

/** Variable parts out of a message, so one fault makes one signature: quoted strings, numbers, long runs. */
export function normalize(s: string): string {
  return s
    .replace(/"(?:[^"\\]|\\.){0,200}"/g, '"…"')
    .replace(/'[^']{0,200}'/g, "'…'")
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .replace(/(.)\1{20,}/g, '$1…')
    .slice(0, 160);
}

export function bodyText(a: { status: number; headers: Readonly<Record<string, unknown>>; body: Buffer }): string {
  const text = a.body.toString('utf8');
  return `HTTP ${a.status} ${String(a.headers['content-type'] ?? '')}\n${text.length > 2000 ? text.slice(0, 2000) + '…' : text}`;
}
