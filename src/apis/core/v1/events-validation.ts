// The rules of Events, which depend on the version a write came through, as in
// kube's pkg/apis/core/validation/events.go (ValidateEventCreate,
// ValidateEventUpdate): every write passes the legacy rules; a write through any
// version but core/v1 and events.k8s.io/v1beta1 (here: events.k8s.io/v1) also
// passes the strict ones. The strategy reads the stored core/v1 object, which plays
// kube's internal version, so error paths carry kube's internal names (message,
// count, source, reportingController), not the events.k8s.io/v1 names the client
// sent (note, deprecatedCount, deprecatedSource): kube reports them so too.
import type { WriteContext } from '../../../registry/strategy.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, goLiteral, invalidValue, path, required } from '../../../schema/field-errors.js';
import { ownField } from '../../../schema/field-path.js';
import { goQuote } from '../../../schema/go-quote.js';
import { FIELD_IMMUTABLE } from '../../../registry/validation/common.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../registry/validation/names.js';
import { objectAt, stringAt } from './helpers.js';

// Go's len(): bytes of the UTF-8 text, not UTF-16 units.
const LIMITS = { reportingInstance: 128, action: 128, reason: 128, message: 1024 } as const;

/** kube's requestGroupVersion check: only these keep the lenient rules, for backward compatibility. */
function isLegacyRequest(ctx: WriteContext): boolean {
  const { group, version } = ctx.requestVersion;
  return (group === '' && version === 'v1') || (group === 'events.k8s.io' && version === 'v1beta1');
}

/** A time field holds a time: Go's zero time is how kube sees an absent or null one. */
function isTimeSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** legacyValidateEvent: the rules every event passes, whatever version it came through. */
export function legacyEventErrors(ev: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const ns = ev.metadata.namespace ?? '';
  const involvedNs = stringAt(objectAt(ev, 'involvedObject'), 'namespace');
  const mismatch = invalidValue(path('involvedObject', 'namespace'), involvedNs, 'does not match event.namespace');
  if (!isTimeSet(ownField(ev, 'eventTime'))) {
    // Old clients may leave involvedObject.namespace empty for events in "default".
    if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) errs.push(mismatch);
    return errs;
  }
  if (involvedNs === '' && ns !== 'default' && ns !== 'kube-system') errs.push(mismatch);
  const controller = stringAt(ev, 'reportingComponent');
  // Error paths use kube's internal field name, reportingController.
  if (controller === '') errs.push(required(path('reportingController')));
  for (const msg of isQualifiedName(controller)) errs.push(invalidValue(path('reportingController'), controller, msg));
  for (const field of ['reportingInstance', 'action', 'reason'] as const) {
    const v = stringAt(ev, field);
    if (v === '') errs.push(required(path(field)));
    if (byteLength(v) > LIMITS[field]) errs.push(invalidValue(path(field), '', `can have at most ${LIMITS[field]} characters`));
  }
  if (byteLength(stringAt(ev, 'message')) > LIMITS.message) errs.push(invalidValue(path('message'), '', `can have at most ${LIMITS.message} characters`));
  return errs;
}

/** validateV1EventSeries. */
function seriesErrors(ev: KubeObject): FieldError[] {
  const series = objectAt(ev, 'series');
  if (series === undefined) return [];
  const errs: FieldError[] = [];
  const count = ownField(series, 'count');
  if (typeof count !== 'number' || count < 2) errs.push(invalidValue(path('series', 'count'), '', 'should be at least 2'));
  if (!isTimeSet(ownField(series, 'lastObservedTime'))) errs.push(required(path('series', 'lastObservedTime')));
  return errs;
}

/**
 * The name part of the ValidateObjectMeta that strict creates run with DNS-subdomain
 * names; the rest of it is the generic ObjectMeta check every write already gets
 * (registry/validation/object-meta.ts, with path-segment names for events).
 */
function subdomainNameErrors(ev: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = ev.metadata.generateName ?? '';
  if (generateName !== '') {
    // Go's maskTrailingDash: a prefix may end in '-'.
    const masked = generateName.length > 1 && generateName.endsWith('-') ? `${generateName.slice(0, -2)}a` : generateName;
    for (const msg of isDNS1123Subdomain(masked)) errs.push(invalidValue(path('metadata', 'generateName'), generateName, msg));
  }
  const name = ev.metadata.name ?? '';
  if (name !== '') for (const msg of isDNS1123Subdomain(name)) errs.push(invalidValue(path('metadata', 'name'), name, msg));
  return errs;
}

function mustBeUnset(p: FieldPath): FieldError {
  return invalidValue(p, '', 'needs to be unset');
}

export function validateEventCreate(ev: KubeObject, ctx: WriteContext): FieldError[] {
  const errs = legacyEventErrors(ev);
  if (isLegacyRequest(ctx)) return errs;
  errs.push(...subdomainNameErrors(ev), ...seriesErrors(ev));
  if (!isTimeSet(ownField(ev, 'eventTime'))) errs.push(required(path('eventTime')));
  const type = stringAt(ev, 'type');
  if (type !== 'Normal' && type !== 'Warning') errs.push(invalidValue(path('type'), '', `has invalid value: ${type}`));
  if (isTimeSet(ownField(ev, 'firstTimestamp'))) errs.push(mustBeUnset(path('firstTimestamp')));
  if (isTimeSet(ownField(ev, 'lastTimestamp'))) errs.push(mustBeUnset(path('lastTimestamp')));
  const count = ownField(ev, 'count');
  if (typeof count === 'number' && count !== 0) errs.push(mustBeUnset(path('count')));
  const source = objectAt(ev, 'source');
  if (stringAt(source, 'component') !== '' || stringAt(source, 'host') !== '') errs.push(mustBeUnset(path('source')));
  return errs;
}

type GoKind = 'string' | 'int' | 'time' | 'reference' | 'optionalReference' | 'source';

/**
 * What a strict update may not change, in kube's order, under kube's internal
 * names (stored field -> reported path). kube checks reason twice; the cause is
 * listed twice as kube lists it (the message names it once: invalid() drops
 * repeated texts as apimachinery's ToAggregate does).
 */
const IMMUTABLE: readonly { readonly field: string; readonly reported: string; readonly kind: GoKind }[] = [
  { field: 'involvedObject', reported: 'involvedObject', kind: 'reference' },
  { field: 'reason', reported: 'reason', kind: 'string' },
  { field: 'message', reported: 'message', kind: 'string' },
  { field: 'source', reported: 'source', kind: 'source' },
  { field: 'firstTimestamp', reported: 'firstTimestamp', kind: 'time' },
  { field: 'lastTimestamp', reported: 'lastTimestamp', kind: 'time' },
  { field: 'count', reported: 'count', kind: 'int' },
  { field: 'reason', reported: 'reason', kind: 'string' },
  { field: 'type', reported: 'type', kind: 'string' },
  { field: 'eventTime', reported: 'eventTime', kind: 'time' },
  { field: 'action', reported: 'action', kind: 'string' },
  { field: 'related', reported: 'related', kind: 'optionalReference' },
  { field: 'reportingComponent', reported: 'reportingController', kind: 'string' },
  { field: 'reportingInstance', reported: 'reportingInstance', kind: 'string' },
];

export function validateEventUpdate(next: KubeObject, prev: KubeObject, ctx: WriteContext): FieldError[] {
  const errs = legacyEventErrors(next);
  if (isLegacyRequest(ctx)) return errs;
  // ValidateObjectMetaUpdate is the generic check every update already gets.
  const nextSeries = ownField(next, 'series');
  const prevSeries = ownField(prev, 'series');
  if ((nextSeries == null) !== (prevSeries == null) || !sameGoValue(nextSeries, prevSeries)) errs.push(...seriesErrors(next));
  for (const { field, reported, kind } of IMMUTABLE) {
    const value = ownField(next, field);
    if (!sameGoValue(value, ownField(prev, field))) errs.push(invalidValue(path(reported), goLiteral(goText(kind, value)), FIELD_IMMUTABLE));
  }
  return errs;
}

/** Go's zero value: what an absent JSON field decodes to in kube's structs. */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).every((k) => isZero(ownField(v, k)));
}

/** reflect.DeepEqual of the decoded structs: an absent field equals its zero value. */
function sameGoValue(a: unknown, b: unknown): boolean {
  if (a === b || (isZero(a) && isZero(b))) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) || Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (!sameGoValue(ownField(a, k), ownField(b, k))) return false;
  return true;
}

const REFERENCE_FIELDS = [
  ['Kind', 'kind'],
  ['Namespace', 'namespace'],
  ['Name', 'name'],
  ['UID', 'uid'],
  ['APIVersion', 'apiVersion'],
  ['ResourceVersion', 'resourceVersion'],
  ['FieldPath', 'fieldPath'],
] as const;

/** Go's %#v of a struct of strings: `core.EventSource{Component:"", Host:""}`. */
function goStruct(type: string, value: unknown, fields: readonly (readonly [string, string])[]): string {
  return `${type}{${fields.map(([goName, json]) => `${goName}:${goQuote(stringAt(value, json))}`).join(', ')}}`;
}

/** time.Time's String() of a stored (UTC, RFC 3339) time: `2026-01-01 00:00:00.5 +0000 UTC`. */
function goTime(value: unknown): string {
  const text = typeof value === 'string' && value !== '' ? value : '0001-01-01T00:00:00Z';
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(text);
  if (m === null) return goQuote(text);
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]} ${m[2]}${fraction === '' ? '' : `.${fraction}`} +0000 UTC`;
}

/** How apimachinery's field.Error prints a bad value of this Go type. */
function goText(kind: GoKind, value: unknown): string {
  switch (kind) {
    case 'string':
      return goQuote(typeof value === 'string' ? value : '');
    case 'int':
      return String(typeof value === 'number' ? value : 0);
    case 'time':
      return goTime(value);
    case 'reference':
      return goStruct('core.ObjectReference', value, REFERENCE_FIELDS);
    case 'optionalReference':
      return value === undefined || value === null ? 'null' : goStruct('core.ObjectReference', value, REFERENCE_FIELDS);
    case 'source':
      return goStruct('core.EventSource', value, [
        ['Component', 'component'],
        ['Host', 'host'],
      ]);
  }
}
